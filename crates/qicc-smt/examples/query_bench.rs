//! The solver-query benchmark's timer: checks every `.smt2` query of a corpus (written by
//! qicc under `QICC_QUERY_CORPUS`, see `qicc_smt::corpus` and `bench/queries.py`) with the Z3
//! qicc links and the settings of its `FreshPerCheck` mode, several times each, and prints
//! per query the answer and the median check time, then the totals.
//!
//! ```text
//! query_bench [--runs 3] [--timeout 60] [--json out.json] [--param NAME=VALUE]... [--logic QF_AUFBV] DIR_OR_FILE...
//! ```
//!
//! `--param` sets a Z3 global parameter first (e.g. `smt.array.extensional=false`), or with
//! `--solver bitwuzla` a Bitwuzla option by its long name (`rewrite-level=1`): how a solver
//! setting is tried on the corpus before qicc adopts it. `--logic` makes every solver
//! one for that SMT-LIB logic instead of Z3's default (probing) solver.
//!
//! `--solver z3|bitwuzla` checks in process instead: the query is read back into a term store
//! (`qicc_smt::smtlib::read`) and checked by that back-end as qicc checks it (its translation,
//! in `FreshPerCheck` mode, Z3's equation solving as the query's first line says), timing the
//! translation and the check. This is how the back-ends are compared on one corpus: a query
//! Bitwuzla could not parse (Z3's `fp.to_ieee_bv`) is translated, not skipped. The default,
//! `z3-script`, has Z3 parse the script and times the check alone.
//!
//! Exit status 1 when two runs of a query, or a run and the answer qicc recorded, disagree
//! on sat/unsat: that is a solver bug, never a timing matter.

use std::path::{Path, PathBuf};
use std::time::Duration;

use qicc_smt::{CheckMode, CheckResult, SmtSolver, Solver, SolverKind, TermStore, Z3Solver};

/// Times a query corpus with the Z3 qicc links (see the module docs).
#[derive(clap::Parser)]
struct Args {
    /// Runs per query (the median is reported).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Time limit of each check, in seconds.
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// Write every query's answer and times as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// A Z3 global parameter (or with `--solver bitwuzla` a Bitwuzla option) NAME=VALUE, set
    /// before any solver is made (repeatable).
    #[arg(long = "param", value_parser = parse_param)]
    params: Vec<(String, String)>,
    /// Make every solver one for this SMT-LIB logic instead of qicc's choice.
    #[arg(long)]
    logic: Option<String>,
    /// Who checks: `z3-script` (Z3 parses the script), or `z3` / `bitwuzla` in process
    /// through qicc's translation.
    #[arg(long, default_value = "z3-script")]
    solver: String,
    /// Query files, or directories searched for `.smt2` files.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
}

fn parse_param(p: &str) -> Result<(String, String), String> {
    let (k, v) = p.split_once('=').ok_or("needs NAME=VALUE")?;
    Ok((k.to_string(), v.to_string()))
}

