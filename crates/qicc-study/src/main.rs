//! `qicc-study`: generate the Qicc paper's systematic study, or run qicc on it and print Table 1.
//!
//! This file only parses arguments, selects scenarios and prints; generation, running and
//! aggregation live in the library. Exit codes: 0 done, 1 error (bad input, qicc missing, no
//! usable engine), 2 usage error (clap), 3 the table ran and some engine gave a wrong verdict.

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use qicc_study::run::Runner;
use qicc_study::table::{self, Record};
use qicc_study::{kernels, shapes, structures, task, Scenario, Structure};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "qicc-study",
    version,
    about = "The Qicc paper's systematic study: loop-free kernels wrapped in synthetic loops (Fig. 7), \
             34 scenarios per kernel, and the benchmark that prints Table 1."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Write the scenarios as SV-COMP tasks: DIR/<kernel>/<structure>_<bounds>[_unsafe].c|.yml.
    Generate(GenerateArgs),
    /// Run qicc on every scenario and engine, then print Table 1, median times and wrong verdicts.
    Table(TableArgs),
    /// List the kernels and the structures.
    List,
}

/// Which kernels a selection starts from.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Suite {
    /// The paper's loop-free kernels (Table 1).
    Paper,
    /// The loop kernels: facts that need relational, polynomial or array invariants.
    Loops,
}

#[derive(Args)]
struct Selection {
    /// The kernels: the paper's loop-free ones, or the loop kernels (`qicc-study list`).
    #[arg(long, value_enum, default_value = "paper")]
    suite: Suite,
    /// Comma-separated kernel names of either suite (default: all of `--suite`).
    #[arg(long, value_delimiter = ',')]
    kernels: Option<Vec<String>>,
    /// Comma-separated structures: baseline, single1, single2, double1, double2, double3
    /// (default: all).
    #[arg(long, value_delimiter = ',', value_parser = parse_structure)]
    structures: Option<Vec<Structure>>,
    /// Also the unsafe twins (`*_unsafe`, expected verdict FALSE).
    #[arg(long = "unsafe")]
    with_unsafe: bool,
}

#[derive(Args)]
struct GenerateArgs {
    /// Output directory (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    #[command(flatten)]
    select: Selection,
}

#[derive(Args)]
struct TableArgs {
    /// The qicc binary, e.g. target/release/qicc.
    #[arg(long, value_name = "PATH")]
    qicc: PathBuf,
    /// Comma-separated engines, in table order (cells read `solved_1/solved_2/...`).
    #[arg(long, value_delimiter = ',', default_value = "bmc")]
    engines: Vec<String>,
    /// Seconds per run, passed to `qicc verify --timeout`.
    #[arg(long, value_name = "SECS")]
    timeout: f64,
    /// Runs in parallel.
    #[arg(long, default_value_t = 1, value_name = "N")]
    jobs: usize,
    /// Seconds past the timeout before the run's process group is killed.
    #[arg(long, default_value_t = 5.0, value_name = "SECS")]
    grace: f64,
    /// Also write every result as JSON to this file.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Generate the tasks here and keep them (default: a temporary directory, removed unless a
    /// run was wrong or failed).
    #[arg(long, value_name = "DIR")]
    work_dir: Option<PathBuf>,
    #[command(flatten)]
    select: Selection,
}

fn parse_structure(s: &str) -> Result<Structure, String> {
    Structure::parse(s).ok_or_else(|| {
        let known: Vec<&str> = Structure::ALL.iter().map(|s| s.id()).collect();
        format!("unknown structure '{s}' (known: {})", known.join(", "))
    })
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate(a) => cmd_generate(&a),
        Command::Table(a) => cmd_table(&a),
        Command::List => {
            cmd_list();
            Ok(ExitCode::SUCCESS)
        }
    };
    match result {
        Ok(code) => code,
        Err(msg) => {
            eprintln!("qicc-study: {msg}");
            ExitCode::from(1)
        }
    }
}

/// The selected scenarios: kernels in the order given, the 34 shapes (filtered), kernel then
/// twin.
fn select(sel: &Selection) -> Result<Vec<Scenario>, String> {
    let ks = match (&sel.kernels, sel.suite) {
        (None, Suite::Loops) => kernels::loops().iter().collect(),
        _ => kernels::select(sel.kernels.as_deref())?,
    };
    let mut out = Vec::new();
    for k in ks {
        for safe in [true, false] {
            if !safe && !sel.with_unsafe {
                continue;
            }
            for (s, b) in shapes().into_iter().filter(|(s, _)| wanted(sel, *s)) {
                out.push(structures::generate(k, s, b, safe).map_err(|e| e.to_string())?);
            }
        }
    }
    Ok(out)
}

/// Whether the selection includes `s` (all structures when none is named).
fn wanted(sel: &Selection, s: Structure) -> bool {
    match &sel.structures {
        None => true,
        Some(list) => list.contains(&s),
    }
}

fn structure_columns(sel: &Selection) -> Vec<Structure> {
    Structure::ALL
        .into_iter()
        .filter(|s| wanted(sel, *s))
        .collect()
}

fn cmd_list() {
    println!("Kernels (--suite paper):");
    for k in kernels::all() {
        println!("  {:<18} {}", k.name, k.about);
    }
    println!("Loop kernels (--suite loops):");
    for k in kernels::loops() {
        println!("  {:<18} {}", k.name, k.about);
    }
    println!("Structures:");
    for s in Structure::ALL {
        println!("  {:<9} {:<9} {}", s.id(), s.title(), s.describe());
    }
    println!(
        "Bounds: small ({}), large ({}), arbitrary ({})",
        structures::SMALL_BOUND,
        structures::LARGE_BOUND,
        structures::ARBITRARY_LOOP_HEAD
    );
}

