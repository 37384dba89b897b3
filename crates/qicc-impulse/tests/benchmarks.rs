//! C in, verdict out, on the benchmark tasks under `../shared/benchmarks` (the tests fail
//! when the directory is absent).
//!
//! - The deep seed bugs are found and replay on the original program.
//! - The safe seeds never become FALSE.
//! - `benchmark_table` (ignored: minutes) runs every task that lowers, checks that no
//!   expected-TRUE task becomes FALSE, and prints how many loops were accelerated per task
//!   (the paper's Table 2): `cargo test -p qicc-impulse --release --test benchmarks --
//!   --ignored --nocapture`. `IMPULSE_TASK_TIMEOUT=s` sets the time per task (default 10),
//!   `IMPULSE_BASELINE=1` adds the column "bmc@2": the same BMC at depth 2 without any
//!   acceleration (the paper's "Impulse w/o acc.").

use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_impulse::{instrument, verify, ImpulseOptions};
use qicc_interp::{replay, Outcome, RunConfig};
use qicc_ir::{DataModel, Program};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// `../shared/benchmarks` beside the repository (a missing directory fails the tests).
fn root() -> PathBuf {
    qicc_testkit::require_benchmarks_dir()
}

fn lower(path: &Path, dm: DataModel) -> Result<Program, String> {
    let opts = qicc_frontend::Options {
        data_model: dm,
        ..Default::default()
    };
    qicc_frontend::lower_file(path, &opts)
        .map(|l| l.program)
        .map_err(|d| format!("{d:?}"))
}

fn seed(name: &str) -> Program {
    let path = qicc_testkit::require_seed(name);
    lower(&path, DataModel::Ilp32).unwrap_or_else(|e| panic!("{name} lowers: {e}"))
}

/// The violation of `r`, checked again: its witness replays on `p` to a property assertion.
fn replayed_violation(p: &Program, r: &EngineResult) -> bool {
    let Some((a, w)) = &r.violation else {
        return false;
    };
    // As many steps as `verify` allows its own replay (a bug deep in a loop is a long run).
    let config = RunConfig {
        max_steps: ImpulseOptions::default().max_replay_steps,
        ..RunConfig::default()
    };
    let run = replay(p, w, &config);
    assert_eq!(run.outcome, Outcome::ErrorReached { assertion: *a });
    assert!(p.assertion(*a).kind.is_property());
    // A replayed violation of an assertion the same result calls safe is a contradiction (an
    // internal error in the driver): fail on it.
    assert!(
        !r.statuses
            .iter()
            .any(|(x, s)| x == a && *s == AssertionStatus::Safe),
        "contradictory result: {a} proven safe and violated by a replayed witness"
    );
    true
}

#[test]
fn deep_seed_bugs_are_found_and_replayed() {
    for name in [
        "escape_overflow_10",
        "escape_overflow_100",
        "escape_overflow_1000",
        "escape_overflow_100000",
        "array_fill_deep_10000",
        "x_stays_one_bug",
    ] {
        let p = seed(name);
        let r = verify(
            &p,
            &ImpulseOptions::default(),
            &Budget::with_timeout(Duration::from_secs(120)),
        );
        assert!(
            replayed_violation(&p, &r),
            "{name}: no violation ({:?})",
            r.reason
        );
        // The BMC at depth 2 asked the solver at least once, and says so as every engine does.
        assert!(
            r.stats.solver_time_ms.is_some(),
            "{name}: no solver_time_ms in {:?}",
            r.stats
        );
    }
}

/// The same under LP64: 64-bit pointers, so addresses are 64-bit closed forms (`sext` of
/// the 32-bit index) and their guards take the 64-bit path of the overflow checks.
#[test]
fn deep_seed_bugs_are_found_under_lp64() {
    for name in [
        "escape_overflow_1000",
        "array_fill_deep_10000",
        "x_stays_one_bug",
    ] {
        let path = qicc_testkit::require_seed(name);
        let p = lower(&path, DataModel::Lp64).unwrap_or_else(|e| panic!("{name} lowers: {e}"));
        let r = verify(
            &p,
            &ImpulseOptions::default(),
            &Budget::with_timeout(Duration::from_secs(120)),
        );
        assert!(
            replayed_violation(&p, &r),
            "{name}: no violation ({:?})",
            r.reason
        );
    }
}

#[test]
fn safe_seeds_are_never_false() {
    for name in [
        "escape_safe_10",
        "escape_safe_100",
        "escape_safe_1000",
        "escape_safe_100000",
        "x_stays_one",
        "two_sum_fixed_10",
        "factorial_sum",
    ] {
        let p = seed(name);
        let r = verify(
            &p,
            &ImpulseOptions::default(),
            &Budget::with_timeout(Duration::from_secs(60)),
        );
        assert!(r.violation.is_none(), "{name} became FALSE");
    }
}

