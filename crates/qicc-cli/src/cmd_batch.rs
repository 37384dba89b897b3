//! `qicc batch`: many tasks at once, each its own `qicc verify` child process (this binary),
//! with a progress bar, one result per task in the output directory, resumption, and the
//! merged report (`qicc-batch` owns all of it; this module parses, shows progress, prints).

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use qicc_batch::merge::{write_merged, Summary};
use qicc_batch::run::{pending, run_tasks, BatchOptions, TaskResult};
use qicc_batch::tasks::{discover, Task};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Text,
    Markdown,
    Json,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum BatchProgress {
    /// A bar on a terminal, plain lines otherwise.
    Auto,
    Bar,
    /// One line per finished task (CI logs).
    Plain,
    None,
}

#[derive(Args)]
pub struct BatchArgs {
    /// Task files (.yml), C files (.c, .i) and directories, searched recursively (a C file a
    /// task file of the tree names as its input runs through that task only).
    pub inputs: Vec<PathBuf>,
    /// A file listing tasks: one path or glob per line, relative to the file (as BenchExec's
    /// .set files); `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    pub list: Option<PathBuf>,
    /// Only the tasks whose id matches GLOB. A task's id is its path below the directory it
    /// was found in, with that directory's name in front (`benchmarks/loops/sum_1.yml`); a
    /// file named alone is its file name.
    #[arg(long, value_name = "GLOB")]
    pub select: Option<String>,
    /// The output directory: `tasks/<id>/result.json` per task (qicc's JSON report with the
    /// task, limits, exit code, wall time and peak memory; `witness.yml`, `result.sarif` on
    /// request), `results.jsonl`, `report.txt`, `report.md`, `report.json`, `results.sarif`.
    /// A second run over it skips the tasks that have a result (see --rerun).
    #[arg(short = 'o', long, value_name = "DIR", default_value = "qicc-batch")]
    pub out: PathBuf,
    /// Tasks at a time. Default: the number of cores divided by each task's threads
    /// (--task-jobs), so the machine is not oversubscribed.
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Each task's threads (`qicc verify --jobs`). Default: the cores divided by --jobs when
    /// that is given, else 2 (at most the number of cores).
    #[arg(long, value_name = "N")]
    pub task_jobs: Option<usize>,
    /// Each task's time limit in seconds (`qicc verify --timeout`); a task still running 10 s
    /// later is killed with its process group and counted as an error.
    #[arg(long, value_name = "SECONDS", default_value = "60")]
    pub timeout: f64,
    /// Each task's memory limit in MiB (`qicc verify --memory-limit`; default: qicc's, half
    /// the machine's memory — give one when tasks run in parallel).
    #[arg(long, value_name = "MIB")]
    pub memory_limit: Option<u64>,
    /// Keep each task's SV-COMP witness (`witness.yml` in its directory).
    #[arg(long)]
    pub witnesses: bool,
    /// Keep each task's SARIF log, and merge them into `results.sarif`.
    #[arg(long)]
    pub sarif: bool,
    /// Also write the browsable report into `OUT/html`: `index.html` (every task with its
    /// verdict, expected verdict and time, sortable; per-family counts) and one page per task.
    #[arg(long)]
    pub html: bool,
    /// Run every task again, also those that have a result.
    #[arg(long)]
    pub rerun: bool,
    /// Run nothing: merge the results already in the output directory (written by any
    /// means: an interrupted run, Slurm array elements, copies from other machines):
    /// `qicc batch --merge DIR` or `qicc batch --merge -o DIR`.
    #[arg(long)]
    pub merge: bool,
    /// Run the tasks on a Slurm cluster: a Slurm array job (one element per shard of tasks),
    /// submitted with sbatch, waited for (squeue), its results merged as a local run's. The
    /// output directory and the qicc binary must be on a file system every node shares.
    /// An element Slurm ends early (time, memory, node failure) gives its unfinished tasks
    /// an error naming Slurm's reason (sacct); running the command again runs only those.
    #[arg(long)]
    pub slurm: bool,
    /// Slurm: write the array job script (`DIR/slurm/job.sh`) and stop, for users who submit
    /// it themselves (`sbatch DIR/slurm/job.sh`, then `qicc batch --merge -o DIR`).
    #[arg(long, requires = "slurm")]
    pub slurm_script_only: bool,
    /// Slurm: the partition.
    #[arg(long, value_name = "NAME", requires = "slurm")]
    pub partition: Option<String>,
    /// Slurm: an element's time limit in minutes (default: its shard's tasks all running to
    /// their timeout, and 5 minutes more).
    #[arg(long, value_name = "MINUTES", requires = "slurm")]
    pub slurm_time: Option<u64>,
    /// Slurm: an element's memory in MiB (default: --memory-limit and 512 MiB more when it
    /// is given, else the cluster's default).
    #[arg(long, value_name = "MIB", requires = "slurm")]
    pub slurm_mem: Option<u64>,
    /// Slurm: tasks per array element (default: as many as take about ten minutes when every
    /// one runs to its timeout).
    #[arg(long, value_name = "N")]
    pub shard_size: Option<usize>,
    /// Slurm: one more sbatch option for the script (`--sbatch-arg=--account=proj`).
    #[arg(
        long,
        value_name = "OPTION",
        requires = "slurm",
        allow_hyphen_values = true
    )]
    pub sbatch_arg: Vec<String>,
    /// Run array element N of the job script in the output directory (what the script runs).
    #[arg(long, value_name = "N", hide = true)]
    pub slurm_element: Option<usize>,
    /// The report printed at the end (all three are written to the output directory).
    #[arg(long, value_enum, default_value = "text")]
    pub format: ReportFormat,
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: BatchProgress,
    /// More `qicc verify` options for every task, after `--`: `qicc batch tasks/ --
    /// --engine bmc --property no-overflow.prp`.
    #[arg(last = true, value_name = "VERIFY OPTIONS")]
    pub verify_args: Vec<String>,
}

