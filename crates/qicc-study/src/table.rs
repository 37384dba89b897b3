//! Aggregating run results into the paper's Table 1, a median-time table, the wrong-verdict
//! report and JSON.
//!
//! A run *solves* its scenario when qicc's verdict is the expected one (TRUE on a kernel, FALSE
//! on an unsafe twin). A run is *wrong* when the verdict is the opposite one (FALSE on a kernel,
//! TRUE on a twin) — a soundness bug, which every report here prints loudly. UNKNOWN, kills and
//! failures are neither. Every function here is a pure function of the records, so the tables
//! are tested without running qicc.

use crate::run::{Outcome, RunResult, Verdict};
use crate::structures::{Bounds, Structure};
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::PathBuf;

/// One run of one engine on one scenario.
#[derive(Clone, Debug)]
pub struct Record {
    /// `<kernel>/<stem>`.
    pub scenario: String,
    pub kernel: &'static str,
    pub structure: Structure,
    pub bounds: Bounds,
    /// The kernel (`true`) or its unsafe twin.
    pub safe: bool,
    pub engine: String,
    /// The task file qicc was run on.
    pub task: PathBuf,
    pub result: RunResult,
}

impl Record {
    fn verdict(&self) -> Option<Verdict> {
        match &self.result.outcome {
            Outcome::Answered { verdict, .. } => Some(*verdict),
            _ => None,
        }
    }

    /// The verdict is the expected one.
    pub fn solved(&self) -> bool {
        let expected = if self.safe {
            Verdict::True
        } else {
            Verdict::False
        };
        self.verdict() == Some(expected)
    }

    /// The verdict contradicts the expected one.
    pub fn wrong(&self) -> bool {
        let opposite = if self.safe {
            Verdict::False
        } else {
            Verdict::True
        };
        self.verdict() == Some(opposite)
    }

    /// One line naming the run, its answer and the task file.
    pub fn describe(&self) -> String {
        let kind = if self.safe {
            "safe scenario"
        } else {
            "unsafe twin"
        };
        let answer = match &self.result.outcome {
            Outcome::Answered {
                verdict, reason, ..
            } => match reason {
                Some(r) => format!("{} ({r})", verdict.as_str()),
                None => verdict.as_str().to_string(),
            },
            Outcome::Killed => "killed after timeout + grace".to_string(),
            Outcome::UnknownEngine { message } => format!("unknown engine: {message}"),
            Outcome::Failed { message } => format!("failed: {message}"),
        };
        format!(
            "{}: {answer} on {kind} {} [{}]",
            self.engine,
            self.scenario,
            self.task.display()
        )
    }
}

/// The loud line for a wrong verdict.
pub fn wrong_line(r: &Record) -> String {
    let expected = if r.safe { "TRUE" } else { "FALSE" };
    format!(
        "!!! WRONG VERDICT (expected {expected}) !!! {}",
        r.describe()
    )
}

/// Table 1: rows are bounds, columns are structures, cells `solved_e1/solved_e2/... of n` over
/// the kernels (`safe`) or over the unsafe twins. Rows and columns without scenarios are left
/// out; `structures` gives the column order.
pub fn solved_table(
    records: &[Record],
    engines: &[String],
    structures: &[Structure],
    safe: bool,
) -> String {
    let cell = |s: Structure, row: Bounds| -> Option<String> {
        let in_cell = |r: &&Record| r.safe == safe && r.structure == s && r.bounds.row() == row;
        let total = records
            .iter()
            .filter(in_cell)
            .filter(|r| Some(&r.engine) == engines.first())
            .count();
        if total == 0 {
            return None;
        }
        let counts: Vec<String> = engines
            .iter()
            .map(|e| {
                records
                    .iter()
                    .filter(in_cell)
                    .filter(|r| &r.engine == e && r.solved())
                    .count()
                    .to_string()
            })
            .collect();
        Some(format!("{} of {total}", counts.join("/")))
    };
    let columns: Vec<Structure> = structures
        .iter()
        .copied()
        .filter(|s| records.iter().any(|r| r.structure == *s && r.safe == safe))
        .collect();
    let rows: Vec<Bounds> = Bounds::table_rows()
        .into_iter()
        .filter(|row| columns.iter().any(|s| cell(*s, *row).is_some()))
        .collect();

    let mut grid: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["bounds".to_string()];
    head.extend(columns.iter().map(|s| s.title().to_string()));
    grid.push(head);
    for row in rows {
        let mut line = vec![row.row_label()];
        line.extend(columns.iter().map(|s| cell(*s, row).unwrap_or_default()));
        grid.push(line);
    }
    let what = if safe {
        "safe scenarios (expected TRUE)"
    } else {
        "unsafe twins (expected FALSE)"
    };
    let mut out = format!("Solved instances, {} — {what}\n", engines.join("/"));
    out.push_str(&render_grid(&grid));
    out
}

