//! Loop invariants handed to the gamble through `GambleOptions::head_facts` are assumed at
//! region heads: a region whose assertion needs the relation `x == y` at its head is proven
//! only with it, and a condition over a ghost (or over a local the region does not havoc)
//! is never assumed.

use qicc_engine::{AssertionStatus, Budget, HeadFacts};
use qicc_gamble::{Backend, BuiltinOptions, GambleOptions, GambleResult};
use qicc_ir::{parse_program, AssertionId, BinOp, Expr, FuncId, Loc, LocalId, Program};
use std::time::Duration;

/// `x` and `y` step together in a loop with head L5 that asserts `x == y` in its body. From
/// an arbitrary state (the region's entry) the assertion fails; interval facts cannot relate
/// the two. `c` is written at the head before it is read, so the region does not havoc it.
const LOCKSTEP: &str = "qicc-ir 1
data-model ilp32
assertion #0 verifier_assert in @main \"x == y\"
entry @main

fn @main() {
  local %x: i32
  local %y: i32
  local %c: i32
  locs 11 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := 0:i32
  L4 -> L5: %y := 0:i32
  L5 -> L6: havoc %c nondet \"__VERIFIER_nondet_int\"
  L6 -> L1: assume eq(%c, 0:i32)
  L6 -> L7: assume ne(%c, 0:i32)
  L7 -> L8: assume ne(%x, %y)
  L8 -> L2: error #0
  L7 -> L9: assume eq(%x, %y)
  L9 -> L10: %x := add(%x, 1:i32)
  L10 -> L5: %y := add(%y, 1:i32)
}
";

const HEAD: Loc = Loc(5);

fn program() -> Program {
    parse_program(LOCKSTEP).unwrap_or_else(|e| panic!("test program does not parse: {e}"))
}

fn x_eq_y() -> Expr {
    Expr::binary(BinOp::Eq, Expr::local(LocalId(0)), Expr::local(LocalId(1)))
}

/// The gamble with `heads` as its slot; the root can never prove the unbounded loop, so a
/// small unwinding cap ends its run quickly.
fn gamble(p: &Program, heads: &HeadFacts) -> GambleResult {
    let opts = GambleOptions {
        jobs: 1,
        backend: Backend::Builtin(BuiltinOptions {
            unwind: None,
            max_unwind: Some(3),
        }),
        region_timeout: Some(Duration::from_secs(20)),
        speculate: false,
        head_facts: heads.clone(),
        ..Default::default()
    };
    qicc_gamble::verify(p, &opts, &Budget::with_timeout(Duration::from_secs(60)))
}

fn region_attempt(r: &GambleResult) -> &qicc_gamble::Attempt {
    r.attempts
        .iter()
        .find(|a| a.node.starts_with("region"))
        .unwrap_or_else(|| panic!("no region attempt: {:?}", r.attempts))
}

fn status(r: &GambleResult) -> &AssertionStatus {
    &r.result.statuses[0].1
}

#[test]
fn without_the_invariant_the_region_is_not_proven() {
    let p = program();
    let r = gamble(&p, &HeadFacts::new());
    assert_ne!(status(&r), &AssertionStatus::Safe, "{:?}", r.attempts);
    assert_region_without_invariants(&r);
}

#[test]
fn a_published_invariant_proves_the_region_and_shows_in_its_facts() {
    let p = program();
    let heads = HeadFacts::new();
    assert_eq!(heads.publish(&p, FuncId(0), HEAD, [x_eq_y()]), 1);
    let r = gamble(&p, &heads);
    assert_eq!(status(&r), &AssertionStatus::Safe, "{:?}", r.attempts);
    let region = region_attempt(&r);
    assert_eq!(region.proved, vec![0], "{region:?}");
    let facts = region.facts.as_deref().unwrap_or("");
    assert!(
        facts.contains("loop invariants: eq(%x, %y)"),
        "the attempt shows the invariant it assumed: {facts}"
    );
    assert_eq!(
        r.proved_in(AssertionId(0)).as_deref(),
        Some(region.node.as_str())
    );
}

#[test]
fn a_condition_over_a_ghost_is_never_assumed() {
    let p = program();
    // The invariants' prepared program appends `ghost.L5.x` (entry value of `x`) after the
    // original locals; a condition that reads it carries `x == y` but is not about `p`.
    let prep = qicc_analysis::add_ghosts(&p);
    let f = prep.program.function(FuncId(0));
    let ghost = f
        .locals
        .iter()
        .position(|l| l.name.starts_with("ghost."))
        .map(|i| LocalId(i as u32))
        .expect("the loop gets ghosts");
    assert!(ghost.index() >= p.function(FuncId(0)).locals.len());
    let with_ghost = Expr::binary(
        BinOp::And,
        x_eq_y(),
        Expr::binary(BinOp::Eq, Expr::local(ghost), Expr::local(ghost)),
    );
    let heads = HeadFacts::new();
    assert_eq!(heads.publish(&p, FuncId(0), HEAD, [with_ghost]), 0);
    assert!(heads.is_empty());
    let r = gamble(&p, &heads);
    assert_ne!(status(&r), &AssertionStatus::Safe, "{:?}", r.attempts);
    assert!(region_attempt(&r).proved.is_empty());
}

#[test]
fn a_condition_over_a_local_the_region_does_not_havoc_is_not_assumed() {
    let p = program();
    // True at the head (`c == c`), but `c` holds 0 in the region, not its value in the run.
    let with_c = Expr::binary(
        BinOp::And,
        x_eq_y(),
        Expr::binary(BinOp::Eq, Expr::local(LocalId(2)), Expr::local(LocalId(2))),
    );
    let heads = HeadFacts::new();
    assert_eq!(heads.publish(&p, FuncId(0), HEAD, [with_c]), 1);
    let r = gamble(&p, &heads);
    assert_region_without_invariants(&r);
}

/// The region attempt of `r` proved nothing and assumed no loop invariant.
fn assert_region_without_invariants(r: &GambleResult) {
    let region = region_attempt(r);
    assert!(region.proved.is_empty(), "{region:?}");
    let facts = region.facts.as_deref().unwrap_or("");
    assert!(!facts.contains("loop invariants"), "{region:?}");
}
