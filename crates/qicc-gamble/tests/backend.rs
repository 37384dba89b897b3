//! The external X at the root: a violation the tool reports is acted on only through
//! `EngineResult::unconfirmed_violations`, never through the text of a status. The tool here is
//! the CBMC test double of `qicc-external` (it imitates CBMC's output and verifies nothing), so
//! it can claim a violation the program does not have.

use qicc_engine::{AssertionStatus, Budget};
use qicc_external::{ExternalBackend, Tool};
use qicc_gamble::Backend;
use qicc_ir::{parse_program, AssertionId, Program};
use std::path::Path;
use std::time::Duration;

/// `main` asserting `x != 5` after `x := value`.
fn program(value: i32) -> Program {
    let text = format!(
        "qicc-ir 1\ndata-model ilp32\nassertion #0 verifier_assert in @main\nentry @main\n\
         fn @main() -> %ret {{\n  local %ret: i32\n  local %x: i32\n\
         \x20 locs 100 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: %x := {value}:i32\n\
         \x20 L4 -> L98: assume not(ne(%x, 5:i32))\n  L98 -> L2: error #0\n\
         \x20 L4 -> L1: assume ne(%x, 5:i32)\n}}\n"
    );
    parse_program(&text).unwrap_or_else(|e| panic!("test program does not parse: {e}"))
}

/// The test double, told to report assertion #0 violated.
fn claims_a_violation() -> Backend {
    let fake =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../qicc-external/tests/fixtures/fake-cbmc.sh");
    Backend::External {
        tool: ExternalBackend {
            tool: Tool::Cbmc,
            path: Some(fake),
            extra_args: vec!["--fake-mode=fail".into(), "--fake-fail=0".into()],
        },
        unwind: None,
    }
}

fn status(r: &qicc_engine::EngineResult) -> &AssertionStatus {
    &r.statuses[0].1
}

fn budget() -> Budget {
    Budget::with_timeout(Duration::from_secs(60))
}

#[test]
fn an_unconfirmed_violation_at_the_root_says_the_builtin_engine_found_none() {
    let r = claims_a_violation().run(&program(1), false, true, &budget());
    assert!(r.violation.is_none(), "{r:?}");
    assert_eq!(r.unconfirmed_violations, vec![AssertionId(0)]);
    match status(&r) {
        AssertionStatus::Unknown(why) => assert_eq!(
            why,
            "cbmc reports a violation (not replayed); the built-in engine found no replayable \
             counterexample"
        ),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_real_violation_at_the_root_comes_back_with_the_builtin_witness() {
    let r = claims_a_violation().run(&program(5), false, true, &budget());
    assert_eq!(r.violation.as_ref().map(|(a, _)| *a), Some(AssertionId(0)));
    assert_eq!(*status(&r), AssertionStatus::Violated);
}

#[test]
fn in_a_region_the_claim_is_left_as_the_tool_said() {
    let r = claims_a_violation().run(&program(5), true, false, &budget());
    assert!(r.violation.is_none());
    assert_eq!(r.unconfirmed_violations, vec![AssertionId(0)]);
    assert_eq!(
        *status(&r),
        AssertionStatus::Unknown("cbmc reports a violation (not replayed)".into())
    );
}