/// Per structure: the median time of each engine on the scenarios (kernels and twins) that every
/// engine solves, and each engine's median relative to the first engine's.
pub fn median_table(records: &[Record], engines: &[String], structures: &[Structure]) -> String {
    let mut grid: Vec<Vec<String>> = Vec::new();
    let mut head = vec!["structure".to_string(), "solved by all".to_string()];
    head.extend(engines.iter().map(|e| format!("{e} median")));
    if let Some(first) = engines.first() {
        head.extend(engines.iter().skip(1).map(|e| format!("{e}/{first}")));
    }
    grid.push(head);
    for &s in structures {
        // scenario -> engine -> time, for the solved runs of this structure.
        let mut solved: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
        let mut any = false;
        for r in records.iter().filter(|r| r.structure == s) {
            any = true;
            if r.solved() {
                solved
                    .entry(r.scenario.as_str())
                    .or_default()
                    .insert(r.engine.as_str(), r.result.time_ms());
            }
        }
        if !any {
            continue;
        }
        let common: Vec<&BTreeMap<&str, u64>> = solved
            .values()
            .filter(|m| engines.iter().all(|e| m.contains_key(e.as_str())))
            .collect();
        let medians: Vec<Option<f64>> = engines
            .iter()
            .map(|e| {
                median(
                    common
                        .iter()
                        .filter_map(|m| m.get(e.as_str()).copied())
                        .collect(),
                )
            })
            .collect();
        let mut line = vec![s.title().to_string(), common.len().to_string()];
        line.extend(
            medians
                .iter()
                .map(|m| m.map_or("-".to_string(), |v| format!("{v:.0} ms"))),
        );
        let base = medians.first().copied().flatten();
        for m in medians.iter().skip(1) {
            line.push(match (m, base) {
                (Some(v), Some(b)) if b > 0.0 => format!("{:.2}x", v / b),
                _ => "-".to_string(),
            });
        }
        grid.push(line);
    }
    let mut out =
        "Median time on the scenarios every engine solves (qicc's stats.time_ms)\n".to_string();
    out.push_str(&render_grid(&grid));
    out
}

/// The wrong-verdict count per engine (one line), followed by every wrong run, loudly.
pub fn wrong_report(records: &[Record], engines: &[String]) -> String {
    let counts: Vec<String> = engines
        .iter()
        .map(|e| {
            format!(
                "{e} {}",
                records
                    .iter()
                    .filter(|r| &r.engine == e && r.wrong())
                    .count()
            )
        })
        .collect();
    let mut out = format!("Wrong verdicts: {}\n", counts.join(", "));
    for r in records.iter().filter(|r| r.wrong()) {
        let _ = writeln!(out, "{}", wrong_line(r));
    }
    out
}

/// Per engine: how the runs ended, then every failed run (crash, no report).
pub fn outcome_summary(records: &[Record], engines: &[String]) -> String {
    let mut out = String::new();
    for e in engines {
        let mine: Vec<&Record> = records.iter().filter(|r| &r.engine == e).collect();
        let count = |f: &dyn Fn(&Record) -> bool| mine.iter().filter(|r| f(r)).count();
        let _ = writeln!(
            out,
            "{e}: {} runs, {} solved, {} unknown, {} killed, {} failed, {} wrong",
            mine.len(),
            count(&|r| r.solved()),
            count(&|r| matches!(
                r.result.outcome,
                Outcome::Answered {
                    verdict: Verdict::Unknown,
                    ..
                }
            )),
            count(&|r| r.result.outcome == Outcome::Killed),
            count(&|r| matches!(
                r.result.outcome,
                Outcome::Failed { .. } | Outcome::UnknownEngine { .. }
            )),
            count(&|r| r.wrong()),
        );
    }
    for r in records.iter().filter(|r| {
        matches!(
            r.result.outcome,
            Outcome::Failed { .. } | Outcome::UnknownEngine { .. }
        )
    }) {
        let _ = writeln!(out, "  failed run: {}", r.describe());
    }
    out
}

