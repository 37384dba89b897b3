//! The merged view of an output directory: every task's `result.json` read back, written
//! together as `results.jsonl`, and summarised per task and per family (the id's directory)
//! as text, Markdown and JSON, with one SARIF log for all tasks.
//!
//! Invariant: the merge reads only the result files, so it gives the same report whoever ran
//! the tasks (threads here, Slurm array elements) and can be redone at any time.

use crate::run::TaskResult;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Every whole result file under `DIR/tasks`, sorted by task id.
pub fn load_results(out: &Path) -> Vec<TaskResult> {
    let mut files = Vec::new();
    collect(&out.join("tasks"), &mut files);
    let mut results: Vec<TaskResult> = files
        .iter()
        .filter_map(|f| crate::run::read_result(f))
        .collect();
    results.sort_by(|a, b| a.id.cmp(&b.id));
    results
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect(&p, out);
        } else if p.file_name().is_some_and(|n| n == "result.json") {
            out.push(p);
        }
    }
}

/// Counts over a set of results.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub tasks: usize,
    #[serde(rename = "true")]
    pub true_: usize,
    #[serde(rename = "false")]
    pub false_: usize,
    pub unknown: usize,
    pub bounded: usize,
    pub error: usize,
    pub correct_true: usize,
    pub correct_false: usize,
    pub wrong_true: usize,
    pub wrong_false: usize,
    pub internal_errors: usize,
    /// Tasks with an expected verdict.
    pub expected: usize,
    pub score: i64,
    /// Sum of the tasks' wall times.
    pub wall_ms: u64,
}

impl Counts {
    fn add(&mut self, r: &TaskResult) {
        self.tasks += 1;
        match r.verdict.as_str() {
            "TRUE" => self.true_ += 1,
            "FALSE" => self.false_ += 1,
            "UNKNOWN" => self.unknown += 1,
            "BOUNDED" => self.bounded += 1,
            _ => self.error += 1,
        }
        match (r.verdict.as_str(), r.expected_verdict) {
            ("TRUE", Some(true)) => self.correct_true += 1,
            ("FALSE", Some(false)) => self.correct_false += 1,
            ("TRUE", Some(false)) => self.wrong_true += 1,
            ("FALSE", Some(true)) => self.wrong_false += 1,
            _ => {}
        }
        self.internal_errors += usize::from(r.internal_error);
        self.expected += usize::from(r.expected_verdict.is_some());
        self.score += r.score();
        self.wall_ms += r.wall_ms;
    }

    pub fn wrong(&self) -> usize {
        self.wrong_true + self.wrong_false
    }

    /// The report's columns ([`COLUMNS`]) of these counts.
    fn cells(&self) -> [String; 9] {
        [
            self.tasks.to_string(),
            self.true_.to_string(),
            self.false_.to_string(),
            (self.unknown + self.bounded).to_string(),
            self.error.to_string(),
            (self.correct_true + self.correct_false).to_string(),
            self.wrong().to_string(),
            self.score.to_string(),
            format!("{:.1}", self.wall_ms as f64 / 1000.0),
        ]
    }
}

/// The columns of a family's line, text and Markdown, and their widths in text.
const COLUMNS: [&str; 9] = [
    "tasks", "TRUE", "FALSE", "UNKNOWN", "error", "correct", "wrong", "score", "time s",
];
const WIDTHS: [usize; 9] = [5, 5, 5, 7, 5, 7, 5, 6, 9];

/// The merged report.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub total: Counts,
    pub families: BTreeMap<String, Counts>,
    pub tasks: Vec<TaskRow>,
}

/// One task's line of the report.
#[derive(Clone, Debug, Serialize)]
pub struct TaskRow {
    pub id: String,
    pub verdict: String,
    pub expected_verdict: Option<bool>,
    pub status: String,
    pub wall_ms: u64,
    pub peak_rss_kib: Option<u64>,
    pub reason: Option<String>,
}

impl Summary {
    pub fn of(results: &[TaskResult]) -> Summary {
        let mut total = Counts::default();
        let mut families: BTreeMap<String, Counts> = BTreeMap::new();
        for r in results {
            total.add(r);
            families.entry(r.family.clone()).or_default().add(r);
        }
        Summary {
            total,
            families,
            tasks: results
                .iter()
                .map(|r| TaskRow {
                    id: r.id.clone(),
                    verdict: shown_verdict(r),
                    expected_verdict: r.expected_verdict,
                    status: r.status.clone(),
                    wall_ms: r.wall_ms,
                    peak_rss_kib: r.peak_rss_kib,
                    reason: r.reason.clone(),
                })
                .collect(),
        }
    }

    /// Whether the batch must fail a script: a wrong verdict or an internal error.
    pub fn failed(&self) -> bool {
        self.total.wrong() > 0 || self.total.internal_errors > 0
    }

