//! `qicc batch --slurm`: the tasks that have no result yet as one Slurm array job. Each array
//! element runs a shard of them, one after the other, with the same per-task run as a local
//! batch ([`crate::run::run_task`]) into the same output directory, which must be on a file
//! system every node shares; the submitter waits (`squeue`), turns an element Slurm ended
//! early (time, memory, node failure: `sacct`) into an error result for each of its tasks
//! left without one, and the merge is the local one.
//!
//! Invariant: an element writes only the task directories of its own shard (the shards are
//! disjoint), and a result written for a task Slurm killed is marked `retry`, so the next
//! submission runs exactly the tasks that have no real result.

use crate::process::{run_command, Exit};
use crate::run::{read_result, result_path, run_task, write_whole, BatchOptions, TaskResult};
use crate::tasks::Task;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// What the user asks of Slurm.
#[derive(Clone, Debug, Default)]
pub struct SlurmOptions {
    pub partition: Option<String>,
    /// `--time` of an element, in minutes (default: its shard's worst case).
    pub time_min: Option<u64>,
    /// `--mem` of an element, in MiB (default: the task memory limit and 512 MiB more, if
    /// one is given; else the cluster's default).
    pub mem_mib: Option<u64>,
    /// Tasks per element (default: [`shard_size`]).
    pub shard_size: Option<usize>,
    /// More `sbatch` options, as given.
    pub sbatch_args: Vec<String>,
}

/// Tasks per array element: enough that an element whose tasks all run to their timeout takes
/// about ten minutes (Slurm's start-up per element is seconds: shards keep it small against
/// the work), at least one, at most all.
pub fn shard_size(tasks: usize, timeout_secs: f64) -> usize {
    let per_task = timeout_secs.max(1.0) + 2.0;
    ((600.0 / per_task).floor() as usize).clamp(1, tasks.max(1))
}

/// A written array job: its script and task list.
#[derive(Clone, Debug)]
pub struct Plan {
    pub dir: PathBuf,
    pub script: PathBuf,
    pub tasks_file: PathBuf,
    pub elements: usize,
    pub shard_size: usize,
    /// The shards' tasks, element by element.
    pub shards: Vec<Vec<Task>>,
}

/// Quotes a word for `sh` (single quotes; a single quote inside closes, escapes and reopens).
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())
}

