//! One task's run (`qicc verify --format json` as a child process, killed with its process
//! group past the time limit) and its result file, `DIR/tasks/<id>/result.json`; a batch is
//! the tasks without a result run on `jobs` threads.
//!
//! Invariant: a task's result is written only when its run ended (answered, rejected, killed
//! or failed to start), whole, by renaming a temporary file: a batch interrupted at any
//! moment leaves every task either done or not started, never half written.

use crate::process::{run_command, run_parallel, Exit};
use crate::tasks::Task;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// How a batch runs its tasks.
#[derive(Clone, Debug)]
pub struct BatchOptions {
    /// The `qicc` binary.
    pub qicc: PathBuf,
    /// The output directory.
    pub out: PathBuf,
    /// Tasks at a time.
    pub jobs: usize,
    /// Each task's `qicc verify --jobs` (its threads).
    pub task_jobs: usize,
    /// `--timeout` of each task, in seconds.
    pub timeout_secs: f64,
    /// `--memory-limit` of each task, in MiB (`None`: qicc's default).
    pub memory_limit_mib: Option<u64>,
    /// More `qicc verify` options (`--engine bmc`, `--property F`), before the task.
    pub verify_args: Vec<String>,
    /// Keep each task's witness (`witness.yml`) and SARIF log (`result.sarif`).
    pub witness: bool,
    pub sarif: bool,
    /// Run the tasks that have a result too.
    pub rerun: bool,
}

/// How long past its own `--timeout` a task may take (qicc answers UNKNOWN at the timeout and
/// abandons a stuck engine within about a second) before its process group is killed.
pub const GRACE: Duration = Duration::from_secs(10);

/// One task's result: what `result.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    pub id: String,
    pub family: String,
    /// The file given to `qicc verify`.
    pub task: String,
    /// `TRUE`, `FALSE`, `UNKNOWN`, `BOUNDED`, or `ERROR` (no verdict: the input was rejected,
    /// qicc failed, or the run was killed).
    pub verdict: String,
    /// The task's expected verdict (from its `.yml`, as qicc's report gives it).
    pub expected_verdict: Option<bool>,
    /// `correct`, `wrong`, `unknown` (no verdict to compare, or no expected verdict) or
    /// `error`.
    pub status: String,
    /// Why there is no verdict, or qicc's reason for an UNKNOWN.
    pub reason: Option<String>,
    /// The violated property under FALSE (`valid-deref`), as qicc's report names it.
    pub violated_property: Option<String>,
    /// The run: `qicc verify`'s exit code (`None`: killed or not started), wall time, and
    /// qicc's own peak resident memory.
    pub exit_code: Option<i32>,
    pub wall_ms: u64,
    pub peak_rss_kib: Option<u64>,
    pub timeout_secs: f64,
    pub memory_limit_mib: Option<u64>,
    /// The `qicc verify` arguments (without the task).
    pub args: Vec<String>,
    /// Whether qicc reported an internal error (contradicting engines: exit code 1).
    pub internal_error: bool,
    /// Where the run was (`local`, `slurm:<job>_<element>`).
    pub host: String,
    /// Not a run's answer but the record of a run that never ended (its Slurm array element
    /// was killed): the next batch over the directory runs the task again.
    #[serde(default)]
    pub retry: bool,
    /// qicc's whole `--format json` report, when it printed one.
    pub report: Option<serde_json::Value>,
}

impl TaskResult {
    /// SV-COMP's score of this result: a correct TRUE 2, a correct FALSE 1, a wrong TRUE
    /// −32, a wrong FALSE −16, anything else 0.
    pub fn score(&self) -> i64 {
        match (self.verdict.as_str(), self.expected_verdict) {
            ("TRUE", Some(true)) => 2,
            ("FALSE", Some(false)) => 1,
            ("TRUE", Some(false)) => -32,
            ("FALSE", Some(true)) => -16,
            _ => 0,
        }
    }
}

/// A result's status: `error` (no verdict, or contradicting engines), `correct` or `wrong`
/// (a TRUE or FALSE against the expected verdict), else `unknown`.
pub fn status(verdict: &str, expected: Option<bool>, internal_error: bool) -> &'static str {
    match (verdict, expected) {
        _ if internal_error => "error",
        ("ERROR", _) => "error",
        ("TRUE", Some(e)) | ("FALSE", Some(e)) if (verdict == "TRUE") == e => "correct",
        ("TRUE", Some(_)) | ("FALSE", Some(_)) => "wrong",
        _ => "unknown",
    }
}

/// The task's directory in the output directory.
pub fn task_dir(out: &Path, task_id: &str) -> PathBuf {
    out.join("tasks").join(task_id)
}

/// The result file of a task.
pub fn result_path(out: &Path, task_id: &str) -> PathBuf {
    task_dir(out, task_id).join("result.json")
}

/// Writes `text` to `path` whole: a temporary file beside it, renamed into place.
pub fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let tmp = path.with_extension("part");
    std::fs::write(&tmp, text)
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Reads a task's result file, if it is there and whole.
pub fn read_result(path: &Path) -> Option<TaskResult> {
    let text = std::fs::read_to_string(path).ok()?;
    serde_json::from_str(&text).ok()
}