/// Tasks at a time and each task's threads, from the options and the number of cores.
fn shares(jobs: Option<usize>, task_jobs: Option<usize>, cores: usize) -> (usize, usize) {
    let cores = cores.max(1);
    match (jobs, task_jobs) {
        (Some(j), Some(t)) => (j.max(1), t.max(1)),
        (Some(j), None) => (j.max(1), (cores / j.max(1)).max(1)),
        (None, t) => {
            let t = t.unwrap_or(2).clamp(1, cores);
            ((cores / t).max(1), t)
        }
    }
}

pub fn run(mut args: BatchArgs) -> u8 {
    if args.merge {
        // `--merge DIR`: the one input is the directory to merge.
        match args.inputs.as_slice() {
            [] => {}
            [dir] if dir.is_dir() => args.out = dir.clone(),
            _ => {
                eprintln!("qicc batch: --merge takes one output directory (`qicc batch --merge DIR`)\n\nFor more information, try '--help'.");
                return crate::EXIT_USAGE;
            }
        }
        return report(&args);
    }
    if let Some(index) = args.slurm_element {
        return slurm_element(&args, index);
    }
    if args.inputs.is_empty() && args.list.is_none() {
        eprintln!("qicc batch: no tasks: name task files, C files or directories, or --list FILE\n\nFor more information, try '--help'.");
        return crate::EXIT_USAGE;
    }
    if !(args.timeout.is_finite() && args.timeout > 0.0) {
        eprintln!("qicc batch: --timeout must be a positive number of seconds");
        return crate::EXIT_USAGE;
    }
    let tasks = match discover(&args.inputs, args.list.as_deref(), args.select.as_deref()) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("qicc batch: {e}");
            return crate::EXIT_INPUT_ERROR;
        }
    };
    if tasks.is_empty() {
        eprintln!("qicc batch: no task found (task files .yml, C files .c and .i)");
        return crate::EXIT_INPUT_ERROR;
    }
    let qicc = match std::env::current_exe() {
        Ok(q) => q,
        Err(e) => {
            eprintln!("qicc batch: cannot find the qicc binary: {e}");
            return crate::EXIT_INTERNAL;
        }
    };
    let opts = options(&args, qicc);
    let (jobs, task_jobs) = (opts.jobs, opts.task_jobs);
    if let Err(e) = std::fs::create_dir_all(&opts.out) {
        eprintln!("qicc batch: cannot create {}: {e}", opts.out.display());
        return crate::EXIT_INPUT_ERROR;
    }
    let todo = pending(&opts, &tasks);
    if args.slurm {
        return on_slurm(&args, &opts, &tasks, &todo);
    }
    eprintln!(
        "qicc batch: {} tasks, {} with a result already, running {} ({} at a time, {} thread{} each, {} s each) into {}",
        tasks.len(),
        tasks.len() - todo.len(),
        todo.len(),
        jobs,
        task_jobs,
        if task_jobs == 1 { "" } else { "s" },
        args.timeout,
        opts.out.display()
    );
    // Ctrl-C: kill the running tasks (their own process groups miss the terminal's signal);
    // the tasks that finished keep their results, and a second run does the rest.
    let _ = ctrlc::set_handler(|| {
        qicc_batch::process::interrupt();
        eprintln!(
            "\nqicc batch: interrupted; run the same command again to run the remaining tasks"
        );
        std::process::exit(130);
    });
    let progress = Progress::new(progress_mode(args.progress), todo.len());
    run_tasks(&opts, &todo, "local", |t, r| progress.done(t, r));
    progress.finish();
    report(&args)
}