/// One benchmark task: program, expected verdict of `unreach-call`, data model.
struct Task {
    name: String,
    file: PathBuf,
    expected: Option<bool>,
    data_model: DataModel,
}

fn tasks() -> Vec<Task> {
    let mut out = Vec::new();
    let seeds = root().join("seeds");
    let mut ymls: Vec<PathBuf> = std::fs::read_dir(&seeds)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    ymls.retain(|p| p.extension().is_some_and(|e| e == "yml"));
    ymls.sort();
    for y in ymls {
        let text = std::fs::read_to_string(&y).unwrap_or_default();
        let expected = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("expected_verdict:"))
            .map(|v| v.trim() == "true");
        let dm = if text.contains("LP64") && !text.contains("ILP32") {
            DataModel::Lp64
        } else {
            DataModel::Ilp32
        };
        let file = y.with_extension("c");
        let name = format!(
            "seeds/{}",
            y.file_stem()
                .map_or(String::new(), |s| s.to_string_lossy().into())
        );
        out.push(Task {
            name,
            file,
            expected,
            data_model: dm,
        });
    }
    let tsv = root().join("sv-comp/tasks.tsv");
    for line in std::fs::read_to_string(tsv)
        .unwrap_or_default()
        .lines()
        .skip(1)
    {
        let cols: Vec<&str> = line.split('\t').collect();
        let [yml, input, verdict, _, _, dm, ..] = cols[..] else {
            continue;
        };
        out.push(Task {
            name: yml
                .trim_start_matches("c/")
                .trim_end_matches(".yml")
                .to_string(),
            file: root().join("sv-comp").join(input),
            expected: match verdict {
                "true" => Some(true),
                "false" => Some(false),
                _ => None,
            },
            data_model: if dm == "LP64" {
                DataModel::Lp64
            } else {
                DataModel::Ilp32
            },
        });
    }
    out
}

#[test]
#[ignore]
fn benchmark_table() {
    let timeout = std::env::var("IMPULSE_TASK_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let all = qicc_testkit::sample_by(tasks(), |t| t.file.as_path());
    if all.is_empty() {
        eprintln!("skipped: no benchmark tasks");
        return;
    }
    let baseline = std::env::var("IMPULSE_BASELINE").is_ok();
    println!(
        "{:<58} {:>8} {:>8} {:>5} {:>5} {:>5} {:>7} {:>8}",
        "task", "expected", "impulse", "loops", "accel", "paths", "ms", "bmc@2"
    );
    let mut found_baseline = 0;
    let (mut lowered, mut found, mut wrong, mut with_acc, mut loops_acc) = (0, 0, 0, 0, 0);
    let mut missed_false = Vec::new();
    for t in &all {
        let expected = match t.expected {
            Some(true) => "true",
            Some(false) => "false",
            None => "?",
        };
        let p = match lower(&t.file, t.data_model) {
            Ok(p) => p,
            Err(_) => {
                println!("{:<58} {expected:>8} {:>8}", t.name, "no-lower");
                continue;
            }
        };
        lowered += 1;
        let start = Instant::now();
        let instr = instrument(&p, &ImpulseOptions::default());
        let r = verify(
            &p,
            &ImpulseOptions::default(),
            &Budget::with_timeout(Duration::from_secs(timeout)),
        );
        let ms = start.elapsed().as_millis();
        let verdict = if replayed_violation(&p, &r) {
            "false"
        } else {
            "unknown"
        };
        if verdict == "false" {
            found += 1;
            if t.expected == Some(true) {
                wrong += 1;
            }
        } else if t.expected == Some(false) {
            missed_false.push(t.name.clone());
        }
        if instr.loops_accelerated() > 0 {
            with_acc += 1;
        }
        loops_acc += instr.loops_accelerated();
        let plain = if baseline {
            let no_acc = ImpulseOptions {
                max_paths_per_loop: 0,
                ..ImpulseOptions::default()
            };
            let r = verify(
                &p,
                &no_acc,
                &Budget::with_timeout(Duration::from_secs(timeout)),
            );
            if replayed_violation(&p, &r) {
                found_baseline += 1;
                "false"
            } else {
                "unknown"
            }
        } else {
            "-"
        };
        println!(
            "{:<58} {expected:>8} {verdict:>8} {:>5} {:>5} {:>5} {ms:>7} {plain:>8}",
            t.name,
            instr.loops_seen,
            instr.loops_accelerated(),
            instr.accelerations.len()
        );
    }
    println!(
        "\n{} tasks, {lowered} lowered; FALSE found: {found} (wrong: {wrong}); \
         loops accelerated: {loops_acc} in {with_acc} programs",
        all.len()
    );
    if baseline {
        println!("FALSE found by the BMC at depth 2 without acceleration: {found_baseline}");
    }
    println!("expected FALSE, not found: {}", missed_false.join(", "));
    assert_eq!(wrong, 0, "an expected-TRUE task became FALSE");
}
