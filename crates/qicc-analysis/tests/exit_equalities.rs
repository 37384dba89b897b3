//! `cut_loops` states the equality two inequalities imply where a loop exits: a candidate
//! `i <= n` at the head and the exit condition `n <= i` give `i == n` after the exit edge,
//! under the candidate's literal with `CutMode::Literals`.

mod common;

use qicc_analysis::{add_ghosts, cut_loops, CutMode};
use qicc_ir::{print_program, BinOp, Expr, LocalId};

/// `i` counts from 0 to `n`: the head exits under `sle(%n, %i)`.
const COUNT: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "count.c"
entry @main

fn @main() -> %ret !0:1:1 {
  local %ret: i32
  local %i: i32
  local %n: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32 !0:2:3
  L4 -> L5: assume slt(%i, %n) !0:3:10
  L4 -> L6: assume sle(%n, %i) !0:3:10
  L5 -> L4: %i := add(%i, 1:i32) !0:3:22
  L6 -> L1: %ret := 0:i32 !0:4:3
}
"#;

fn cut(cands: Vec<Expr>, mode: CutMode) -> String {
    let prep = add_ghosts(&common::program(COUNT));
    assert_eq!(prep.loops.len(), 1, "one loop");
    print_program(&cut_loops(&prep, &[cands], mode).program)
}

fn le(op: BinOp, a: u32, b: u32) -> Expr {
    Expr::binary(op, Expr::local(LocalId(a)), Expr::local(LocalId(b)))
}

#[test]
fn the_exit_under_the_opposite_inequality_assumes_the_equality() {
    let text = cut(vec![le(BinOp::Sle, 1, 2)], CutMode::Check);
    assert!(text.contains("assume eq(%i, %n)"), "{text}");
    let text = cut(vec![le(BinOp::Sle, 1, 2)], CutMode::Literals);
    assert!(
        text.contains("assume or(not($inv.lit.0.L4.0), eq(%i, %n))"),
        "{text}"
    );
}

#[test]
fn the_bound_the_loop_does_not_change_takes_the_counters_term() {
    // `n := i` after the equality: later reads of `n` are the term of `i` (a no-op on runs).
    let text = cut(vec![le(BinOp::Sle, 1, 2)], CutMode::Check);
    let eq = text.find("assume eq(%i, %n)").expect("the equality");
    let set = text
        .find("%n := %i")
        .unwrap_or_else(|| panic!("n := i: {text}"));
    assert!(eq < set, "the assignment after the equality: {text}");
    // Under a literal: `n` keeps its value where the candidate is off.
    let text = cut(vec![le(BinOp::Sle, 1, 2)], CutMode::Literals);
    assert!(
        text.contains("%n := ite(not($inv.lit.0.L4.0), %n, %i)"),
        "{text}"
    );
}

#[test]
fn no_equality_without_the_matching_candidate() {
    // Unsigned `i <= n` does not meet the signed exit; `n <= i` is the exit itself.
    for c in [le(BinOp::Ule, 1, 2), le(BinOp::Sle, 2, 1)] {
        let text = cut(vec![c], CutMode::Check);
        assert!(!text.contains("eq(%i, %n)"), "{text}");
    }
}
