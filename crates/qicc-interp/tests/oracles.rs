//! Oracles: the fixed random generator, program inputs, witnesses and exact replay.

mod common;

use common::*;
use proptest::prelude::*;
use qicc_interp::{replay, run, Interpreter, Oracle, Outcome, RandomOracle, RunConfig, SplitMix64};
use qicc_ir::{EdgeId, FuncId, Program, Witness};

#[test]
fn generator_matches_independently_computed_values() {
    // Expected values computed once with a separate Python implementation of the spec:
    //   state += 0x9E3779B97F4A7C15; z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
    //   z = (z ^ (z >> 27)) * 0x94D049BB133111EB; return z ^ (z >> 31)   (all mod 2^64)
    // and value(): r = next(); v = next(); r % 8 < 4: (v % 33) - 16; < 6: EDGE[v % 12]; else v.
    let mut g = SplitMix64::new(0);
    assert_eq!(g.next_u64(), 0xe220_a839_7b1d_cdaf);
    assert_eq!(g.next_u64(), 0x6e78_9e6a_a1b9_65f4);
    assert_eq!(g.next_u64(), 0x06c4_5d18_8009_454f);
    let mut g = SplitMix64::new(42);
    let values: Vec<u64> = (0..8).map(|_| g.value()).collect();
    assert_eq!(
        values,
        vec![
            0x8000,
            (-4i64) as u64,
            (-7i64) as u64,
            0xffff,
            2,
            0x7e34_8a0e_4516_50be,
            0x851f_9773_47ed_6db7,
            2
        ]
    );
    let mut g = SplitMix64::new(7);
    assert_eq!(g.value(), 0x044c_3cd7_f43c_661c);
    assert_eq!(g.value(), (-16i64) as u64);
}

#[test]
fn random_oracle_uses_two_streams() {
    // The second stream is seeded with seed ^ 0x5555555555555555; for seed 42 its values
    // (same Python computation) start 0x7fff, -15, 14.
    let mut o = RandomOracle::new(42);
    assert_eq!(o.uninit_byte(0), 0xff);
    assert_eq!(o.uninit_byte(1), 0xf1);
    assert_eq!(
        o.choose(FuncId(0), &[EdgeId(0), EdgeId(1), EdgeId(2)]),
        14 % 3
    );

    // Nondet havocs take the first stream, whatever else the run asks for.
    let p = prog(
        "data-model lp64\nentry @main\nfn @main() -> %r {\n  local %r: i64\n  local %u: i64\n  local %c: i8\n\
         locs 7 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: havoc %u uninit\n\
         L4 -> L5: havoc %r nondet \"__VERIFIER_nondet_long\"\n  L5 -> L6: havoc %c nondet \"__VERIFIER_nondet_char\"\n\
         L6 -> L1: %r := add(%r, sext.i64(%c))\n}\n",
    );
    let r = run_seed(&p, 42);
    assert_eq!(r.witness.havocs, vec![0x7fff, 0x8000, 0xfc]);
    assert_eq!(returned(&r), 0x8000 - 4);
}

const INPUTS: &str = "data-model lp64\nentry @main\nfn @main() -> %r {\n  local %r: i64\n  local %a: i64\n  local %b: i32\n\
    locs 7 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: havoc %a nondet \"__VERIFIER_nondet_long\"\n\
    L4 -> L5: havoc %b nondet \"__VERIFIER_nondet_int\"\n  L5 -> L6: havoc %r nondet \"__VERIFIER_nondet_long\"\n\
    L6 -> L1: %r := add(%r, add(%a, sext.i64(%b)))\n}\n";

#[test]
fn input_oracle_takes_inputs_then_falls_back() {
    let p = prog(INPUTS);
    let r = run(
        &p,
        &mut qicc_interp::InputOracle::new(vec![100, 0x1_0000_0001], 42),
        &config(),
    );
    // The i32 input keeps its low bits; the third comes from the fallback's input stream.
    assert_eq!(r.witness.havocs, vec![100, 1, 0x8000]);
    assert_eq!(returned(&r), 100 + 1 + 0x8000);
}

#[test]
fn witness_oracle_is_strict_about_sequences_and_lenient_about_bytes() {
    let p = prog(INPUTS);
    let short = Witness {
        havocs: vec![1, 2],
        ..Witness::default()
    };
    let r = replay(&p, &short, &RunConfig::default());
    assert!(unreplayable(&r).contains("havoc values"));
    assert_eq!(
        r.witness.havocs,
        vec![1, 2],
        "the failed answer is not recorded"
    );

    let bytes = prog(
        "data-model ilp32\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  local %p: i32\n\
         locs 5 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %p := alloc.heap(4:i32)\n  L4 -> L1: %r := load.i32(%p)\n}\n",
    );
    let w = Witness {
        alloc_ids: vec![1],
        uninit: [(1u64 << 24, 7u8)].into_iter().collect(),
        ..Witness::default()
    };
    let r = replay(&bytes, &w, &RunConfig::default());
    assert_eq!(returned(&r), 7, "unlisted bytes read as 0");
}