/// Writes the array job for `tasks` into `DIR/slurm/`: `tasks.tsv` (one task per line: id,
/// path) and `job.sh` (the `sbatch` script whose element N runs shard N); the old result
/// files of `tasks` are removed (they are run again).
pub fn write_plan(opts: &BatchOptions, s: &SlurmOptions, tasks: &[&Task]) -> Result<Plan, String> {
    let dir = absolute(&opts.out).join("slurm");
    std::fs::create_dir_all(dir.join("logs"))
        .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let size = s
        .shard_size
        .unwrap_or_else(|| shard_size(tasks.len(), opts.timeout_secs))
        .max(1);
    let mut list = String::new();
    for t in tasks {
        if t.id.contains(['\t', '\n']) {
            return Err(format!("task id {:?}: a tab or newline in a path", t.id));
        }
        list.push_str(&format!(
            "{}\t{}\t{}\n",
            t.id,
            t.family,
            absolute(&t.path).display()
        ));
    }
    let tasks_file = dir.join("tasks.tsv");
    write_whole(&tasks_file, &list)?;
    // A submitted task's old result (a `retry` record, or one `--rerun` replaces) goes: a
    // result file then means the task ran in this job.
    for t in tasks {
        let _ = std::fs::remove_file(crate::run::result_path(&opts.out, &t.id));
    }
    let shards: Vec<Vec<Task>> = tasks
        .chunks(size)
        .map(|c| c.iter().map(|t| (*t).clone()).collect())
        .collect();
    let elements = shards.len();
    let worst = size as f64 * (opts.timeout_secs + crate::run::GRACE.as_secs_f64() + 5.0);
    let time_min = s
        .time_min
        .unwrap_or(((worst / 60.0).ceil() as u64).max(1) + 5);
    let mut header = vec![
        "--job-name=qicc-batch".to_string(),
        format!("--array=0-{}", elements.saturating_sub(1)),
        format!("--output={}/logs/%A_%a.out", dir.display()),
        "--ntasks=1".into(),
        format!("--cpus-per-task={}", opts.task_jobs.max(1)),
        format!("--time={time_min}"),
    ];
    if let Some(p) = &s.partition {
        header.push(format!("--partition={p}"));
    }
    if let Some(m) = s.mem_mib.or(opts.memory_limit_mib.map(|m| m + 512)) {
        header.push(format!("--mem={m}M"));
    }
    let mut cmd = vec![
        absolute(&opts.qicc).display().to_string(),
        "batch".into(),
        "--slurm-element".into(),
        "\"$SLURM_ARRAY_TASK_ID\"".into(),
        "--shard-size".into(),
        size.to_string(),
        "--timeout".into(),
        format!("{}", opts.timeout_secs),
        "--task-jobs".into(),
        opts.task_jobs.to_string(),
        "-o".into(),
        sh_quote(&absolute(&opts.out).display().to_string()),
    ];
    if let Some(m) = opts.memory_limit_mib {
        cmd.extend(["--memory-limit".into(), m.to_string()]);
    }
    if opts.witness {
        cmd.push("--witnesses".into());
    }
    if opts.sarif {
        cmd.push("--sarif".into());
    }
    if !opts.verify_args.is_empty() {
        cmd.push("--".into());
        cmd.extend(opts.verify_args.iter().map(|a| sh_quote(a)));
    }
    let mut script = String::from(
        "#!/bin/sh\n# Written by `qicc batch --slurm`: element N runs shard N of tasks.tsv.\n",
    );
    for h in &header {
        script.push_str(&format!("#SBATCH {h}\n"));
    }
    for a in &s.sbatch_args {
        script.push_str(&format!("#SBATCH {a}\n"));
    }
    script.push_str(&format!("exec {}\n", cmd.join(" ")));
    let path = dir.join("job.sh");
    write_whole(&path, &script)?;
    Ok(Plan {
        dir,
        script: path,
        tasks_file,
        elements,
        shard_size: size,
        shards,
    })
}

/// The tasks of element `index` of the plan whose task list is `tasks_file`.
pub fn shard(tasks_file: &Path, index: usize, size: usize) -> Result<Vec<Task>, String> {
    let text = std::fs::read_to_string(tasks_file)
        .map_err(|e| format!("cannot read {}: {e}", tasks_file.display()))?;
    let mut out = Vec::new();
    for line in text.lines().skip(index * size).take(size) {
        let mut f = line.splitn(3, '\t');
        match (f.next(), f.next(), f.next()) {
            (Some(id), Some(family), Some(path)) => out.push(Task {
                id: id.to_string(),
                family: family.to_string(),
                path: PathBuf::from(path),
            }),
            _ => {
                return Err(format!(
                    "{}: not a task line: {line:?}",
                    tasks_file.display()
                ))
            }
        }
    }
    Ok(out)
}

/// Runs one array element: its shard's tasks, one after the other (the element has the cores
/// of one task). Returns how many results it could not write.
pub fn run_element(opts: &BatchOptions, index: usize, size: usize) -> Result<usize, String> {
    let tasks_file = absolute(&opts.out).join("slurm").join("tasks.tsv");
    let job = std::env::var("SLURM_ARRAY_JOB_ID").unwrap_or_else(|_| "?".into());
    let host = format!("slurm:{job}_{index}");
    let mut failed = 0;
    for t in shard(&tasks_file, index, size)? {
        if let Err(e) = run_task(opts, &t, &host) {
            eprintln!("qicc batch: {e}");
            failed += 1;
        }
    }
    Ok(failed)
}

