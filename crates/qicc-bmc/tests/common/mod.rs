//! Shared helpers of the BMC tests: programs as IR text, verdicts, replay of witnesses.
#![allow(dead_code)]

use qicc_bmc::{verify, BmcOptions};
use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_interp::{replay, Outcome, RunConfig};
use qicc_ir::{parse_program, verify_program, AssertionId, Program};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    True,
    False,
    Unknown,
}

pub fn verdict(r: &EngineResult) -> Verdict {
    if r.violation.is_some() {
        Verdict::False
    } else if r.reason.is_none() {
        Verdict::True
    } else {
        Verdict::Unknown
    }
}

pub fn program(text: &str) -> Program {
    let p = parse_program(text).unwrap_or_else(|e| panic!("parse: {e}\n{text}"));
    if let Err(errs) = verify_program(&p) {
        panic!("ill-formed test program: {errs:?}\n{text}");
    }
    p
}

pub fn run_with(p: &Program, opts: &BmcOptions) -> EngineResult {
    let r = verify(p, opts, &Budget::with_timeout(Duration::from_secs(60)));
    check_consistent(p, &r);
    r
}

pub fn run(text: &str) -> EngineResult {
    run_with(&program(text), &BmcOptions::default())
}

pub fn run_unwind(text: &str, k: u32) -> EngineResult {
    let opts = BmcOptions {
        unwind: Some(k),
        ..BmcOptions::default()
    };
    run_with(&program(text), &opts)
}

/// What every result must satisfy: one status per assertion; a violation replays to a
/// property assertion independently of the engine; TRUE means every status is Safe.
pub fn check_consistent(p: &Program, r: &EngineResult) {
    assert_eq!(r.statuses.len(), p.assertions.len(), "{r:?}");
    if let Some((a, w)) = &r.violation {
        let run = replay(p, w, &RunConfig::default());
        assert_eq!(
            run.outcome,
            Outcome::ErrorReached { assertion: *a },
            "witness does not replay: {r:?}"
        );
        assert!(p.assertion(*a).kind.is_property());
        // A replayed violation of an assertion the result calls safe is a contradiction
        // (an internal error in the driver): fail on it.
        assert!(
            r.statuses
                .iter()
                .any(|(x, s)| x == a && *s == AssertionStatus::Violated),
            "contradictory result: the witness of {a} replays, but its status is not violated: {r:?}"
        );
    }
    if verdict(r) == Verdict::True {
        assert!(
            r.statuses.iter().all(|(_, s)| *s == AssertionStatus::Safe),
            "{r:?}"
        );
    }
}

pub fn expect(text: &str, want: Verdict) -> EngineResult {
    let r = run(text);
    assert_eq!(verdict(&r), want, "{:?}\n{text}", r);
    r
}

pub fn status(r: &EngineResult, a: u32) -> &AssertionStatus {
    &r.statuses
        .iter()
        .find(|(x, _)| *x == AssertionId(a))
        .expect("status listed")
        .1
}

/// A figure the BMC always reports (panics when it is missing).
pub fn stat(figure: Option<impl Into<u64>>) -> u64 {
    figure.map(Into::into).expect("the BMC reports this figure")
}
