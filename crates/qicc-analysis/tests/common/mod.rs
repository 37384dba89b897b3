//! IR programs shared by the tests, written as the front-end would lower small C programs.
#![allow(dead_code)]

use qicc_ir::{parse_program, verify_program, Program};

pub fn program(text: &str) -> Program {
    let p = parse_program(text).unwrap_or_else(|e| panic!("test program does not parse: {e}"));
    if let Err(errs) = verify_program(&p) {
        panic!("test program is ill-formed:\n{}", errs.join("\n"));
    }
    p
}

/// Listing 2 of the Qicc abstract (`x_stays_one.c`), with `__VERIFIER_assert` as a callee.
pub const X_STAYS_ONE: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "x_stays_one.c"
assertion #0 reach_error in @__VERIFIER_assert !0:8:54 "0"
entry @main

fn @__VERIFIER_assert(%cond) !0:8:1 {
  local %cond: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq(%cond, 0:i32) !0:8:40
  L0 -> L1: assume ne(%cond, 0:i32) !0:8:40
  L4 -> L2: error #0 !0:8:54
}

fn @main() -> %ret !0:11:1 {
  local %ret: i32
  local %n: i32
  local %x: i32
  local %tmp.0: i32
  locs 10 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %n nondet "__VERIFIER_nondet_int" !0:12:11
  L4 -> L5: %x := 1:i32 !0:12:42
  L5 -> L6: assume slt(%n, 1000:i32) !0:13:10
  L5 -> L7: assume not(slt(%n, 1000:i32)) !0:13:10
  L6 -> L8: %tmp.0 := ite(eq(%x, 1:i32), 1:i32, 0:i32) !0:14:23
  L8 -> L9: call @__VERIFIER_assert(%tmp.0) !0:14:5
  L9 -> L5: %n := add(%n, %x) !0:15:5
  L7 -> L1: %ret := 0:i32 !0:17:3
}
"#;

/// The CFA of the paper's Fig. 4a: paper location k is `L(k+3)`. r2 (backedge 7 -> 3) holds
/// r1 (backedge 6 -> 4), whose location 5 holds the assertion edge 5 -> l_err.
pub const FIG4: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "fig4.c"
assertion #0 verifier_assert in @f !0:5:5 "j < i"
entry @f

fn @f(%n) !0:1:1 {
  local %n: i32
  local %i: i32
  local %j: i32
  locs 11 entry L0 exit L1 err L2 halt L3
  L0 -> L4: skip !0:1:1
  L4 -> L5: %i := 0:i32 !0:2:8
  L5 -> L6: skip !0:2:3
  L6 -> L7: assume slt(%i, %n) !0:2:19
  L6 -> L1: assume not(slt(%i, %n)) !0:2:19
  L7 -> L8: %j := 0:i32 !0:3:10
  L8 -> L2: error #0 !0:5:5
  L8 -> L9: assume slt(%j, %i) !0:4:7
  L9 -> L7: %j := add(%j, 1:i32) !0:6:7
  L9 -> L10: assume not(slt(%j, %i)) !0:4:7
  L10 -> L6: %i := add(%i, 1:i32) !0:7:5
}
"#;

/// Two loops one after the other in `main`, each asserting something.
pub const SIBLINGS: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "siblings.c"
assertion #0 verifier_assert in @main !0:4:5 "i >= 0"
assertion #1 verifier_assert in @main !0:7:5 "k >= 0"
entry @main

fn @main() !0:1:1 {
  local %i: i32
  local %k: i32
  locs 10 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32 !0:2:3
  L4 -> L5: assume slt(%i, 10:i32) !0:3:10
  L4 -> L6: assume not(slt(%i, 10:i32)) !0:3:10
  L5 -> L2: error #0 !0:4:5
  L5 -> L4: %i := add(%i, 1:i32) !0:4:20
  L6 -> L7: %k := 0:i32 !0:6:3
  L7 -> L8: assume slt(%k, 5:i32) !0:6:10
  L7 -> L1: assume not(slt(%k, 5:i32)) !0:6:10
  L8 -> L9: assume slt(%k, 0:i32) !0:7:5
  L8 -> L7: %k := add(%k, 2:i32) !0:7:20
  L9 -> L2: error #1 !0:7:5
}
"#;

/// `check` (with an assertion) is called from inside a loop of `main`; `count` has its own
/// loop holding a second assertion, and is called from `main`'s body.
pub const CALLEE_LOOP: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "callee.c"
assertion #0 verifier_assert in @check !0:2:3 "v != 7"
assertion #1 verifier_assert in @count !0:6:5 "c < 100"
entry @main

fn @check(%v) !0:1:1 {
  local %v: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq(%v, 7:i32) !0:2:3
  L0 -> L1: assume ne(%v, 7:i32) !0:2:3
  L4 -> L2: error #0 !0:2:3
}

