//! Readable traces: text and JSON of a small run with inputs, stores, a call and an error.

mod common;

use common::*;
use qicc_interp::{run, trace, InputOracle, RunConfig};
use qicc_ir::Program;

const PROGRAM: &str = r#"qicc-ir 1
data-model ilp32
file 0 "t.c"
object @a size 40 zeroed !0:3:5
assertion #0 verifier_assert in @main !0:12:3 "a[k] != 9"
entry @main

fn @main() -> %ret !0:6:1 {
  local %ret: i32
  local %k: i32
  local %tmp.1: i32
  local %x.2: i32
  local %tmp.3: i8
  local %u: i32
  locs 14 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %k nondet "__VERIFIER_nondet_int" !0:7:11
  L4 -> L5: assume ult(%k, 10:i32) !0:8:3
  L5 -> L6: store.i32 add(@a, mul(%k, 4:i32)), 9:i32 !0:9:3
  L6 -> L7: %tmp.1 := call @f(%k, -4:i32) !0:10:11
  L7 -> L8: %x.2 := %tmp.1 !0:10:3
  L8 -> L9: havoc %tmp.3 nondet "__VERIFIER_nondet_uchar" !0:11:3
  L9 -> L10: store.i8 @a, %tmp.3 !0:11:3
  L10 -> L11: havoc %u uninit !0:5:3
  L11 -> L12: skip
  L12 -> L13: assume eq(load.i32(add(@a, mul(%k, 4:i32))), 9:i32) !0:12:3
  L13 -> L2: error #0 !0:12:3
  L12 -> L1: assume not(eq(load.i32(add(@a, mul(%k, 4:i32))), 9:i32)) !0:12:3
}

fn @f(%a, %b) -> %r !0:1:1 {
  local %a: i32
  local %b: i32
  local %r: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %b := mul(%b, %b) !0:2:3
  L4 -> L1: %r := add(%a, %b) !0:3:3
}
"#;

fn example() -> (Program, qicc_interp::Run) {
    let p = prog(PROGRAM);
    let r = run(&p, &mut InputOracle::new(vec![3, 200], 0), &config());
    (p, r)
}

#[test]
fn trace_text_reads_like_a_counterexample() {
    let (p, r) = example();
    insta::assert_snapshot!(trace(&p, &r).to_text());
}

#[test]
fn trace_json_has_steps_inputs_and_outcome() {
    let (p, r) = example();
    let t = trace(&p, &r);
    let json = serde_json::to_value(&t).expect("serialises");
    let kinds: Vec<&str> = json["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| s["kind"].as_str().expect("kind"))
        .collect();
    assert_eq!(
        kinds,
        [
            "input", "assume", "store", "call", "assign", "return", "assign", "input", "store",
            "assign", "assume", "error"
        ]
    );
    assert_eq!(
        json["steps"][0]["text"],
        "k = 3  (input #1: __VERIFIER_nondet_int)"
    );
    assert_eq!(json["steps"][0]["line"], 7);
    assert_eq!(json["steps"][0]["file"], "t.c");
    assert_eq!(json["steps"][2]["text"], "*(a + 12) = 9");
    assert_eq!(json["steps"][3]["text"], "call f(3, -4)");
    assert_eq!(json["steps"][5]["value"], "19");
    assert_eq!(
        json["steps"][6]["text"], "x = 19",
        "x.2 shows as x; tmp.1 is hidden"
    );
    assert_eq!(
        json["inputs"][1]["value"], "200",
        "an unsigned char input is unsigned"
    );
    assert_eq!(json["inputs"][1]["function"], "__VERIFIER_nondet_uchar");
    assert_eq!(json["inputs"][1]["index"], 2);
    insta::assert_snapshot!(serde_json::to_string_pretty(&json).expect("prints"));
}

#[test]
fn a_run_without_recorded_steps_is_replayed_for_its_trace() {
    let (p, recorded) = example();
    let quiet = run(
        &p,
        &mut InputOracle::new(vec![3, 200], 0),
        &RunConfig::default(),
    );
    assert!(quiet.steps.is_empty());
    assert_eq!(trace(&p, &quiet), trace(&p, &recorded));
}

const FLOATS: &str = r#"data-model ilp32
entry @main

fn @main() -> %r {
  local %r: i32
  local %x: f32
  local %y: f64
  local %z: f64
  locs 8 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %x nondet "__VERIFIER_nondet_float"
  L4 -> L5: %y := fconv.rne.f64(fmul.rne(%x, -0.0:f32))
  L5 -> L6: %z := fdiv.rne(1.0:f64, %y)
  L6 -> L7: %y := fsub.rne(%z, %z)
  L7 -> L1: %r := fptosi.i32(%x)
}
"#;

#[test]
fn traces_show_floats_readably_with_their_bits() {
    let p = prog(FLOATS);
    let r = run(
        &p,
        &mut InputOracle::new(vec![1.5f32.to_bits() as u64], 0),
        &config(),
    );
    let text = trace(&p, &r).to_text();
    for want in [
        "x = 1.5 (0x3fc00000)",
        "y = -0.0 (0x8000000000000000)",
        "z = -inf (0xfff0000000000000)",
        "y = nan (0x7ff8000000000000)",
    ] {
        assert!(text.contains(want), "{want} missing from\n{text}");
    }
}
