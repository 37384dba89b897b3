//! Running `qicc verify` on one task as a child process, and many of them in parallel.
//!
//! Each run is `qicc verify --engine <e> --timeout <t> --format json <task.yml>` in its own
//! process group. qicc enforces `--timeout` itself; we wait `timeout + grace` and then kill the
//! whole group, so a hung or runaway engine never outlives its budget by more than the grace.
//! Invariant: every run ends in exactly one [`Outcome`], and nothing a child prints can make
//! this process panic — unparsable output is an `Outcome::Failed` with the reason.

use qicc_batch::process::Exit;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// A verdict as qicc reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    True,
    False,
    Unknown,
}

impl Verdict {
    /// Parses qicc's JSON `verdict` (`true`, `TRUE`, ...).
    pub fn parse(s: &str) -> Option<Verdict> {
        match s.to_ascii_lowercase().as_str() {
            "true" => Some(Verdict::True),
            "false" => Some(Verdict::False),
            "unknown" => Some(Verdict::Unknown),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::True => "TRUE",
            Verdict::False => "FALSE",
            Verdict::Unknown => "UNKNOWN",
        }
    }
}

/// How one run of qicc ended.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// qicc printed a report. `time_ms` is its `stats.time_ms` when present.
    Answered {
        verdict: Verdict,
        time_ms: Option<u64>,
        reason: Option<String>,
    },
    /// Still running at `timeout + grace`: killed with its process group.
    Killed,
    /// The qicc binary rejected the engine name.
    UnknownEngine { message: String },
    /// Anything else: could not start, crashed, printed no report.
    Failed { message: String },
}

/// One finished run.
#[derive(Clone, Debug, Serialize)]
pub struct RunResult {
    pub outcome: Outcome,
    /// Wall-clock time of the child process as we measured it.
    pub wall_ms: u64,
}

impl RunResult {
    /// The time to report: qicc's own `stats.time_ms`, else our wall-clock measurement.
    pub fn time_ms(&self) -> u64 {
        match &self.outcome {
            Outcome::Answered {
                time_ms: Some(t), ..
            } => *t,
            _ => self.wall_ms,
        }
    }
}

/// How to run the qicc binary.
#[derive(Clone, Debug)]
pub struct Runner {
    pub qicc: PathBuf,
    /// Passed to `qicc verify --timeout`.
    pub timeout_secs: f64,
    /// Extra time before the process group is killed.
    pub grace: Duration,
}

impl Runner {
    /// The command line of one run (without the process-group wrapping).
    pub fn command(&self, engine: &str, task: &Path) -> Command {
        let mut cmd = Command::new(&self.qicc);
        cmd.arg("verify")
            .arg("--engine")
            .arg(engine)
            .arg("--timeout")
            .arg(format!("{}", self.timeout_secs))
            .arg("--format")
            .arg("json")
            .arg(task);
        cmd
    }

    /// Runs `engine` on `task` and waits for the answer, the kill, or a failure.
    pub fn run(&self, engine: &str, task: &Path) -> RunResult {
        // A timeout that is not a finite number of seconds means no limit of our own.
        let timeout =
            Duration::try_from_secs_f64(self.timeout_secs.max(0.0)).unwrap_or(Duration::MAX);
        run_command(
            self.command(engine, task),
            timeout.saturating_add(self.grace),
        )
    }

    /// Checks that the qicc binary knows `engine`, without verifying anything: it is called on a
    /// task file that does not exist, which a known engine rejects as an input error and an
    /// unknown one as a usage error naming the engine.
    pub fn probe_engine(&self, engine: &str) -> Result<(), String> {
        let missing = std::env::temp_dir()
            .join("qicc-study-probe-does-not-exist")
            .join("task.yml");
        let result = run_command(
            self.command(engine, &missing),
            Duration::from_secs(30).saturating_add(self.grace),
        );
        match result.outcome {
            Outcome::UnknownEngine { message } => Err(message),
            Outcome::Failed { message } if message.starts_with("cannot start") => Err(message),
            _ => Ok(()),
        }
    }
}

/// Runs `cmd` in a new process group (`qicc_batch::process`, the one runner of child
/// processes), killing the group after `limit`, and classifies how it ended.
fn run_command(cmd: Command, limit: Duration) -> RunResult {
    let f = qicc_batch::process::run_command(cmd, limit);
    let wall_ms = u64::try_from(f.wall.as_millis()).unwrap_or(u64::MAX);
    let outcome = match f.exit {
        Exit::Code(code) => interpret(code, &f.stdout, &f.stderr),
        Exit::Killed => Outcome::Killed,
        Exit::Failed(message) => Outcome::Failed { message },
    };
    RunResult { outcome, wall_ms }
}