/// Every record as JSON, with the wrong-verdict counts.
pub fn to_json(records: &[Record], engines: &[String], timeout_secs: f64) -> serde_json::Value {
    let results: Vec<serde_json::Value> = records
        .iter()
        .map(|r| {
            serde_json::json!({
                "scenario": r.scenario,
                "kernel": r.kernel,
                "structure": r.structure.id(),
                "bounds": r.bounds.row_label(),
                "safe": r.safe,
                "expected_verdict": r.safe,
                "engine": r.engine,
                "task": r.task.display().to_string(),
                "outcome": r.result.outcome,
                "time_ms": r.result.time_ms(),
                "wall_ms": r.result.wall_ms,
                "solved": r.solved(),
                "wrong": r.wrong(),
            })
        })
        .collect();
    let wrong: serde_json::Map<String, serde_json::Value> = engines
        .iter()
        .map(|e| {
            (
                e.clone(),
                records
                    .iter()
                    .filter(|r| &r.engine == e && r.wrong())
                    .count()
                    .into(),
            )
        })
        .collect();
    serde_json::json!({
        "engines": engines,
        "timeout_secs": timeout_secs,
        "wrong_verdicts": wrong,
        "results": results,
    })
}

fn median(mut v: Vec<u64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let mid = v.len() / 2;
    Some(if v.len() % 2 == 1 {
        v[mid] as f64
    } else {
        (v[mid - 1] as f64 + v[mid] as f64) / 2.0
    })
}

