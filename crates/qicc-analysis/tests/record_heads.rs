//! `record_at_heads`: which head visits a run of the recording program observes, with and
//! without sampling.

mod common;

use qicc_analysis::{add_ghosts, record_at_heads};
use qicc_interp::{Interpreter, RandomOracle, RunConfig};
use qicc_ir::{BinOp, Expr, LocalId};

/// `i` counts from 0 to 1000; the head is visited 1001 times, the last one on the way out.
const COUNT: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "count.c"
entry @main

fn @main() -> %ret !0:1:1 {
  local %ret: i32
  local %i: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32 !0:2:3
  L4 -> L5: assume slt(%i, 1000:i32) !0:3:10
  L4 -> L6: assume not(slt(%i, 1000:i32)) !0:3:10
  L5 -> L4: %i := add(%i, 1:i32) !0:3:22
  L6 -> L1: %ret := 0:i32 !0:4:3
}
"#;

/// Which of `conds` (conditions at the loop's head) a run of the recording program refutes.
fn refuted(conds: &[Expr], sample: Option<u32>) -> Vec<bool> {
    let prep = add_ghosts(&common::program(COUNT));
    assert_eq!(prep.loops.len(), 1, "one loop");
    let (program, flags) = record_at_heads(&prep, &[conds.to_vec()], sample);
    let interp = Interpreter::new(&program).expect("the recording program runs");
    let (_, globals) = interp.run_with_globals(&mut RandomOracle::new(0), &RunConfig::default());
    flags
        .iter()
        .map(|&(g, _, _)| globals[g.index()] != 0)
        .collect()
}

fn i_cmp(op: BinOp, c: u64) -> Expr {
    Expr::binary(op, Expr::local(LocalId(1)), Expr::int(32, c))
}

#[test]
fn every_visit_is_recorded_without_sampling() {
    let conds = [
        i_cmp(BinOp::Ne, 500),   // false at visit 501 only
        i_cmp(BinOp::Slt, 1000), // false at the last visit, where the loop exits
        i_cmp(BinOp::Sle, 1000), // an invariant
    ];
    assert_eq!(refuted(&conds, None), [true, true, false]);
}

#[test]
fn sampling_records_the_first_visits_and_the_exit() {
    let conds = [
        i_cmp(BinOp::Ne, 500),   // a visit sampling skips
        i_cmp(BinOp::Slt, 1000), // the exit visit: recorded
        i_cmp(BinOp::Sle, 1000), // an invariant
        i_cmp(BinOp::Ne, 3),     // the fourth visit: among the first four
        i_cmp(BinOp::Ne, 4),     // the fifth: not
    ];
    assert_eq!(refuted(&conds, Some(4)), [false, true, false, true, false]);
}