/// Classifies a finished run from its exit code and output. A JSON report with a verdict wins
/// over the exit code (qicc exits 0/10/5 with a report); a usage error about the engine is
/// [`Outcome::UnknownEngine`]; everything else is [`Outcome::Failed`] with the first lines of
/// stderr.
pub fn interpret(code: Option<i32>, stdout: &str, stderr: &str) -> Outcome {
    match parse_report(stdout) {
        Ok((verdict, time_ms, reason)) => Outcome::Answered {
            verdict,
            time_ms,
            reason,
        },
        Err(why) => {
            if mentions_unknown_engine(stderr) || mentions_unknown_engine(stdout) {
                let message = first_lines(
                    if stderr.trim().is_empty() {
                        stdout
                    } else {
                        stderr
                    },
                    4,
                );
                return Outcome::UnknownEngine { message };
            }
            let code = code.map_or_else(
                || "killed by a signal".to_string(),
                |c| format!("exit code {c}"),
            );
            let detail = first_lines(stderr, 3);
            let message = if detail.is_empty() {
                format!("{code}, {why}")
            } else {
                format!("{code}, {why}: {detail}")
            };
            Outcome::Failed { message }
        }
    }
}

/// `verdict`, `stats.time_ms` and `reason` from qicc's JSON report.
pub fn parse_report(stdout: &str) -> Result<(Verdict, Option<u64>, Option<String>), String> {
    let trimmed = stdout.trim();
    if trimmed.is_empty() {
        return Err("no output".into());
    }
    let value: serde_json::Value = serde_json::from_str(trimmed)
        .map_err(|e| format!("output is not one JSON report ({e})"))?;
    let verdict = value
        .get("verdict")
        .and_then(|v| v.as_str())
        .and_then(Verdict::parse)
        .ok_or_else(|| {
            // An input-error report carries its message instead of a verdict.
            match ["error", "message", "reason"]
                .iter()
                .find_map(|k| value.get(*k).and_then(|v| v.as_str()))
            {
                Some(msg) => format!("the JSON report has no verdict ({msg})"),
                None => "the JSON report has no verdict".to_string(),
            }
        })?;
    let time_ms = value
        .get("stats")
        .and_then(|s| s.get("time_ms"))
        .and_then(|t| t.as_u64());
    let reason = value
        .get("reason")
        .and_then(|r| r.as_str())
        .map(str::to_string);
    Ok((verdict, time_ms, reason))
}

/// Whether a usage message says the engine name was rejected (clap: "invalid value 'x' for
/// '--engine <ENGINE>'"; other wordings: "unknown engine", "unsupported engine").
fn mentions_unknown_engine(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("engine")
        && (t.contains("invalid value")
            || t.contains("unknown engine")
            || t.contains("unsupported engine"))
}

fn first_lines(text: &str, n: usize) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(n)
        .collect::<Vec<_>>()
        .join(" | ")
}

pub use qicc_batch::process::run_parallel;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_fields_are_read() {
        let json = r#"{"verdict": "false", "reason": "assertion #0 violated", "stats": {"time_ms": 42, "peak_rss_kib": 1}}"#;
        assert_eq!(
            interpret(Some(10), json, ""),
            Outcome::Answered {
                verdict: Verdict::False,
                time_ms: Some(42),
                reason: Some("assertion #0 violated".into())
            }
        );
        let upper = r#"{"verdict": "TRUE", "reason": null, "stats": {}}"#;
        assert_eq!(
            interpret(Some(0), upper, ""),
            Outcome::Answered {
                verdict: Verdict::True,
                time_ms: None,
                reason: None
            }
        );
    }

    #[test]
    fn clap_rejection_is_an_unknown_engine() {
        let stderr = "error: invalid value 'qicc' for '--engine <ENGINE>'\n  [possible values: bmc]\n\nFor more information, try '--help'.\n";
        match interpret(Some(2), "", stderr) {
            Outcome::UnknownEngine { message } => {
                assert!(message.contains("possible values: bmc"), "{message}")
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn garbage_is_a_failure_with_the_reason() {
        match interpret(Some(1), "not json", "qicc: internal error: boom\nmore") {
            Outcome::Failed { message } => {
                assert!(
                    message.starts_with("exit code 1, output is not one JSON report"),
                    "{message}"
                );
                assert!(message.contains("internal error: boom"));
            }
            other => panic!("{other:?}"),
        }
        match interpret(None, "", "") {
            Outcome::Failed { message } => assert_eq!(message, "killed by a signal, no output"),
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            interpret(Some(0), r#"{"verdict": "maybe"}"#, ""),
            Outcome::Failed { .. }
        ));
        match interpret(Some(6), r#"{"error": "t.c:3:1: unsupported: goto *p"}"#, "") {
            Outcome::Failed { message } => assert_eq!(
                message,
                "exit code 6, the JSON report has no verdict (t.c:3:1: unsupported: goto *p)"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn parallel_results_keep_job_order() {
        let jobs: Vec<u32> = (0..50).collect();
        let seen = std::sync::atomic::AtomicUsize::new(0);
        let out = run_parallel(
            &jobs,
            3,
            |j| j * 2,
            |_, _| {
                seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            },
        );
        assert_eq!(out, jobs.iter().map(|j| j * 2).collect::<Vec<_>>());
        assert_eq!(seen.into_inner(), 50);
        assert!(run_parallel(&[] as &[u32], 4, |j| *j, |_, _| {}).is_empty());
    }
}