/// Runs a Slurm command (60 s at most); its stdout, or why it failed.
fn slurm_cmd(program: &str, args: &[String]) -> Result<String, String> {
    let mut cmd = Command::new(program);
    cmd.args(args);
    let f = run_command(cmd, Duration::from_secs(60));
    match f.exit {
        Exit::Code(Some(0)) => Ok(f.stdout),
        Exit::Code(c) => Err(format!(
            "{program} failed (exit code {}): {}",
            c.map_or("none".into(), |c| c.to_string()),
            f.stderr.trim()
        )),
        Exit::Killed => Err(format!("{program} did not answer within 60 s")),
        Exit::Failed(why) => Err(why),
    }
}

/// Submits the plan's script with `sbatch`; the job id.
pub fn submit(plan: &Plan) -> Result<String, String> {
    let out = slurm_cmd(
        "sbatch",
        &["--parsable".into(), plan.script.display().to_string()],
    )?;
    // `--parsable` prints `jobid` or `jobid;cluster`.
    let id = out.trim().split(';').next().unwrap_or("").to_string();
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return Err(format!("sbatch printed no job id: {out:?}"));
    }
    Ok(id)
}

/// The job's elements still queued or running (`squeue`), by state.
pub fn queued(job: &str) -> Result<BTreeMap<String, usize>, String> {
    let out = slurm_cmd(
        "squeue",
        &[
            "-h".into(),
            "-j".into(),
            job.into(),
            "-r".into(),
            "-o".into(),
            "%T".into(),
        ],
    )?;
    let mut states = BTreeMap::new();
    for l in out.lines().map(str::trim).filter(|l| !l.is_empty()) {
        *states.entry(l.to_string()).or_insert(0) += 1;
    }
    Ok(states)
}

/// How each element ended: state (`COMPLETED`, `TIMEOUT`, `OUT_OF_MEMORY`, `NODE_FAIL`,
/// `CANCELLED`, `FAILED`) with the exit code and reason, by element index. From `sacct`; on
/// a cluster without accounting, from `scontrol show job` (which keeps a finished job for
/// `MinJobAge` seconds).
pub fn element_states(job: &str) -> Result<BTreeMap<usize, String>, String> {
    match sacct_states(job) {
        Ok(s) if !s.is_empty() => Ok(s),
        _ => scontrol_states(job),
    }
}

fn scontrol_states(job: &str) -> Result<BTreeMap<usize, String>, String> {
    let out = slurm_cmd(
        "scontrol",
        &["show".into(), "job".into(), "-o".into(), job.into()],
    )?;
    let mut states = BTreeMap::new();
    for l in out.lines() {
        let field = |k: &str| {
            l.split_whitespace()
                .find_map(|w| w.strip_prefix(k).and_then(|v| v.strip_prefix('=')))
        };
        let Some(index) = field("ArrayTaskId").and_then(|i| i.parse::<usize>().ok()) else {
            continue;
        };
        let state = field("JobState").unwrap_or("UNKNOWN");
        let mut shown = format!("{state} (exit code {})", field("ExitCode").unwrap_or("?"));
        if let Some(r) = field("Reason").filter(|r| *r != "None") {
            shown.push_str(&format!(", reason {r}"));
        }
        states.insert(index, shown);
    }
    Ok(states)
}

fn sacct_states(job: &str) -> Result<BTreeMap<usize, String>, String> {
    let out = slurm_cmd(
        "sacct",
        &[
            "-j".into(),
            job.into(),
            "-n".into(),
            "-P".into(),
            "-X".into(),
            "--format=JobID,State,ExitCode".into(),
        ],
    )?;
    let mut states = BTreeMap::new();
    for l in out.lines() {
        let f: Vec<&str> = l.split('|').collect();
        let [id, state, code] = f.as_slice() else {
            continue;
        };
        let Some(index) = id.split('_').nth(1).and_then(|i| i.parse::<usize>().ok()) else {
            continue;
        };
        states.insert(index, format!("{state} (exit code {code})"));
    }
    Ok(states)
}