fn queries(inputs: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in inputs {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
                for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                    let path = e.path();
                    if path.is_dir() {
                        stack.push(path);
                    } else if path.extension().is_some_and(|x| x == "smt2") {
                        out.push(path);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out
}

/// The answer qicc recorded in the query's trailing comment, if any.
fn recorded_answer(text: &str) -> Option<&str> {
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with("; qicc answer: "))?;
    line.trim_start_matches("; qicc answer: ")
        .split_whitespace()
        .next()
}

fn definite(a: &str) -> bool {
    a == "sat" || a == "unsat"
}

/// Checks the script `text` in process on back-end `kind` (see the module docs): the answer
/// and the time of translation and check.
fn check_in_process(
    kind: SolverKind,
    text: &str,
    timeout: Duration,
) -> Result<(String, Duration), String> {
    let mut store = TermStore::new();
    let query = qicc_smt::smtlib::read(&mut store, text)?;
    let mut solver = SmtSolver::of(kind, CheckMode::FreshPerCheck);
    solver.solve_equations(qicc_smt::corpus::equation_solving(text));
    solver.set_timeout(Some(timeout));
    let t0 = std::time::Instant::now();
    let r = solver.check(&store, &query);
    let took = t0.elapsed();
    let answer = match r {
        CheckResult::Sat => "sat".to_string(),
        CheckResult::Unsat => "unsat".to_string(),
        CheckResult::Unknown(why) => format!("unknown ({why})"),
    };
    Ok((answer, took))
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let in_process = match args.solver.as_str() {
        "z3-script" => None,
        s => match SolverKind::parse(s) {
            Some(k) => Some(k),
            None => {
                eprintln!("--solver: `{s}` is none of z3-script, z3, bitwuzla");
                std::process::exit(2);
            }
        },
    };
    let solver_name = match in_process {
        None => Z3Solver::version(),
        Some(k) => format!("{} in process", k.version()),
    };
    let timeout = Duration::from_secs_f64(args.timeout.max(0.001));
    for (k, v) in &args.params {
        let set = match in_process {
            Some(SolverKind::Bitwuzla) => qicc_smt::BitwuzlaSolver::set_option(k, v),
            _ => Z3Solver::set_global_param(k, v),
        };
        if let Err(e) = set {
            eprintln!("--param {k}={v}: {e}");
            std::process::exit(2);
        }
    }
    if let Err(e) = Z3Solver::set_logic(args.logic.as_deref()) {
        eprintln!("--logic: {e}");
        std::process::exit(2);
    }
    let files = queries(&args.inputs);
    let mut params: Vec<String> = args
        .params
        .iter()
        .map(|(k, v)| format!(" {k}={v}"))
        .collect();
    params.extend(args.logic.iter().map(|l| format!(" logic={l}")));
    println!(
        "{} queries, {} run(s) each, {}{}",
        files.len(),
        args.runs,
        solver_name,
        params.concat()
    );
    let mut total = Duration::ZERO;
    let mut answered = 0usize;
    let mut disagreements = 0usize;
    let mut rows = Vec::new();
    for f in &files {
        let name = display(f, &args.inputs);
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{name}: {e}");
                continue;
            }
        };
        let mut times = Vec::new();
        let mut answers: Vec<String> = Vec::new();
        for _ in 0..args.runs {
            let r = match in_process {
                None => Z3Solver::check_script(&text, Some(timeout)),
                Some(k) => check_in_process(k, &text, timeout),
            };
            match r {
                Ok((a, t)) => {
                    times.push(t);
                    answers.push(a);
                }
                Err(e) => {
                    eprintln!("{name}: {e}");
                    break;
                }
            }
        }
        if times.is_empty() {
            continue;
        }
        times.sort();
        let median = times[times.len() / 2];
        let mut seen: Vec<&str> = answers
            .iter()
            .map(String::as_str)
            .filter(|a| definite(a))
            .collect();
        seen.extend(recorded_answer(&text).filter(|a| definite(a)));
        seen.sort();
        seen.dedup();
        let flag = if seen.len() > 1 {
            disagreements += 1;
            "  DISAGREE"
        } else {
            ""
        };
        let answer = answers[answers.len() / 2].clone();
        if definite(&answer) {
            answered += 1;
        }
        total += median;
        println!(
            "{name}  {answer}  {:.1} ms{flag}",
            median.as_secs_f64() * 1000.0
        );
        rows.push(serde_json::json!({
            "query": name,
            "answer": answer,
            "median_ms": median.as_secs_f64() * 1000.0,
            "runs_ms": times.iter().map(|t| t.as_secs_f64() * 1000.0).collect::<Vec<_>>(),
        }));
    }
    println!(
        "total (sum of medians): {:.2} s; {answered} of {} answered; {disagreements} disagreement(s)",
        total.as_secs_f64(),
        files.len()
    );
    if let Some(j) = &args.json {
        let body = serde_json::json!({
            "solver": format!("{solver_name}{}", params.concat()),
            "runs": args.runs,
            "timeout_s": timeout.as_secs_f64(),
            "total_s": total.as_secs_f64(),
            "queries": rows,
        });
        if let Err(e) = std::fs::write(j, format!("{body:#}\n")) {
            eprintln!("cannot write {}: {e}", j.display());
        }
    }
    if disagreements > 0 {
        std::process::exit(1);
    }
}

fn display(f: &Path, roots: &[PathBuf]) -> String {
    roots
        .iter()
        .find_map(|r| f.strip_prefix(r).ok())
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(f)
        .display()
        .to_string()
}
