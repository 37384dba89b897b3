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
        // A run reaching L4 would block there: a function lowered without its way out.
        (
            "  L0 -> L4: skip\n",
            "L4 is reachable from entry but has no outgoing edge",
        ),
        ("", "L0 is reachable from entry but has no outgoing edge"),
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

const FLOATS: &str = r#"qicc-ir 1
data-model lp64
entry @main

fn @main() -> %ret {
  local %ret: i32
  local %x: f32
  local %y: f64
  local %b: bool
  local %i: i64
  locs 12 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := fadd.rne(1.5:f32, fmul.rtz(-0.0:f32, inf:f32))
  L4 -> L5: %y := fconv.rtp.f64(fdiv.rna(fsub.rtn(%x, 1e-45:f32), fsqrt.rne(ffma.rtp(%x, %x, 0.1:f32))))
  L5 -> L6: %y := fmin(fmax(%y, -inf:f64), fmod(nan:f64, frint.rtz(%y)))
  L6 -> L7: %b := and(fne(%x, %x), or(feq(%y, %y), or(flt(%y, 2.5e300:f64), fle(fneg(%y), fabs(%y)))))
  L7 -> L8: %b := or(fisnan(%x), or(fisinf(%y), or(fiszero(%x), or(fisnormal(%y), or(fissubnormal(%x), fsignbit(%y))))))
  L8 -> L9: %x := ite(%b, sitofp.rne.f32(%i), uitofp.rtz.f32(trunc.i8(%i)))
  L9 -> L10: %ret := add(fptosi.i32(%x), fptobits(bitstofp(0x7fc00001:i32)))
  L10 -> L11: %i := add(fptoui.i64(%y), fptobits(0xfff0000000000001:f64))
  L11 -> L1: %y := fconv.rne.f64(0x7fc00001:f32)
}
"#;

#[test]
fn floats_parse_verify_and_round_trip() {
    let p = parse_program(FLOATS).expect("parses");
    verify_program(&p).expect("well-formed");
    let printed = print_program(&p);
    let again = parse_program(&printed).expect("printed text parses");
    assert_eq!(p, again);
    assert_eq!(printed, print_program(&again));
    // Constants read as intended: decimals, inf, the default NaN, raw NaN bits.
    assert!(printed.contains("fadd.rne(1.5:f32, fmul.rtz(-0.0:f32, inf:f32))"));
    assert!(printed.contains("fmod(nan:f64,"));
    assert!(printed.contains("0x7fc00001:f32"));
    assert!(printed.contains("fconv.rtp.f64("));
    assert!(printed.contains("fptosi.i32(%x)"));
}

#[test]
fn float_constants_round_trip_exactly() {
    // Every class of bits, through print and parse.
    let mut cases: Vec<(Ty, u64)> = vec![];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20000 {
        // xorshift: a deterministic spread over all bit patterns.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        cases.push((Ty::F64, seed));
        cases.push((Ty::F32, seed >> 32));
    }
    for special in [
        0u64,
        1,
        0x8000_0000,
        0x7f80_0000,
        0xff80_0000,
        0x7fc0_0000,
        0x7f7f_ffff,
    ] {
        cases.push((Ty::F32, special));
    }
    let mut body = String::new();
    for (ty, v) in &cases {
        let line = format!(
            "  L0 -> L1: %{} := fptobits({})\n",
            if *ty == Ty::F32 { "a" } else { "b" },
            expr_str(&Program::new(DataModel::Lp64), None, &Expr::konst(*ty, *v))
        );
        body.push_str(&line);
    }
    let text = format!(
        "data-model lp64\nentry @main\nfn @main() {{\n  local %a: i32\n  local %b: i64\n  locs 4 entry L0 exit L1 err L2 halt L3\n{body}}}\n"
    );
    let p = parse_program(&text).expect("parses");
    verify_program(&p).expect("well-formed");
    let f = &p.functions[0];
    let got: Vec<u64> = f
        .edges
        .iter()
        .filter_map(|e| match &e.op {
            Op::Assign(_, Expr::Fp(FpOp::ToBits, args)) => args[0].as_const(),
            _ => None,
        })
        .collect();
    let want: Vec<u64> = cases.iter().map(|(_, v)| *v).collect();
    assert_eq!(got, want);
}

#[test]
fn checker_rejects_ill_typed_float_ops() {
    let head = "data-model lp64\nentry @main\nfn @main() {\n  local %x: f32\n  local %y: f64\n  local %i: i32\n  local %b: bool\n  locs 6 entry L0 exit L1 err L2 halt L3\n";
    let cases = [
        ("  L0 -> L1: %x := fadd.rne(%x, %y)\n", "different types"),
        ("  L0 -> L1: %x := add(%x, %x)\n", "of floats"),
        ("  L0 -> L1: %b := eq(%x, %x)\n", "of floats"),
        ("  L0 -> L1: %x := fadd.rne(%i, %i)\n", "fadd.rne of i32"),
        ("  L0 -> L1: %x := bitstofp(%b)\n", "bitstofp of bool"),
        ("  L0 -> L1: %i := fptosi.i32(%i)\n", "fptosi.i32 of i32"),
        ("  L0 -> L1: %x := neg(%x)\n", "int operator on a float"),
        ("  L0 -> L1: %x := %y\n", "assigns"),
    ];
    for (edge, want) in cases {
        let p = parse_program(&format!("{head}{edge}}}\n")).expect("parses");
        let errs = verify_program(&p).expect_err("must be rejected");
        assert!(
            errs.iter().any(|e| e.contains(want)),
            "{edge}: {errs:?} lacks {want}"
        );
    }
    for bad in [
        "  L0 -> L1: %x := fadd(%x, %x)\n",
        "  L0 -> L1: %x := fadd.rne(%x)\n",
        "  L0 -> L1: %x := fneg(1:f32)\n",
        "  L0 -> L1: %y := fconv.rne.f16(%x)\n",
    ] {
        assert!(parse_program(&format!("{head}{bad}}}\n")).is_err(), "{bad}");
    }
}
