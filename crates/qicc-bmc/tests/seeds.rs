//! End to end: C seed tasks through the front-end and the engine, with their expected
//! verdicts. Tasks that no bound can prove must come out UNKNOWN, never TRUE.

mod common;
use common::*;
use qicc_bmc::{verify, BmcOptions};
use qicc_engine::Budget;
use qicc_frontend::{lower_file, task::load_task, Options};
use std::path::PathBuf;
use std::time::Duration;

fn seeds_dir() -> PathBuf {
    qicc_testkit::require_benchmarks_dir().join("seeds")
}

/// Lowers the task and verifies it within `secs`; the result and the task's expectation.
fn run_task(name: &str, secs: u64) -> (Verdict, Option<bool>, qicc_engine::EngineResult) {
    let task = load_task(&seeds_dir().join(format!("{name}.yml"))).expect("task file");
    let opts = Options {
        data_model: task.data_model.unwrap_or(qicc_ir::DataModel::Ilp32),
        ..Options::default()
    };
    let lowered = lower_file(&task.input_file, &opts).expect("the seed lowers");
    let p = lowered.program;
    let r = verify(
        &p,
        &BmcOptions::default(),
        &Budget::with_timeout(Duration::from_secs(secs)),
    );
    check_consistent(&p, &r);
    (verdict(&r), task.expected_verdict, r)
}

fn expect_task(name: &str, want: Verdict) {
    let (v, expected, r) = run_task(name, 120);
    let exp = match expected {
        Some(true) => Verdict::True,
        Some(false) => Verdict::False,
        None => Verdict::Unknown,
    };
    assert_eq!(exp, want, "{name}: the task file expects {expected:?}");
    assert_eq!(v, want, "{name}: {r:?}");
}

#[test]
fn two_sum_fixed_10_is_true() {
    expect_task("two_sum_fixed_10", Verdict::True);
}

#[test]
fn escape_overflow_10_is_false() {
    expect_task("escape_overflow_10", Verdict::False);
}

#[test]
fn escape_overflow_100_is_false() {
    expect_task("escape_overflow_100", Verdict::False);
}

#[test]
fn recursive_sum_bug_is_false() {
    expect_task("recursive_sum_bug", Verdict::False);
}

#[test]
fn array_fill_deep_100_is_false() {
    expect_task("array_fill_deep_100", Verdict::False);
}

#[test]
fn x_stays_one_is_unknown() {
    let (v, expected, r) = run_task("x_stays_one", 60);
    assert_eq!(expected, Some(true));
    assert_eq!(v, Verdict::Unknown, "{r:?}");
    assert!(r.reason.unwrap().contains("not fully unwound"));
}

#[test]
fn two_sum_variable_is_unknown() {
    let (v, expected, r) = run_task("two_sum_variable", 5);
    assert_eq!(expected, Some(true));
    assert_eq!(v, Verdict::Unknown, "{r:?}");
}