/// The options of a run, from the arguments (the cores shared as [`shares`] says).
fn options(args: &BatchArgs, qicc: PathBuf) -> BatchOptions {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let (jobs, task_jobs) = shares(args.jobs, args.task_jobs, cores);
    BatchOptions {
        qicc,
        out: args.out.clone(),
        jobs,
        task_jobs,
        timeout_secs: args.timeout,
        memory_limit_mib: args.memory_limit,
        verify_args: args.verify_args.clone(),
        witness: args.witnesses,
        sarif: args.sarif,
        rerun: args.rerun,
    }
}

/// One array element, inside Slurm: its shard's tasks.
fn slurm_element(args: &BatchArgs, index: usize) -> u8 {
    let Some(size) = args.shard_size else {
        eprintln!("qicc batch: --slurm-element needs --shard-size");
        return crate::EXIT_USAGE;
    };
    let qicc = match std::env::current_exe() {
        Ok(q) => q,
        Err(e) => {
            eprintln!("qicc batch: cannot find the qicc binary: {e}");
            return crate::EXIT_INTERNAL;
        }
    };
    let mut opts = options(args, qicc);
    opts.jobs = 1;
    match qicc_batch::slurm::run_element(&opts, index, size) {
        Ok(0) => 0,
        Ok(n) => {
            eprintln!("qicc batch: {n} result(s) of element {index} could not be written");
            crate::EXIT_INTERNAL
        }
        Err(e) => {
            eprintln!("qicc batch: {e}");
            crate::EXIT_INPUT_ERROR
        }
    }
}

