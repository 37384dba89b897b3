//! Differential tests against gcc, the ground truth for the whole front-end: each program is
//! compiled by gcc (`-fwrapv`, `-m32` for ILP32) with `tests/diff/stub.c`, which feeds the
//! `__VERIFIER_nondet_*` calls from the same generator as `qicc_interp::RandomOracle`, and is
//! lowered by the front-end and run by the interpreter with the same seed. Both must agree on
//! the outcome: error reached, blocked by an assumption, or the exit status (mod 256). Runs
//! that read uninitialised data, hit undefined behaviour, or run out of steps or time are
//! skipped (gcc's behaviour there is not comparable) and counted.

mod common;

use common::*;
use qicc_ir::DataModel;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

fn own_programs() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(crate_dir().join("tests/diff"))
        .expect("tests/diff exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|x| x.to_str()) == Some("c"))
        .filter(|p| p.file_name().and_then(|x| x.to_str()) != Some("stub.c"))
        .collect();
    v.sort();
    v
}

#[test]
fn own_programs_agree_with_gcc() {
    let mut total = 0;
    let mut report = Vec::new();
    let mut failures = Vec::new();
    for path in own_programs() {
        for dm in [DataModel::Ilp32, DataModel::Lp64] {
            let name = format!(
                "{} ({})",
                path.file_name().unwrap().to_string_lossy(),
                dm.name()
            );
            let lowered = match lower(&path, dm) {
                Ok(l) => l,
                Err(d) => {
                    failures.push(format!("{name}: does not lower: {d}"));
                    continue;
                }
            };
            let dir = scratch_dir("own");
            let native = match compile(&path, dm, &dir) {
                Ok(n) => n,
                Err(e) => {
                    failures.push(format!("{name}: gcc: {e}"));
                    continue;
                }
            };
            let c = compare(
                &lowered,
                &native,
                0..40u64,
                5_000_000,
                Duration::from_secs(10),
            )
            .expect("interpreter accepts the program");
            let _ = std::fs::remove_dir_all(&dir);
            total += c.compared;
            report.push(format!(
                "{name}: {} compared, {} skipped {:?}",
                c.compared,
                c.skipped.len(),
                c.skipped
            ));
            if c.compared < 20 {
                failures.push(format!("{name}: only {} runs compared", c.compared));
            }
            for (seed, ir, nat) in c.mismatches {
                failures.push(format!("{name}: seed {seed}: IR {ir:?}, gcc {nat:?}"));
            }
        }
    }
    println!("{}", report.join("\n"));
    println!("own programs: {total} runs compared");
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
}

/// Benchmark programs whose lowered form is compared on this many seeds.
const SEEDS: u64 = 20;
/// Below this many compared runs, something is wrong with the harness.
const MIN_BENCHMARK_RUNS: u32 = 1600;

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(default)
}

#[test]
fn benchmarks_agree_with_gcc() {
    let root = require_benchmarks_dir();
    let mut programs = 0;
    let mut total = 0;
    let mut skipped: BTreeMap<Skip, u32> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut not_compiled = Vec::new();
    for task_path in task_files(&root) {
        let Ok(task) = qicc_frontend::task::load_task(&task_path) else {
            continue;
        };
        let dm = task.data_model.unwrap_or(DataModel::Lp64);
        let Ok(lowered) = lower(&task.input_file, dm) else {
            continue;
        };
        let dir = scratch_dir("bench");
        let native = match compile(&task.input_file, dm, &dir) {
            Ok(n) => n,
            Err(e) => {
                not_compiled.push(format!("{}: {e}", task.input_file.display()));
                continue;
            }
        };
        // QICC_DIFF_STEPS / QICC_DIFF_SEEDS override the limits for manual exploration.
        let steps = env_u64("QICC_DIFF_STEPS", 500_000);
        let seeds = env_u64("QICC_DIFF_SEEDS", SEEDS);
        let c = match compare(&lowered, &native, 0..seeds, steps, Duration::from_secs(2)) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!(
                    "{}: interpreter rejects the program: {e}",
                    task.input_file.display()
                ));
                continue;
            }
        };
        let _ = std::fs::remove_dir_all(&dir);
        programs += 1;
        total += c.compared;
        for n in &c.notes {
            println!("{}: {n}", task.input_file.display());
        }
        for s in c.skipped {
            *skipped.entry(s).or_default() += 1;
        }
        for (seed, ir, nat) in c.mismatches {
            failures.push(format!(
                "{}: seed {seed}: IR {ir:?}, gcc {nat:?}",
                task.input_file.display()
            ));
        }
    }
    println!("benchmarks: {programs} programs, {total} runs compared, skipped: {skipped:?}");
    for n in &not_compiled {
        println!("not compiled by gcc with the stub: {n}");
    }
    assert!(failures.is_empty(), "mismatches:\n{}", failures.join("\n"));
    assert!(total >= MIN_BENCHMARK_RUNS, "only {total} runs compared");
}