/// Left-aligned columns separated by two spaces.
fn render_grid(grid: &[Vec<String>]) -> String {
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| {
            grid.iter()
                .filter_map(|row| row.get(c))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in grid {
        let mut line = String::new();
        for (c, text) in row.iter().enumerate() {
            let _ = write!(line, "{text:<w$}  ", w = widths[c]);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::structures::Bound;

    fn rec(
        scenario: &str,
        s: Structure,
        b: Bounds,
        safe: bool,
        engine: &str,
        verdict: Option<Verdict>,
        t: u64,
    ) -> Record {
        let outcome = match verdict {
            Some(v) => Outcome::Answered {
                verdict: v,
                time_ms: Some(t),
                reason: None,
            },
            None => Outcome::Killed,
        };
        Record {
            scenario: scenario.to_string(),
            kernel: "k",
            structure: s,
            bounds: b,
            safe,
            engine: engine.to_string(),
            task: PathBuf::from(format!("/tmp/{scenario}.yml")),
            result: RunResult {
                outcome,
                wall_ms: t + 5,
            },
        }
    }

    fn engines() -> Vec<String> {
        vec!["bmc".to_string(), "qicc".to_string()]
    }

    fn sample() -> Vec<Record> {
        use Verdict::*;
        let small = Bounds::Single(Bound::Small);
        let ss = Bounds::Double {
            outer: Bound::Small,
            inner: Bound::Small,
        };
        let sa = Bounds::Double {
            outer: Bound::Small,
            inner: Bound::Arbitrary,
        };
        vec![
            rec(
                "a/single1_small",
                Structure::Single1,
                small,
                true,
                "bmc",
                Some(True),
                100,
            ),
            rec(
                "a/single1_small",
                Structure::Single1,
                small,
                true,
                "qicc",
                Some(True),
                20,
            ),
            rec(
                "b/single1_small",
                Structure::Single1,
                small,
                true,
                "bmc",
                None,
                9000,
            ),
            rec(
                "b/single1_small",
                Structure::Single1,
                small,
                true,
                "qicc",
                Some(True),
                30,
            ),
            rec(
                "a/double1_small_small",
                Structure::Double1,
                ss,
                true,
                "bmc",
                Some(Unknown),
                50,
            ),
            rec(
                "a/double1_small_small",
                Structure::Double1,
                ss,
                true,
                "qicc",
                Some(False),
                60,
            ),
            rec(
                "a/double1_small_arbitrary",
                Structure::Double1,
                sa,
                true,
                "bmc",
                Some(True),
                10,
            ),
            rec(
                "a/double1_small_arbitrary",
                Structure::Double1,
                sa,
                true,
                "qicc",
                Some(True),
                40,
            ),
            rec(
                "a/double1_small_arbitrary_unsafe",
                Structure::Double1,
                sa,
                false,
                "bmc",
                Some(True),
                10,
            ),
            rec(
                "a/double1_small_arbitrary_unsafe",
                Structure::Double1,
                sa,
                false,
                "qicc",
                Some(False),
                30,
            ),
        ]
    }

    #[test]
    fn solved_and_wrong_follow_the_expected_verdict() {
        let r = sample();
        let solved: Vec<bool> = r.iter().map(Record::solved).collect();
        assert_eq!(
            solved,
            [true, true, false, true, false, false, true, true, false, true]
        );
        let wrong: Vec<usize> = r
            .iter()
            .enumerate()
            .filter(|(_, r)| r.wrong())
            .map(|(i, _)| i)
            .collect();
        assert_eq!(wrong, [5, 8]);
    }

    #[test]
    fn table_one_counts_per_row_and_column() {
        let t = solved_table(&sample(), &engines(), &Structure::ALL, true);
        let expected = "\
Solved instances, bmc/qicc — safe scenarios (expected TRUE)
bounds           Single 1  Double 1
small            1/2 of 2  0/0 of 1
small/arbitrary            1/1 of 1
";
        assert_eq!(t, expected);
        let u = solved_table(&sample(), &engines(), &Structure::ALL, false);
        assert!(u.ends_with("small/arbitrary  0/1 of 1\n"), "{u}");
    }

    #[test]
    fn medians_only_use_scenarios_every_engine_solves() {
        let t = median_table(&sample(), &engines(), &Structure::ALL);
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(
            lines[1].split_whitespace().collect::<Vec<_>>(),
            [
                "structure",
                "solved",
                "by",
                "all",
                "bmc",
                "median",
                "qicc",
                "median",
                "qicc/bmc"
            ]
        );
        // Single 1: only a/single1_small is solved by both: 100 vs 20.
        assert_eq!(
            lines[2].split_whitespace().collect::<Vec<_>>(),
            ["Single", "1", "1", "100", "ms", "20", "ms", "0.20x"]
        );
        // Double 1: only the safe small/arbitrary one: 10 vs 40.
        assert_eq!(
            lines[3].split_whitespace().collect::<Vec<_>>(),
            ["Double", "1", "1", "10", "ms", "40", "ms", "4.00x"]
        );
        assert_eq!(lines.len(), 4);
    }

    #[test]
    fn wrong_verdicts_are_counted_and_listed() {
        let w = wrong_report(&sample(), &engines());
        let lines: Vec<&str> = w.lines().collect();
        assert_eq!(lines[0], "Wrong verdicts: bmc 1, qicc 1");
        assert!(lines[1].starts_with("!!! WRONG VERDICT (expected TRUE) !!! qicc: FALSE on safe scenario a/double1_small_small"));
        assert!(lines[2].starts_with("!!! WRONG VERDICT (expected FALSE) !!! bmc: TRUE on unsafe twin a/double1_small_arbitrary_unsafe"));
        assert_eq!(lines.len(), 3);
    }

    #[test]
    fn summary_and_json_agree_with_the_records() {
        let s = outcome_summary(&sample(), &engines());
        assert!(
            s.starts_with("bmc: 5 runs, 2 solved, 1 unknown, 1 killed, 0 failed, 1 wrong\n"),
            "{s}"
        );
        let j = to_json(&sample(), &engines(), 5.0);
        assert_eq!(j["wrong_verdicts"]["qicc"], 1);
        assert_eq!(j["results"].as_array().map(Vec::len), Some(10));
        assert_eq!(j["results"][2]["outcome"]["kind"], "killed");
        assert_eq!(j["results"][0]["bounds"], "small");
    }

    #[test]
    fn median_of_even_and_odd() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3, 1, 2]), Some(2.0));
        assert_eq!(median(vec![4, 1, 2, 3]), Some(2.5));
    }
}
