//! Every task under `shared/benchmarks` (seeds first, then SV-COMP, each directory in path
//! order): the engine never gives a wrong verdict. Prints a table of verdict / expected /
//! time per task; a task the front-end rejects is listed as such, never skipped silently.
//!
//! Slow (minutes: up to `QICC_BMC_TASK_TIMEOUT` seconds, default 10, per task), so it is
//! `#[ignore]`d in the normal `cargo test`; CI runs it with
//! `cargo test -p qicc-bmc --test benchmarks -- --include-ignored`.

mod common;
use common::*;
use qicc_bmc::{verify, BmcOptions};
use qicc_engine::Budget;
use qicc_frontend::{lower_file, task::load_task, Options};
use std::time::{Duration, Instant};

#[test]
#[ignore = "minutes: run with --include-ignored (CI does)"]
fn no_wrong_verdict_on_any_benchmark() {
    let root = qicc_testkit::require_benchmarks_dir();
    let secs: u64 = std::env::var("QICC_BMC_TASK_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10);
    let all = qicc_testkit::task_files(&root);
    assert!(!all.is_empty(), "no task files under {}", root.display());
    let all = qicc_testkit::corpus_sample(all);
    let mut wrong = Vec::new();
    let mut counts = std::collections::BTreeMap::<String, usize>::new();
    println!(
        "{:<70} {:>8} {:>8} {:>8}  reason",
        "task", "verdict", "expected", "ms"
    );
    for path in &all {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let task = match load_task(path) {
            Ok(t) => t,
            Err(e) => {
                println!(
                    "{name:<70} {:>8} {:>8} {:>8}  task file: {e}",
                    "ERROR", "-", 0
                );
                *counts.entry("task file error".into()).or_default() += 1;
                continue;
            }
        };
        let expected = match task.expected_verdict {
            Some(true) => "TRUE",
            Some(false) => "FALSE",
            None => "-",
        };
        let opts = Options {
            data_model: task.data_model.unwrap_or(qicc_ir::DataModel::Ilp32),
            ..Options::default()
        };
        let t0 = Instant::now();
        let lowered = match lower_file(&task.input_file, &opts) {
            Ok(l) => l,
            Err(e) => {
                println!(
                    "{name:<70} {:>8} {expected:>8} {:>8}  front-end: {e}",
                    "REJECTED", 0
                );
                *counts
                    .entry("rejected by the front-end".into())
                    .or_default() += 1;
                continue;
            }
        };
        let p = lowered.program;
        let r = verify(
            &p,
            &BmcOptions::default(),
            &Budget::with_timeout(Duration::from_secs(secs)),
        );
        check_consistent(&p, &r);
        let v = verdict(&r);
        let shown = match v {
            Verdict::True => "TRUE",
            Verdict::False => "FALSE",
            Verdict::Unknown => "UNKNOWN",
        };
        let ms = t0.elapsed().as_millis();
        let reason = r.reason.clone().unwrap_or_default();
        println!("{name:<70} {shown:>8} {expected:>8} {ms:>8}  {reason}");
        let is_wrong = matches!(
            (v, task.expected_verdict),
            (Verdict::True, Some(false)) | (Verdict::False, Some(true))
        );
        if is_wrong {
            wrong.push(name.clone());
        }
        let key = if is_wrong {
            "WRONG".to_string()
        } else if v == Verdict::Unknown {
            "unknown".to_string()
        } else {
            "correct".to_string()
        };
        *counts.entry(key).or_default() += 1;
    }
    println!("summary over {} tasks: {counts:?}", all.len());
    assert!(wrong.is_empty(), "wrong verdicts: {wrong:?}");
}