/// `--slurm`: the pending tasks as an array job; submit, wait, record what Slurm killed,
/// merge.
fn on_slurm(args: &BatchArgs, opts: &BatchOptions, tasks: &[Task], todo: &[&Task]) -> u8 {
    use qicc_batch::slurm;
    if todo.is_empty() {
        eprintln!(
            "qicc batch: all {} tasks have a result; nothing to submit",
            tasks.len()
        );
        return report(args);
    }
    let s = slurm::SlurmOptions {
        partition: args.partition.clone(),
        time_min: args.slurm_time,
        mem_mib: args.slurm_mem,
        shard_size: args.shard_size,
        sbatch_args: args.sbatch_arg.clone(),
    };
    let plan = match slurm::write_plan(opts, &s, todo) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("qicc batch: {e}");
            return crate::EXIT_INPUT_ERROR;
        }
    };
    eprintln!(
        "qicc batch: {} tasks, {} with a result already: {} to Slurm as {} array element(s) of {} task(s) ({})",
        tasks.len(),
        tasks.len() - todo.len(),
        todo.len(),
        plan.elements,
        plan.shard_size,
        plan.script.display()
    );
    if args.slurm_script_only {
        println!("{}", plan.script.display());
        eprintln!(
            "qicc batch: submit it with `sbatch {}`, then merge with `qicc batch --merge -o {}`",
            plan.script.display(),
            args.out.display()
        );
        return 0;
    }
    let job = match slurm::submit(&plan) {
        Ok(j) => j,
        Err(e) => {
            eprintln!("qicc batch: {e}");
            return crate::EXIT_USAGE;
        }
    };
    eprintln!("qicc batch: submitted job {job}");
    let start = Instant::now();
    let mode = progress_mode(args.progress);
    let bar = (mode == BatchProgress::Bar).then(|| bar(todo.len()));
    let mut last_line = Instant::now();
    loop {
        // The plan removed the submitted tasks' old results: a result file is a finished task.
        let done = todo
            .iter()
            .filter(|t| qicc_batch::run::result_path(&opts.out, &t.id).exists())
            .count();
        let states = match slurm::queued(&job) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("qicc batch: {e}");
                return crate::EXIT_USAGE;
            }
        };
        let shown: Vec<String> = states.iter().map(|(s, n)| format!("{s} {n}")).collect();
        if let Some(b) = &bar {
            b.set_position(done as u64);
            b.set_message(shown.join(", "));
        } else if mode != BatchProgress::None
            && (states.is_empty() || last_line.elapsed() >= Duration::from_secs(10))
        {
            eprintln!(
                "[{done}/{}, {:.0} s] job {job}: {}",
                todo.len(),
                start.elapsed().as_secs_f64(),
                if shown.is_empty() {
                    "done".to_string()
                } else {
                    shown.join(", ")
                }
            );
            last_line = Instant::now();
        }
        if states.is_empty() {
            break;
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    // sacct may lag the queue by a moment.
    let states = (0..5)
        .find_map(|i| {
            if i > 0 {
                std::thread::sleep(Duration::from_secs(2));
            }
            slurm::element_states(&job)
                .ok()
                .filter(|s| s.len() >= plan.elements)
        })
        .or_else(|| slurm::element_states(&job).ok())
        .unwrap_or_default();
    match slurm::record_failures(opts, &plan, &job, &states) {
        Ok(0) => {}
        Ok(n) => eprintln!(
            "qicc batch: {n} task(s) of elements Slurm ended early have no result; run the same command again to resubmit them"
        ),
        Err(e) => eprintln!("qicc batch: {e}"),
    }
    eprintln!(
        "qicc batch: job {job} ran {} tasks in {:.1} s",
        todo.len(),
        start.elapsed().as_secs_f64()
    );
    report(args)
}

/// Merges the output directory, prints the report, and gives the exit code: 1 for a wrong
/// verdict or an internal error, else 0.
fn report(args: &BatchArgs) -> u8 {
    let summary = match write_merged(&args.out) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("qicc batch: {e}");
            return crate::EXIT_INPUT_ERROR;
        }
    };
    print_summary(&summary, args.format);
    if args.html {
        let runs = qicc_batch::merge::load_results(&args.out)
            .into_iter()
            .map(crate::cmd_report::batch_run)
            .collect();
        let code = crate::cmd_report::write_html_site(&args.out.join("html"), "qicc batch", runs);
        if code != 0 {
            return code;
        }
    }
    if summary.total.tasks == 0 {
        eprintln!("qicc batch: no result in {}", args.out.display());
        return crate::EXIT_INPUT_ERROR;
    }
    if summary.failed() {
        eprintln!(
            "qicc batch: {} wrong verdict(s), {} internal error(s): see {}",
            summary.total.wrong(),
            summary.total.internal_errors,
            args.out.join("report.txt").display()
        );
        return crate::EXIT_INTERNAL;
    }
    0
}