fn cmd_generate(a: &GenerateArgs) -> Result<ExitCode, String> {
    let scenarios = select(&a.select)?;
    let written = task::write_all(&a.out, &scenarios)
        .map_err(|e| format!("cannot write to {}: {e}", a.out.display()))?;
    println!("wrote {} tasks under {}", written.len(), a.out.display());
    Ok(ExitCode::SUCCESS)
}

/// A directory removed on drop unless `keep` is set.
struct WorkDir {
    path: PathBuf,
    keep: bool,
}

impl WorkDir {
    fn new(given: Option<&Path>) -> Result<WorkDir, String> {
        if let Some(p) = given {
            return Ok(WorkDir {
                path: p.to_path_buf(),
                keep: true,
            });
        }
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("qicc-study-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path)
            .map_err(|e| format!("cannot create {}: {e}", path.display()))?;
        Ok(WorkDir { path, keep: false })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if !self.keep {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn cmd_table(a: &TableArgs) -> Result<ExitCode, String> {
    if !(a.timeout.is_finite() && a.timeout > 0.0) {
        return Err(format!(
            "--timeout must be a positive number of seconds, got {}",
            a.timeout
        ));
    }
    let grace = Duration::try_from_secs_f64(a.grace).map_err(|_| {
        format!(
            "--grace must be a non-negative number of seconds, got {}",
            a.grace
        )
    })?;
    if !a.qicc.is_file() {
        return Err(format!(
            "no qicc binary at {} (build it with `cargo build --release -p qicc-cli`)",
            a.qicc.display()
        ));
    }
    let scenarios = select(&a.select)?;
    if scenarios.is_empty() {
        return Err("the selection has no scenario".into());
    }
    let runner = Runner {
        qicc: a.qicc.clone(),
        timeout_secs: a.timeout,
        grace,
    };

    // Engines the binary rejects are left out with a message instead of failing every run.
    let mut engines: Vec<String> = Vec::new();
    let mut left_out: Vec<String> = Vec::new();
    for e in &a.engines {
        if engines.contains(e) || left_out.contains(e) {
            continue;
        }
        match runner.probe_engine(e) {
            Ok(()) => engines.push(e.clone()),
            Err(msg) => {
                eprintln!(
                    "qicc-study: {} does not know engine '{e}'; leaving it out ({msg})",
                    a.qicc.display()
                );
                left_out.push(e.clone());
            }
        }
    }
    if engines.is_empty() {
        return Err(format!(
            "none of the engines {} is usable with {}",
            a.engines.join(","),
            a.qicc.display()
        ));
    }

    let mut work = WorkDir::new(a.work_dir.as_deref())?;
    let written = task::write_all(&work.path, &scenarios)
        .map_err(|e| format!("cannot write the tasks to {}: {e}", work.path.display()))?;

    let jobs: Vec<(usize, usize)> = (0..scenarios.len())
        .flat_map(|s| (0..engines.len()).map(move |e| (s, e)))
        .collect();
    let bar = ProgressBar::new(jobs.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} [{elapsed}] {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let make_record = |&(s, e): &(usize, usize), result| Record {
        scenario: scenarios[s].name.clone(),
        kernel: scenarios[s].kernel,
        structure: scenarios[s].structure,
        bounds: scenarios[s].bounds,
        safe: scenarios[s].safe,
        engine: engines[e].clone(),
        task: written[s].yml_file.clone(),
        result,
    };
    let records: Vec<Record> = qicc_study::run::run_parallel(
        &jobs,
        a.jobs,
        |job| make_record(job, runner.run(&engines[job.1], &written[job.0].yml_file)),
        |_, rec: &Record| {
            if rec.wrong() {
                // Loud at once, also when the bar is hidden (stderr not a terminal).
                bar.suspend(|| eprintln!("{}", table::wrong_line(rec)));
            }
            bar.set_message(format!("{} {}", rec.engine, rec.scenario));
            bar.inc(1);
        },
    );
    bar.finish_and_clear();

    let columns = structure_columns(&a.select);
    println!(
        "qicc-study: {} scenarios, engines {}, timeout {} s, {} job(s)\n",
        scenarios.len(),
        engines.join(","),
        a.timeout,
        a.jobs.max(1)
    );
    if !left_out.is_empty() {
        println!(
            "(left out, unknown to {}: {})\n",
            a.qicc.display(),
            left_out.join(",")
        );
    }
    println!(
        "{}",
        table::solved_table(&records, &engines, &columns, true)
    );
    if a.select.with_unsafe {
        println!(
            "{}",
            table::solved_table(&records, &engines, &columns, false)
        );
    }
    println!("{}", table::median_table(&records, &engines, &columns));
    println!("{}", table::outcome_summary(&records, &engines));
    print!("{}", table::wrong_report(&records, &engines));

    if let Some(path) = &a.json {
        let mut value = table::to_json(&records, &engines, a.timeout);
        value["left_out_engines"] = serde_json::json!(left_out);
        let text = serde_json::to_string_pretty(&value)
            .map_err(|e| format!("cannot serialise the results: {e}"))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }

    let any_wrong = records.iter().any(Record::wrong);
    let any_failed = records.iter().any(|r| {
        matches!(
            r.result.outcome,
            qicc_study::run::Outcome::Failed { .. }
                | qicc_study::run::Outcome::UnknownEngine { .. }
        )
    });
    if any_wrong || any_failed {
        work.keep = true;
        println!("(tasks kept for inspection in {})", work.path.display());
    }
    Ok(if any_wrong {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