/// After the job: every task of an element that did not complete and has no result gets an
/// error result naming Slurm's reason, marked `retry` (the next submission runs it). The
/// number of such tasks.
pub fn record_failures(
    opts: &BatchOptions,
    plan: &Plan,
    job: &str,
    states: &BTreeMap<usize, String>,
) -> Result<usize, String> {
    let mut n = 0;
    for (index, tasks) in plan.shards.iter().enumerate() {
        let state = states
            .get(&index)
            .cloned()
            .unwrap_or_else(|| "not known to sacct".into());
        if state.starts_with("COMPLETED") {
            continue;
        }
        for t in tasks {
            let path = result_path(&opts.out, &t.id);
            if read_result(&path).is_some() {
                continue;
            }
            let r = TaskResult {
                id: t.id.clone(),
                family: t.family.clone(),
                task: t.path.display().to_string(),
                verdict: "ERROR".into(),
                expected_verdict: None,
                status: "error".into(),
                reason: Some(format!("Slurm array element {job}_{index} ended {state}")),
                violated_property: None,
                exit_code: None,
                wall_ms: 0,
                peak_rss_kib: None,
                timeout_secs: opts.timeout_secs,
                memory_limit_mib: opts.memory_limit_mib,
                args: Vec::new(),
                internal_error: false,
                host: format!("slurm:{job}_{index}"),
                retry: true,
                report: None,
            };
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            let json = serde_json::to_string_pretty(&r)
                .map_err(|e| format!("cannot serialise the result of {}: {e}", t.id))?;
            write_whole(&path, &format!("{json}\n"))?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_run_minutes_and_cover_every_task_once() {
        assert_eq!(shard_size(1000, 60.0), 9);
        assert_eq!(shard_size(1000, 10.0), 50);
        assert_eq!(shard_size(3, 10.0), 3);
        assert_eq!(shard_size(0, 10.0), 1);
        let d = std::env::temp_dir().join(format!("qicc-batch-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        let tasks: Vec<Task> = (0..7)
            .map(|i| Task {
                path: d.join(format!("t{i}.c")),
                id: format!("fam/t{i}.c"),
                family: "fam".into(),
            })
            .collect();
        let refs: Vec<&Task> = tasks.iter().collect();
        let opts = BatchOptions {
            qicc: PathBuf::from("/opt/qicc/bin/qicc"),
            out: d.clone(),
            jobs: 1,
            task_jobs: 2,
            timeout_secs: 30.0,
            memory_limit_mib: Some(4096),
            verify_args: vec!["--engine".into(), "bmc".into(), "it's".into()],
            witness: false,
            sarif: false,
            rerun: false,
        };
        let s = SlurmOptions {
            partition: Some("short".into()),
            shard_size: Some(3),
            ..SlurmOptions::default()
        };
        let plan = write_plan(&opts, &s, &refs).expect("written");
        assert_eq!(plan.elements, 3);
        let script = std::fs::read_to_string(&plan.script).expect("script");
        for want in [
            "#SBATCH --array=0-2",
            "#SBATCH --cpus-per-task=2",
            "#SBATCH --partition=short",
            "#SBATCH --mem=4608M",
            "--slurm-element \"$SLURM_ARRAY_TASK_ID\" --shard-size 3",
            "-- '--engine' 'bmc' 'it'\\''s'",
        ] {
            assert!(script.contains(want), "{want}\n{script}");
        }
        let mut all = Vec::new();
        for i in 0..plan.elements {
            let sh = shard(&plan.tasks_file, i, plan.shard_size).expect("shard");
            assert_eq!(sh, plan.shards[i]);
            all.extend(sh);
        }
        assert_eq!(all, tasks);
        let _ = std::fs::remove_dir_all(&d);
    }
}