fn @count(%m) -> %c !0:4:1 {
  local %m: i32
  local %c: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %c := 0:i32 !0:5:3
  L4 -> L5: assume slt(%c, %m) !0:5:10
  L4 -> L1: assume not(slt(%c, %m)) !0:5:10
  L5 -> L6: assume sle(100:i32, %c) !0:6:5
  L5 -> L4: %c := add(%c, 1:i32) !0:6:20
  L6 -> L2: error #1 !0:6:5
}

fn @main() !0:9:1 {
  local %i: i32
  local %r: i32
  locs 9 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32 !0:10:3
  L4 -> L5: assume slt(%i, 10:i32) !0:11:10
  L4 -> L6: assume not(slt(%i, 10:i32)) !0:11:10
  L5 -> L7: call @check(%i) !0:12:5
  L7 -> L4: %i := add(%i, 1:i32) !0:13:5
  L6 -> L8: %r := call @count(%i) !0:15:3
  L8 -> L1: skip !0:16:1
}
"#;

/// `helper` is called from two sibling loops of `main`, twice from the first one, and once
/// from `main`'s own body.
pub const MANY_CONTEXTS: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "contexts.c"
assertion #0 verifier_assert in @helper !0:2:3 "x != 3"
entry @main

fn @helper(%x) !0:1:1 {
  local %x: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq(%x, 3:i32) !0:2:3
  L0 -> L1: assume ne(%x, 3:i32) !0:2:3
  L4 -> L2: error #0 !0:2:3
}

fn @main() !0:5:1 {
  local %i: i32
  locs 12 entry L0 exit L1 err L2 halt L3
  L0 -> L4: call @helper(1:i32) !0:6:3
  L4 -> L5: %i := 0:i32 !0:7:3
  L5 -> L6: assume slt(%i, 2:i32) !0:7:10
  L5 -> L8: assume not(slt(%i, 2:i32)) !0:7:10
  L6 -> L7: call @helper(%i) !0:8:5
  L7 -> L11: call @helper(add(%i, 1:i32)) !0:9:5
  L11 -> L5: %i := add(%i, 1:i32) !0:9:20
  L8 -> L9: assume slt(%i, 5:i32) !0:11:10
  L8 -> L1: assume not(slt(%i, 5:i32)) !0:11:10
  L9 -> L10: call @helper(%i) !0:12:5
  L10 -> L8: %i := add(%i, 1:i32) !0:13:5
}
"#;

/// `sum` recurses from inside its own loop and from its body; `main` calls it.
pub const RECURSION: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "rec.c"
assertion #0 verifier_assert in @sum !0:2:3 "n >= 0"
entry @main

fn @sum(%n) -> %r !0:1:1 {
  local %n: i32
  local %r: i32
  local %k: i32
  local %t: i32
  locs 10 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume slt(%n, 0:i32) !0:2:3
  L0 -> L5: assume sle(0:i32, %n) !0:2:3
  L4 -> L2: error #0 !0:2:3
  L5 -> L6: %k := 0:i32 !0:3:3
  L6 -> L7: assume slt(%k, %n) !0:4:10
  L6 -> L8: assume not(slt(%k, %n)) !0:4:10
  L7 -> L9: %t := call @sum(%k) !0:5:5
  L9 -> L6: %k := add(%k, 1:i32) !0:6:5
  L8 -> L1: %r := call @sum(sub(%n, 1:i32)) !0:8:3
}

fn @main() !0:11:1 {
  local %x: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %x nondet "__VERIFIER_nondet_int" !0:12:3
  L4 -> L1: %x := call @sum(%x) !0:13:3
}
"#;

/// An irreducible two-entry cycle (L5 <-> L6, entered at both from L4) next to an ordinary
/// loop at L8, which still gets its region. The assertion in the irreducible cycle is held by
/// the function, the other by the loop.
pub const IRREDUCIBLE: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "irr.c"
assertion #0 verifier_assert in @main !0:5:5 "a"
assertion #1 verifier_assert in @main !0:9:5 "b"
entry @main

fn @main() !0:1:1 {
  local %c: i32
  local %i: i32
  locs 11 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %c nondet "__VERIFIER_nondet_int" !0:2:3
  L4 -> L5: assume eq(%c, 0:i32) !0:3:3
  L4 -> L6: assume ne(%c, 0:i32) !0:3:3
  L5 -> L6: %c := add(%c, 1:i32) !0:4:5
  L6 -> L5: %c := sub(%c, 1:i32) !0:5:5
  L6 -> L7: assume slt(%c, 0:i32) !0:5:5
  L5 -> L2: error #0 !0:5:5
  L7 -> L8: %i := 0:i32 !0:7:3
  L8 -> L9: assume slt(%i, 3:i32) !0:8:10
  L8 -> L1: assume not(slt(%i, 3:i32)) !0:8:10
  L9 -> L2: error #1 !0:9:5
  L9 -> L10: skip !0:9:5
  L10 -> L8: %i := add(%i, 1:i32) !0:10:5
}
"#;
