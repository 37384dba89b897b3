//! The result of a `qicc verify` run, as the user sees it: verdict, reason, per-assertion
//! status, the counterexample trace, warnings and figures. Serialises to the JSON object
//! printed by `--format json` (field names are part of the CLI's contract) and renders as
//! text.

use qicc_engine::AssertionStatus;
use qicc_interp::Trace;
use qicc_ir::{AssertionId, Program};
use serde::Serialize;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    True,
    False,
    Unknown,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False => "FALSE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct AssertionReport {
    pub id: u32,
    pub kind: String,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub function: String,
    pub text: Option<String>,
    /// `safe`, `violated` or `unknown`.
    pub status: &'static str,
    pub reason: Option<String>,
    /// Which engine step established the status (e.g. `bmc`, or the Qicc region).
    pub proved_by: Option<String>,
    /// Qicc: how many runs of the verifier included this assertion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tries: Option<usize>,
}

#[derive(Clone, Debug, Serialize)]
pub struct UbSummary {
    pub checks: usize,
    pub safe: usize,
    /// The undefined-behaviour checks that are not proven unreachable.
    pub open: Vec<AssertionReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Violation {
    pub assertion: u32,
    pub trace: Trace,
}

/// Two runs that contradict each other about one assertion: one proved it safe, the other
/// found a violation whose witness replays to it on the program. One of the two engines is
/// unsound, so neither answer is given: the verdict is UNKNOWN, the CLI exits with 1 (internal
/// error), and the report names both runs (never silently resolved).
#[derive(Clone, Debug, Serialize)]
pub struct InternalError {
    pub message: String,
    /// The assertion both runs are about.
    pub assertion: u32,
    /// The run (region, function, engine) that proved it safe.
    pub proved_safe_by: String,
    /// The run that found the violation.
    pub violated_by: String,
    /// The replayed trace of the violation.
    pub trace: Trace,
}

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    pub verdict: Verdict,
    pub reason: Option<String>,
    pub file: String,
    pub task: Option<String>,
    pub expected_verdict: Option<bool>,
    pub engine: String,
    pub data_model: &'static str,
    pub assertions: Vec<AssertionReport>,
    pub ub_checks: UbSummary,
    pub violation: Option<Violation>,
    /// Contradictory results (see [`InternalError`]); the verdict is then UNKNOWN and the
    /// CLI exits with 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub internal_error: Option<InternalError>,
    pub warnings: Vec<String>,
    /// Qicc: every run of the verifier on a region, function or the whole program.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attempts: Vec<qicc_gamble::Attempt>,
    pub stats: serde_json::Map<String, serde_json::Value>,
}

/// The user-facing view of one assertion with a status.
pub fn assertion_report(
    program: &Program,
    id: AssertionId,
    status: &AssertionStatus,
    proved_by: Option<String>,
) -> AssertionReport {
    let a = program.assertion(id);
    let (status, reason) = match status {
        AssertionStatus::Safe => ("safe", None),
        AssertionStatus::Violated => ("violated", None),
        AssertionStatus::Unknown(r) => ("unknown", Some(r.clone())),
    };
    AssertionReport {
        id: id.0,
        kind: a.kind.name().to_string(),
        file: program
            .files
            .get(a.span.file as usize)
            .cloned()
            .unwrap_or_default(),
        line: a.span.line,
        col: a.span.col,
        function: program
            .functions
            .get(a.func.index())
            .map(|f| f.name.clone())
            .unwrap_or_default(),
        text: a.text.clone(),
        status,
        reason,
        proved_by,
        tries: None,
    }
}

impl Report {
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for w in &self.warnings {
            let _ = writeln!(out, "{w}");
        }
        let _ = writeln!(
            out,
            "qicc: {} ({}), engine {}",
            self.file, self.data_model, self.engine
        );
        if let Some(v) = &self.violation {
            let _ = writeln!(out, "\nCounterexample:");
            out.push_str(&v.trace.to_text());
        }
        if !self.assertions.is_empty() {
            let _ = writeln!(out, "\nAssertions:");
            let width = self
                .assertions
                .iter()
                .map(|a| location(a).len())
                .max()
                .unwrap_or(0);
            for a in &self.assertions {
                let text = a.text.as_deref().unwrap_or(a.kind.as_str());
                let mut line = format!(
                    "  #{:<3} {:<width$}  {:<8} {}",
                    a.id,
                    location(a),
                    a.status,
                    text
                );
                match (&a.proved_by, a.tries) {
                    (Some(by), Some(n)) => {
                        let _ = write!(
                            line,
                            "  [{by}; {n} attempt{}]",
                            if n == 1 { "" } else { "s" }
                        );
                    }
                    (Some(by), None) => {
                        let _ = write!(line, "  [{by}]");
                    }
                    _ => {}
                }
                if let Some(r) = &a.reason {
                    let _ = write!(line, "  ({r})");
                }
                let _ = writeln!(out, "{}", line.trim_end());
            }
        }
        if !self.attempts.is_empty() {
            let _ = writeln!(out, "\nRegions tried (Qicc):");
            for a in &self.attempts {
                let ids: Vec<String> = a.assertions.iter().map(|i| format!("#{i}")).collect();
                let _ = writeln!(
                    out,
                    "  {:>7} ms  {}{}  {}: {}",
                    a.time_ms,
                    a.node,
                    if a.speculative { " (early start)" } else { "" },
                    ids.join(" "),
                    a.outcome
                );
            }
        }
        if self.ub_checks.checks > 0 {
            let _ = writeln!(
                out,
                "\nUndefined-behaviour checks: {} of {} proven unreachable",
                self.ub_checks.safe, self.ub_checks.checks
            );
            for a in self.ub_checks.open.iter().take(10) {
                let _ = writeln!(
                    out,
                    "  #{:<3} {}  {} {}",
                    a.id,
                    location(a),
                    a.kind,
                    a.reason
                        .as_deref()
                        .map(|r| format!("({r})"))
                        .unwrap_or_default()
                );
            }
            if self.ub_checks.open.len() > 10 {
                let _ = writeln!(out, "  ... and {} more", self.ub_checks.open.len() - 10);
            }
        }
        if let Some(e) = &self.internal_error {
            let _ = writeln!(out, "\nINTERNAL ERROR: {}", e.message);
            let _ = writeln!(out, "  proved safe by: {}", e.proved_safe_by);
            let _ = writeln!(out, "  violated by:    {}", e.violated_by);
            let _ = writeln!(out, "  the violation's replayed trace:");
            out.push_str(&e.trace.to_text());
        }
        let _ = write!(out, "\nVERDICT: {}", self.verdict.as_str());
        if let Some(r) = &self.reason {
            let _ = write!(out, " ({r})");
        }
        out.push('\n');
        out
    }
}

fn location(a: &AssertionReport) -> String {
    format!("{}:{}:{}", a.file, a.line, a.col)
}
