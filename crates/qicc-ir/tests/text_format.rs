//! The text format reads back what it writes, and the checker rejects what it should.

use qicc_ir::*;

const SAMPLE: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "t.c"
object @a size 400 zeroed !0:3:5
object @str.0 size 6 readonly zeroed bytes 0 "hi\x00\n\"\\"
object @p size 4 zeroed value 0 add(@a, 8:i32)
global $g: i32 = -1:i32 !0:4:5
global $h: i8
assertion #0 verifier_assert in @main !0:9:3 "x < 10"
assertion #1 div-by-zero in @main !0:10:9
entry @main

fn @main() -> %ret !0:5:1 {
  local %ret: i32
  local %x: i32
  local %p: i32
  local %b: bool
  locs 12 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %x nondet "__VERIFIER_nondet_int" !0:6:7
  L4 -> L5: assume slt(%x, 10:i32) !0:7:10
  L4 -> L3: halt(zext.i32(trunc.i8(%x)))
  L5 -> L6: store.i32 add(@a, mul(%x, 4:i32)), %x
  L6 -> L7: %p := alloc.heap(40:i32)
  L7 -> L8: memset(%p, 0:i8, 40:i32)
  L8 -> L9: memcpy(%p, @a, 8:i32)
  L9 -> L10: free(%p)
  L10 -> L11: %b := and(valid.4(@a), not(eq(load.i32(@a), $g)))
  L11 -> L2: error #0 !0:9:3
  L11 -> L2: error #1
  L11 -> L1: %ret := call @f(ite(%b, sdiv(%x, 2:i32), neg(%x)))
  L5 -> L1: havoc_memory
}

fn @f(%n) -> %r {
  local %n: i32
  local %r: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %r extern "foo"
  L4 -> L1: %r := sext.i32(trunc.i16(ashr(%n, 1:i32)))
  L0 -> L3: halt
}
"#;

#[test]
fn sample_parses_verifies_and_round_trips() {
    let p = parse_program(SAMPLE).expect("parses");
    verify_program(&p).expect("well-formed");
    let printed = print_program(&p);
    let again = parse_program(&printed).expect("printed text parses");
    assert_eq!(p, again);
    assert_eq!(printed, print_program(&again));
    assert_eq!(p.functions.len(), 2);
    assert_eq!(
        p.objects[1].init,
        vec![InitItem::Bytes {
            offset: 0,
            bytes: b"hi\0\n\"\\".to_vec()
        }]
    );
    assert_eq!(p.globals[0].init, Some(Expr::int(32, 0xffff_ffff)));
    assert_eq!(p.functions[1].params, vec![LocalId(0)]);
}

fn errors_of(text: &str) -> Vec<String> {
    let p = parse_program(text).expect("parses");
    verify_program(&p).expect_err("must be rejected")
}

#[test]
fn checker_rejects_ill_formed_programs() {
    let head = "data-model lp64\nentry @main\nfn @main() {\n  local %x: i32\n  local %y: i64\n  locs 6 entry L0 exit L1 err L2 halt L3\n";
    let cases = [
        ("  L0 -> L1: %x := %y\n", "assigns"),
        ("  L0 -> L1: assume %x\n", "not a bool"),
        ("  L0 -> L2: skip\n", "only error edges"),
        ("  L0 -> L1: error #0\n", "only error edges"),
        ("  L1 -> L4: skip\n", "leaves a final location"),
        ("  L0 -> L9: skip\n", "out of range"),
        ("  L0 -> L1: %x := add(%x, %y)\n", "add of i32 and i64"),
        ("  L0 -> L1: store.i32 %x, %x\n", "ill-typed store"),
        ("  L0 -> L1: %x := zext.i8(%x)\n", "zext.i8 of i32"),
    ];
    for (edge, want) in cases {
        let errs = errors_of(&format!("{head}{edge}}}\n"));
        assert!(
            errs.iter().any(|e| e.contains(want)),
            "{edge:?}: expected '{want}' in {errs:?}"
        );
    }
}

#[test]
fn parse_errors_name_the_line() {
    let err = parse_program("data-model ilp32\nfn @main() {\n  L0 -> L1: frob %x\n}\n")
        .expect_err("bad op");
    assert_eq!(err.line, 3);
    let err =
        parse_program("data-model ilp32\nfn @main() {\n  L0 -> L1: skip\n").expect_err("no brace");
    assert!(err.msg.contains("missing '}'"));
    let err = parse_program("data-model xx\n").expect_err("bad model");
    assert!(err.msg.contains("unknown data model"));
}