fn print_summary(summary: &Summary, format: ReportFormat) {
    match format {
        ReportFormat::Text => print!("{}", summary.to_text()),
        ReportFormat::Markdown => print!("{}", summary.to_markdown()),
        ReportFormat::Json => match serde_json::to_string_pretty(summary) {
            Ok(s) => println!("{s}"),
            Err(e) => eprintln!("qicc batch: cannot serialise the report: {e}"),
        },
    }
}

/// `auto` resolved: a bar on a terminal, plain lines otherwise.
fn progress_mode(p: BatchProgress) -> BatchProgress {
    match p {
        BatchProgress::Auto if std::io::stderr().is_terminal() => BatchProgress::Bar,
        BatchProgress::Auto => BatchProgress::Plain,
        p => p,
    }
}

/// The batch's progress bar: done / total, elapsed, ETA, and a message (verdict counts, or
/// the Slurm job's states).
fn bar(total: usize) -> ProgressBar {
    let b = ProgressBar::new(total as u64);
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} ETA {eta} {msg}")
    {
        b.set_style(style.progress_chars("=> "));
    }
    b
}

/// Progress over the batch: a bar (done / total, verdict counts, elapsed, ETA) or a line per
/// finished task.
struct Progress {
    mode: BatchProgress,
    bar: Option<ProgressBar>,
    total: usize,
    start: Instant,
    state: Mutex<(usize, BTreeMap<String, usize>)>,
}

impl Progress {
    fn new(mode: BatchProgress, total: usize) -> Progress {
        let bar = (mode == BatchProgress::Bar).then(|| {
            let b = bar(total);
            b.enable_steady_tick(Duration::from_millis(500));
            b
        });
        Progress {
            mode,
            bar,
            total,
            start: Instant::now(),
            state: Mutex::new((0, BTreeMap::new())),
        }
    }

    fn done(&self, task: &Task, r: &Result<TaskResult, String>) {
        let Ok(mut st) = self.state.lock() else {
            return;
        };
        st.0 += 1;
        let (verdict, status, secs) = match r {
            Ok(r) => (
                r.verdict.clone(),
                r.status.clone(),
                r.wall_ms as f64 / 1000.0,
            ),
            Err(_) => ("ERROR".to_string(), "error".to_string(), 0.0),
        };
        *st.1.entry(verdict.clone()).or_insert(0) += 1;
        let counts: Vec<String> = st.1.iter().map(|(v, n)| format!("{v} {n}")).collect();
        match (&self.bar, self.mode) {
            (Some(b), _) => {
                b.set_message(counts.join(", "));
                b.inc(1);
                if status == "wrong" || status == "error" {
                    b.println(format!(
                        "{} {}: {verdict}",
                        status.to_ascii_uppercase(),
                        task.id
                    ));
                }
            }
            (None, BatchProgress::Plain) => {
                let flag = match status.as_str() {
                    "wrong" => " WRONG",
                    "error" => " ERROR",
                    _ => "",
                };
                eprintln!(
                    "[{}/{}, {:.0} s] {verdict}{flag} {} ({secs:.1} s)",
                    st.0,
                    self.total,
                    self.start.elapsed().as_secs_f64(),
                    task.id
                );
                if let Err(e) = r {
                    eprintln!("  {e}");
                }
            }
            _ => {}
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
        if self.mode != BatchProgress::None {
            eprintln!(
                "qicc batch: ran {} tasks in {:.1} s",
                self.total,
                self.start.elapsed().as_secs_f64()
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::shares;

    #[test]
    fn tasks_share_the_cores() {
        assert_eq!(shares(None, None, 2), (1, 2));
        assert_eq!(shares(None, None, 8), (4, 2));
        assert_eq!(shares(Some(2), None, 2), (2, 1));
        assert_eq!(shares(None, Some(1), 4), (4, 1));
        assert_eq!(shares(Some(3), Some(2), 2), (3, 2));
        assert_eq!(shares(None, None, 1), (1, 1));
    }
}