/// A program with inputs, a loop, nondeterministic choices, allocation, out-of-bounds and
/// uninitialised reads, memcpy, a call and an assertion.
const KITCHEN: &str = r#"data-model ilp32
object @a size 16 zeroed
global $g: i32
assertion #0 verifier_assert in @main
entry @main
fn @main() -> %r {
  local %r: i32
  local %n: i32
  local %i: i32
  local %p: i32
  local %x: i32
  locs 16 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %n nondet "__VERIFIER_nondet_int"
  L4 -> L5: %n := and(%n, 7:i32)
  L5 -> L6: %p := alloc.heap(mul(%n, 4:i32))
  L6 -> L7: %i := 0:i32
  L7 -> L8: assume slt(%i, %n)
  L8 -> L9: havoc %x nondet "__VERIFIER_nondet_int"
  L9 -> L10: store.i32 add(%p, mul(%i, 4:i32)), %x
  L9 -> L10: skip
  L10 -> L7: %i := add(%i, 1:i32)
  L7 -> L11: assume not(slt(%i, %n))
  L11 -> L12: memcpy(@a, %p, 16:i32)
  L12 -> L13: %r := call @sum(@a, 4:i32)
  L13 -> L14: %r := add(%r, and($g, 1:i32))
  L14 -> L2: error #0
  L14 -> L15: assume ne(and(%r, 3:i32), 0:i32)
  L15 -> L1: free(%p)
}
fn @sum(%q, %k) -> %s {
  local %q: i32
  local %k: i32
  local %s: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume sle(%k, 0:i32)
  L4 -> L1: %s := 0:i32
  L0 -> L5: assume slt(0:i32, %k)
  L5 -> L6: %s := call @sum(add(%q, 4:i32), sub(%k, 1:i32))
  L6 -> L1: %s := add(%s, load.i32(%q))
}
"#;

fn kitchen() -> Program {
    prog(KITCHEN)
}

fn programs() -> Vec<Program> {
    let fact_nondet = r#"data-model ilp32
entry @main
fn @main() -> %r {
  local %r: i32
  local %n: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %n nondet "__VERIFIER_nondet_uint"
  L4 -> L1: %r := call @fact(and(%n, 15:i32))
}
fn @fact(%n) -> %r {
  local %n: i32
  local %r: i32
  local %t: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume sle(%n, 1:i32)
  L4 -> L1: %r := 1:i32
  L0 -> L5: assume not(sle(%n, 1:i32))
  L5 -> L6: %t := call @fact(sub(%n, 1:i32))
  L6 -> L1: %r := mul(%n, %t)
}
"#;
    let region = r#"data-model lp64
object @a size 8 bytes 0 "ab"
entry @main
fn @main(%k) -> %r {
  local %k: i64
  local %r: i64
  local %q: i64
  locs 8 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %q := alloc.stack(8:i64)
  L4 -> L5: store.i16 %q, trunc.i16(%k)
  L5 -> L6: havoc_memory
  L5 -> L6: memset(@a, trunc.i8(%k), 3:i64)
  L6 -> L7: havoc %r region
  L7 -> L1: %r := add(%r, add(load.i64(@a), load.i64(%q)))
  L7 -> L3: halt(load.i8(%q))
}
"#;
    vec![kitchen(), prog(fact_nondet), prog(region)]
}

#[test]
fn the_kitchen_sink_reaches_every_outcome_class() {
    let p = kitchen();
    let mut errors = 0;
    let mut returns = 0;
    let (mut choices, mut uninit, mut allocs) = (false, false, false);
    for seed in 0..200 {
        let r = run_seed(&p, seed);
        choices |= !r.witness.choices.is_empty();
        uninit |= !r.witness.uninit.is_empty();
        allocs |= !r.witness.alloc_ids.is_empty();
        match r.outcome {
            Outcome::ErrorReached { .. } => errors += 1,
            Outcome::Returned { .. } => returns += 1,
            Outcome::Blocked { .. } => {}
            other => panic!("seed {seed}: {other:?}"),
        }
    }
    assert!(
        errors > 0 && returns > 0,
        "errors {errors}, returns {returns}"
    );
    // So the replay property below covers every kind of oracle answer.
    assert!(choices && uninit && allocs);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Replaying a run's witness gives the identical run: outcome, witness, every step.
    #[test]
    fn replay_reproduces_random_runs(seed in any::<u64>()) {
        for p in programs() {
            let interp = Interpreter::new(&p).expect("well-formed");
            let first = interp.run(&mut RandomOracle::new(seed), &config());
            let again = interp.replay(&first.witness, &config());
            prop_assert_eq!(&first, &again);
            // Without a trace, the same outcome and witness.
            let quiet = interp.replay(&first.witness, &RunConfig::default());
            prop_assert_eq!(&quiet.outcome, &first.outcome);
            prop_assert_eq!(&quiet.witness, &first.witness);
            prop_assert_eq!(quiet.step_count, first.step_count);
            prop_assert!(quiet.steps.is_empty());
        }
    }
}

#[test]
fn witnesses_serialise() {
    let p = kitchen();
    let r = run_seed(&p, 9);
    let json = serde_json::to_string(&r.witness).expect("serialises");
    let back: Witness = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, r.witness);
    assert_eq!(replay(&p, &back, &config()), r);
}
