mod common;
use common::*;

#[test]
fn overflow_wraps() {
    let text = r#"qicc-ir 1
data-model ilp32
assertion #0 verifier_assert in @main
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %x: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := add(2147483647:i32, 1:i32)
  L4 -> L5: assume eq(%x, -2147483648:i32)
  L4 -> L6: assume ne(%x, -2147483648:i32)
  L6 -> L2: error #0
  L5 -> L1: skip
}
"#;
    let r = expect(text, Verdict::True);
    assert_eq!(stat(r.stats.solver_calls), 0);
}

#[test]
fn nondet_violation() {
    let text = r#"qicc-ir 1
data-model ilp32
assertion #0 verifier_assert in @main
entry @main
fn @main() -> %ret {
  local %ret: i32
  local %x: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %x nondet "__VERIFIER_nondet_int"
  L4 -> L5: assume slt(add(%x, 1:i32), %x)
  L4 -> L6: assume not(slt(add(%x, 1:i32), %x))
  L5 -> L2: error #0
  L6 -> L1: skip
}
"#;
    let r = expect(text, Verdict::False);
    let w = &r.violation.as_ref().unwrap().1;
    assert_eq!(w.havocs, vec![0x7fff_ffff]);
}