    /// The report as plain text: families, then the tasks that need a look (wrong, error),
    /// then the totals.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        // The first column as wide as the longest family name.
        let w = self
            .families
            .keys()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max(6);
        let line = |s: &mut String, name: &str, cells: &[String]| {
            let _ = write!(s, "{name:<w$}");
            for (cell, width) in cells.iter().zip(WIDTHS) {
                let _ = write!(s, " {cell:>width$}");
            }
            s.push('\n');
        };
        line(&mut s, "family", &COLUMNS.map(String::from));
        for (f, c) in &self.families {
            line(&mut s, f, &c.cells());
        }
        line(&mut s, "total", &self.total.cells());
        let flagged: Vec<&TaskRow> = self
            .tasks
            .iter()
            .filter(|t| t.status == "wrong" || t.status == "error")
            .collect();
        if !flagged.is_empty() {
            let _ = writeln!(s, "\nto look at:");
            for t in flagged {
                let _ = writeln!(
                    s,
                    "  {:<7} {} {}{}",
                    t.status.to_ascii_uppercase(),
                    t.id,
                    t.verdict,
                    t.reason
                        .as_deref()
                        .map(|r| format!(" ({r})"))
                        .unwrap_or_default()
                );
            }
        }
        s
    }

    /// The report as Markdown: the family table, then one row per task.
    pub fn to_markdown(&self) -> String {
        let mut s = String::new();
        let row = |s: &mut String, name: &str, cells: &[String]| {
            let _ = writeln!(s, "| {name} | {} |", cells.join(" | "));
        };
        row(&mut s, "family", &COLUMNS.map(String::from));
        let _ = writeln!(s, "|---|{}", "---:|".repeat(COLUMNS.len()));
        for (f, c) in &self.families {
            row(&mut s, f, &c.cells());
        }
        row(&mut s, "**total**", &self.total.cells());
        s.push_str("\n| task | verdict | expected | status | time s | memory MiB |\n");
        s.push_str("|---|---|---|---|---:|---:|\n");
        for t in &self.tasks {
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:.2} | {} |",
                t.id,
                t.verdict,
                t.expected_verdict
                    .map_or("", |e| if e { "TRUE" } else { "FALSE" }),
                t.status,
                t.wall_ms as f64 / 1000.0,
                t.peak_rss_kib
                    .map(|k| format!("{:.0}", k as f64 / 1024.0))
                    .unwrap_or_default()
            );
        }
        s
    }
}

/// The verdict as the report shows it: `FALSE(valid-deref)` for a property other than
/// unreach-call.
fn shown_verdict(r: &TaskResult) -> String {
    match r.violated_property.as_deref() {
        Some(p) if r.verdict == "FALSE" && p != "unreach-call" => format!("FALSE({p})"),
        _ => r.verdict.clone(),
    }
}

/// One SARIF log for every task that kept one (`result.sarif`): their runs, in task order.
pub fn merged_sarif(out: &Path, results: &[TaskResult]) -> Option<serde_json::Value> {
    let mut runs = Vec::new();
    for r in results {
        let path = crate::run::task_dir(out, &r.id).join("result.sarif");
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(log) = serde_json::from_str::<serde_json::Value>(&text) else {
            continue;
        };
        if let Some(rs) = log.get("runs").and_then(|v| v.as_array()) {
            runs.extend(rs.iter().cloned());
        }
    }
    if runs.is_empty() {
        return None;
    }
    Some(serde_json::json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": runs,
    }))
}

/// Writes `results.jsonl`, `report.txt`, `report.md`, `report.json` and, when a task kept
/// one, `results.sarif` into `out`; returns the summary.
pub fn write_merged(out: &Path) -> Result<Summary, String> {
    let results = load_results(out);
    let mut jsonl = String::new();
    for r in &results {
        let line =
            serde_json::to_string(r).map_err(|e| format!("cannot serialise {}: {e}", r.id))?;
        jsonl.push_str(&line);
        jsonl.push('\n');
    }
    let w = |name: &str, text: &str| crate::run::write_whole(&out.join(name), text);
    w("results.jsonl", &jsonl)?;
    let summary = Summary::of(&results);
    w("report.txt", &summary.to_text())?;
    w("report.md", &summary.to_markdown())?;
    let json = serde_json::to_string_pretty(&summary)
        .map_err(|e| format!("cannot serialise the report: {e}"))?;
    w("report.json", &format!("{json}\n"))?;
    if let Some(sarif) = merged_sarif(out, &results) {
        w("results.sarif", &format!("{sarif:#}\n"))?;
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, family: &str, verdict: &str, expected: Option<bool>) -> TaskResult {
        TaskResult {
            id: id.into(),
            family: family.into(),
            task: id.into(),
            verdict: verdict.into(),
            expected_verdict: expected,
            status: crate::run::status(verdict, expected, false).into(),
            reason: None,
            violated_property: None,
            exit_code: Some(0),
            wall_ms: 1500,
            peak_rss_kib: Some(2048),
            timeout_secs: 10.0,
            memory_limit_mib: None,
            args: Vec::new(),
            internal_error: false,
            host: "local".into(),
            retry: false,
            report: None,
        }
    }

    #[test]
    fn families_and_the_score_are_counted() {
        let rs = vec![
            result("s/a/1.yml", "s/a", "TRUE", Some(true)),
            result("s/a/2.yml", "s/a", "FALSE", Some(false)),
            result("s/b/3.yml", "s/b", "TRUE", Some(false)),
            result("s/b/4.yml", "s/b", "UNKNOWN", Some(true)),
            result("s/b/5.c", "s/b", "ERROR", None),
        ];
        let s = Summary::of(&rs);
        assert_eq!(s.total.tasks, 5);
        assert_eq!(s.total.score, 2 + 1 - 32);
        assert_eq!(s.total.wrong(), 1);
        assert_eq!(s.total.expected, 4);
        assert_eq!(s.families["s/a"].score, 3);
        assert_eq!(s.families["s/b"].error, 1);
        assert!(s.failed());
        let text = s.to_text();
        assert!(text.contains("s/b/3.yml"), "{text}");
        let md = s.to_markdown();
        assert!(
            md.contains("| s/a | 2 | 1 | 1 | 0 | 0 | 2 | 0 | 3 | 3.0 |"),
            "{md}"
        );
        assert!(!Summary::of(&rs[..2]).failed());
    }
}
