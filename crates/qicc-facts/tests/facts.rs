//! Facts on small IR programs: what the analysis must find, and what it must not claim.

use qicc_facts::Facts;
use qicc_ir::{parse_program, print::expr_str, verify_program, Loc, Program};

fn program(text: &str) -> Program {
    let p = parse_program(text).expect("parses");
    verify_program(&p).expect("well-formed");
    p
}

fn fact_at(p: &Program, func: &str, loc: u32) -> String {
    let fid = p.find_function(func).expect("function");
    let f = p.function(fid);
    let vars: Vec<_> = (0..f.locals.len() as u32)
        .map(|i| qicc_ir::VarRef::Local(qicc_ir::LocalId(i)))
        .collect();
    match Facts::analyze(p).condition(p, fid, Loc(loc), &vars) {
        Some(e) => expr_str(p, Some(f), &e),
        None => "-".into(),
    }
}

/// Listing 2 of the Qicc abstract: n arbitrary, x = 1, `while (n < 1000) { assert(x == 1); n += x; }`.
const X_STAYS_ONE: &str = "data-model ilp32
assertion #0 verifier_assert in @main
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %n: i32
  local %x: i32
  locs 8 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %n nondet \"__VERIFIER_nondet_int\"
  L4 -> L5: %x := 1:i32
  L5 -> L6: assume slt(%n, 1000:i32)
  L5 -> L1: assume not(slt(%n, 1000:i32))
  L6 -> L2: error #0
  L6 -> L7: assume eq(%x, 1:i32)
  L7 -> L5: %n := add(%n, %x)
}
";

#[test]
fn constant_through_a_loop() {
    let p = program(X_STAYS_ONE);
    // At the loop head x is 1 (n may start anywhere); in the body n < 1000.
    assert_eq!(
        fact_at(&p, "main", 5),
        "and(eq(%ret, 0:i32), eq(%x, 1:i32))"
    );
    assert_eq!(
        fact_at(&p, "main", 6),
        "and(and(eq(%ret, 0:i32), sle(%n, 999:i32)), eq(%x, 1:i32))"
    );
}

/// for (i = 0; i < 10; i++) ;  — i stays in [0, 10] at the head (widening, then narrowing).
const COUNT: &str = "data-model ilp32
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %i: i32
  local %s: i8
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32
  L4 -> L5: assume slt(%i, 10:i32)
  L4 -> L6: assume not(slt(%i, 10:i32))
  L5 -> L4: %i := add(%i, 1:i32)
  L6 -> L1: %ret := %i
}
";

#[test]
fn loop_counter_interval() {
    let p = program(COUNT);
    assert_eq!(
        fact_at(&p, "main", 4),
        "and(and(and(eq(%ret, 0:i32), sle(0:i32, %i)), sle(%i, 10:i32)), eq(%s, 0:i8))"
    );
    assert_eq!(
        fact_at(&p, "main", 6),
        "and(and(eq(%ret, 0:i32), eq(%i, 10:i32)), eq(%s, 0:i8))"
    );
}

/// Wrap-around: u8 counting up from 250 by 3 must not claim u >= 250 after the add.
const WRAP: &str = "data-model ilp32
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %u: i8
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %u nondet \"__VERIFIER_nondet_uchar\"
  L4 -> L5: assume ule(250:i8, %u)
  L5 -> L1: %u := add(%u, 3:i8)
}
";

#[test]
fn wraparound_gives_up_instead_of_lying() {
    let p = program(WRAP);
    assert_eq!(
        fact_at(&p, "main", 5),
        "and(and(eq(%ret, 0:i32), sle(-6:i8, %u)), sle(%u, -1:i8))"
    );
    // After u += 3 the unsigned value may have wrapped to 0..2, so no unsigned bound may be
    // claimed; the signed view did not wrap: -6..-1 + 3 = -3..2 (253, 254, 255, 0, 1, 2).
    assert_eq!(
        fact_at(&p, "main", 1),
        "and(and(eq(%ret, 0:i32), sle(-3:i8, %u)), sle(%u, 2:i8))"
    );
}

/// An assumption that contradicts the state makes the location unreachable.
const DEAD: &str = "data-model ilp32
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %x: i32
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := 5:i32
  L4 -> L5: assume slt(%x, 3:i32)
  L5 -> L1: skip
}
";

#[test]
fn contradiction_is_unreachable() {
    let p = program(DEAD);
    assert_eq!(fact_at(&p, "main", 5), "false");
}

/// Interprocedural: the lock typestate of `lock_alternation.c` (Corral's Houdini example):
/// `acquire` is only ever entered with s == 0 and `release` with s == 1.
const LOCK: &str = "data-model ilp32
global $s: i32 = 0:i32
assertion #0 verifier_assert in @acquire
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %c: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %c nondet \"__VERIFIER_nondet_int\"
  L4 -> L5: assume ne(%c, 0:i32)
  L4 -> L1: assume eq(%c, 0:i32)
  L5 -> L6: call @acquire()
  L6 -> L0: call @release()
}
fn @acquire() {
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq($s, 0:i32)
  L0 -> L5: assume ne($s, 0:i32)
  L5 -> L2: error #0
  L4 -> L1: $s := 1:i32
}
fn @release() {
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: $s := 0:i32
}
";

#[test]
fn interprocedural_entry_facts() {
    let p = program(LOCK);
    let facts = Facts::analyze(&p);
    let s = [qicc_ir::VarRef::Global(qicc_ir::GlobalId(0))];
    let at = |f: &str, l: u32| {
        let fid = p.find_function(f).expect("function");
        facts
            .condition(&p, fid, Loc(l), &s)
            .map(|e| expr_str(&p, None, &e))
            .unwrap_or_else(|| "-".into())
    };
    assert_eq!(at("acquire", 0), "eq($s, 0:i32)");
    assert_eq!(at("release", 0), "eq($s, 1:i32)");
    assert_eq!(at("main", 0), "eq($s, 0:i32)");
    // The error location of acquire is unreachable.
    assert_eq!(at("acquire", 5), "false");
}