/// The `qicc verify` arguments of a task (without the task file).
pub fn verify_args(opts: &BatchOptions, dir: &Path) -> Vec<String> {
    let mut args = vec![
        "verify".to_string(),
        "--format".into(),
        "json".into(),
        "--progress".into(),
        "none".into(),
        "--timeout".into(),
        format!("{}", opts.timeout_secs),
    ];
    if let Some(m) = opts.memory_limit_mib {
        args.extend(["--memory-limit".into(), m.to_string()]);
    }
    // The user's own `--jobs` wins over the share of the cores.
    if !opts
        .verify_args
        .iter()
        .any(|a| a == "--jobs" || a.starts_with("--jobs="))
    {
        args.extend(["--jobs".into(), opts.task_jobs.max(1).to_string()]);
    }
    if opts.witness {
        args.extend([
            "--witness".into(),
            dir.join("witness.yml").display().to_string(),
        ]);
    }
    if opts.sarif {
        args.extend([
            "--sarif-output".into(),
            dir.join("result.sarif").display().to_string(),
        ]);
    }
    args.extend(opts.verify_args.iter().cloned());
    args
}

/// Runs one task and writes its result file (`host` says where it ran).
pub fn run_task(opts: &BatchOptions, task: &Task, host: &str) -> Result<TaskResult, String> {
    let dir = task_dir(&opts.out, &task.id);
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let args = verify_args(opts, &dir);
    let mut cmd = Command::new(&opts.qicc);
    cmd.args(&args).arg(&task.path);
    let limit = Duration::try_from_secs_f64(opts.timeout_secs.max(0.0))
        .unwrap_or(Duration::MAX)
        .saturating_add(GRACE);
    let f = run_command(cmd, limit);
    if crate::process::interrupted() {
        // Killed by the user's interrupt, not by its limit: no result, so a rerun runs it.
        return Err(format!("{}: interrupted", task.id));
    }
    let report: Option<serde_json::Value> = serde_json::from_str(&f.stdout)
        .ok()
        .filter(|v: &serde_json::Value| v.get("verdict").is_some());
    let text = |k: &str| {
        report
            .as_ref()
            .and_then(|r| r.get(k))
            .and_then(|v| v.as_str())
            .map(str::to_string)
    };
    let exit_code = match f.exit {
        Exit::Code(c) => c,
        _ => None,
    };
    let first_line = |s: &str| s.lines().find(|l| !l.trim().is_empty()).map(str::to_string);
    let (verdict, reason) = match (&report, &f.exit) {
        (Some(_), _) => (
            text("verdict").unwrap_or_default().to_ascii_uppercase(),
            text("reason"),
        ),
        (None, Exit::Killed) => (
            "ERROR".to_string(),
            Some(format!(
                "killed {} s past its timeout of {} s",
                GRACE.as_secs(),
                opts.timeout_secs
            )),
        ),
        (None, Exit::Failed(why)) => ("ERROR".to_string(), Some(why.clone())),
        (None, Exit::Code(c)) => (
            "ERROR".to_string(),
            Some(match first_line(&f.stderr) {
                Some(l) => format!(
                    "exit code {}: {l}",
                    c.map_or("none".into(), |c| c.to_string())
                ),
                None => format!(
                    "exit code {} and no report",
                    c.map_or("none".into(), |c| c.to_string())
                ),
            }),
        ),
    };
    let expected_verdict = report
        .as_ref()
        .and_then(|r| r.get("expected_verdict"))
        .and_then(|v| v.as_bool());
    let internal_error = exit_code == Some(1)
        || report
            .as_ref()
            .and_then(|r| r.get("internal_error"))
            .is_some_and(|v| !v.is_null());
    let status = status(&verdict, expected_verdict, internal_error);
    let result = TaskResult {
        id: task.id.clone(),
        family: task.family.clone(),
        task: task.path.display().to_string(),
        verdict,
        expected_verdict,
        status: status.to_string(),
        reason,
        violated_property: text("violated_property"),
        exit_code,
        wall_ms: u64::try_from(f.wall.as_millis()).unwrap_or(u64::MAX),
        peak_rss_kib: report
            .as_ref()
            .and_then(|r| r.pointer("/stats/peak_rss_kib"))
            .and_then(|v| v.as_u64()),
        timeout_secs: opts.timeout_secs,
        memory_limit_mib: opts.memory_limit_mib,
        args: args[1..].to_vec(),
        internal_error,
        host: host.to_string(),
        retry: false,
        report,
    };
    let json = serde_json::to_string_pretty(&result)
        .map_err(|e| format!("cannot serialise the result of {}: {e}", task.id))?;
    write_whole(&result_path(&opts.out, &task.id), &format!("{json}\n"))?;
    Ok(result)
}

/// The tasks that still need a run: all with `rerun`, else those without a whole result.
pub fn pending<'a>(opts: &BatchOptions, tasks: &'a [Task]) -> Vec<&'a Task> {
    tasks
        .iter()
        .filter(|t| {
            opts.rerun || read_result(&result_path(&opts.out, &t.id)).is_none_or(|r| r.retry)
        })
        .collect()
}

/// Runs `tasks` on `opts.jobs` threads; `done` is told of each result (or of why none could
/// be written) as it comes.
pub fn run_tasks(
    opts: &BatchOptions,
    tasks: &[&Task],
    host: &str,
    done: impl Fn(&Task, &Result<TaskResult, String>) + Sync,
) -> Vec<Result<TaskResult, String>> {
    run_parallel(
        tasks,
        opts.jobs,
        |t| run_task(opts, t, host),
        |t, r| done(t, r),
    )
}
