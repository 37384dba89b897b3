//! The interpreter's meaning of expressions, operations, frames and memory, on IR text.

mod common;

use common::*;
use qicc_interp::{run, Outcome, RandomOracle, RunConfig, StopCheck};
use qicc_ir::{AssertionId, FuncId, Loc, Witness};
use std::collections::BTreeMap;
use std::time::Instant;

/// Base address of object `n` in the ILP32 layout with 8 object bits.
fn base(n: u64) -> u64 {
    n << 24
}

fn eval(ty: &str, expr: &str) -> u64 {
    returned(&run_seed(&expr_program("", ty, expr), 1))
}

#[test]
fn operators_follow_the_shared_semantics() {
    // Spot checks only: semantics.rs has its own tests; these show the interpreter uses it.
    assert_eq!(eval("i32", "sdiv(-7:i32, 2:i32)"), (-3i32) as u32 as u64);
    assert_eq!(eval("i32", "srem(-7:i32, 2:i32)"), (-1i32) as u32 as u64);
    assert_eq!(eval("i32", "udiv(7:i32, 0:i32)"), 0xffff_ffff);
    assert_eq!(eval("i32", "sdiv(-7:i32, 0:i32)"), 1);
    assert_eq!(eval("i8", "ashr(-128:i8, 3:i8)"), 0xf0);
    assert_eq!(eval("i8", "shl(1:i8, 8:i8)"), 0);
    assert_eq!(eval("i64", "sext.i64(-1:i8)"), u64::MAX);
    assert_eq!(eval("i64", "zext.i64(-1:i8)"), 0xff);
    assert_eq!(eval("i8", "trunc.i8(4660:i32)"), 0x34);
    assert_eq!(eval("i32", "add(2147483647:i32, 1:i32)"), 0x8000_0000);
    assert_eq!(eval("i32", "neg(1:i32)"), 0xffff_ffff);
    assert_eq!(eval("i32", "not(0:i32)"), 0xffff_ffff);
    assert_eq!(eval("bool", "slt(-1:i32, 0:i32)"), 1);
    assert_eq!(eval("bool", "ult(-1:i32, 0:i32)"), 0);
    assert_eq!(eval("bool", "and(true, not(false))"), 1);
    assert_eq!(eval("i32", "ite(sle(3:i32, 2:i32), 10:i32, 20:i32)"), 20);
    assert_eq!(
        eval("i16", "xor(255:i16, or(and(12:i16, 10:i16), 256:i16))"),
        0x1f7
    );
}

#[test]
fn float_operators_follow_the_shared_semantics() {
    // Spot checks: qicc_ir::semantics::float has the property tests.
    assert_eq!(
        eval("i32", "fptobits(fadd.rne(1.5:f32, 2.25:f32))"),
        3.75f32.to_bits() as u64
    );
    assert_eq!(
        eval("i64", "fptobits(fdiv.rtp(1.0:f64, 3.0:f64))"),
        (1.0f64 / 3.0).to_bits() + 1
    );
    assert_eq!(eval("bool", "fne(nan:f32, nan:f32)"), 1);
    assert_eq!(eval("bool", "feq(-0.0:f64, 0.0:f64)"), 1);
    assert_eq!(eval("bool", "fsignbit(fadd.rtn(1.0:f32, -1.0:f32))"), 1);
    assert_eq!(eval("i32", "fptosi.i32(-2.9:f64)"), (-2i32) as u32 as u64);
    assert_eq!(eval("i32", "fptosi.i32(nan:f32)"), 0);
    assert_eq!(
        eval("i32", "fptobits(sitofp.rtz.f32(16777217:i32))"),
        16777216f32.to_bits() as u64
    );
    assert_eq!(
        eval(
            "i64",
            "fptobits(fsqrt.rne(bitstofp(0x4010000000000000:i64)))"
        ),
        2f64.to_bits()
    );
    // Float globals start at their constant initialisers.
    let p = expr_program("global $x: f32 = 0.1:f32", "i32", "fptobits($x)");
    assert_eq!(returned(&run_seed(&p, 1)), 0.1f32.to_bits() as u64);
}

const FACT: &str = r#"data-model ilp32
entry @main
fn @main() -> %r {
  local %r: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: %r := call @fact(10:i32)
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

#[test]
fn recursion_keeps_a_frame_per_call() {
    let p = prog(FACT);
    let r = run_seed(&p, 0);
    assert_eq!(returned(&r), 3_628_800);
    // 10 activations of fact: 9 take 3 edges, the last 2; plus main's call edge.
    assert_eq!(r.step_count, 9 * 3 + 2 + 1);
    let max_depth = r.steps.iter().map(|s| s.depth).max();
    assert_eq!(max_depth, Some(10));
    assert!(!r.read_uninit);
}

#[test]
fn call_depth_and_step_limits_stop_the_run() {
    let p = prog(FACT);
    let shallow = RunConfig {
        max_call_depth: 5,
        ..RunConfig::default()
    };
    let r = run(&p, &mut RandomOracle::new(0), &shallow);
    assert!(unreplayable(&r).contains("call depth"));

    let lp = prog("data-model ilp32\nentry @main\nfn @main() {\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L0: skip\n}\n");
    let limited = RunConfig {
        max_steps: 1000,
        ..RunConfig::default()
    };
    let r = run(&lp, &mut RandomOracle::new(0), &limited);
    assert_eq!(r.outcome, Outcome::StepLimit);
    assert_eq!(r.step_count, 1000);

    let late = RunConfig {
        deadline: Some(Instant::now()),
        ..RunConfig::default()
    };
    let r = run(&lp, &mut RandomOracle::new(0), &late);
    assert_eq!(unreplayable(&r), "deadline passed");

    // The stop check is asked every 1024 steps: the run ends at the first ask after it
    // turns true.
    let asked = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
    let stop = {
        let asked = asked.clone();
        StopCheck::new(move || asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst) >= 3)
    };
    let cancelled = RunConfig {
        stop: Some(stop),
        ..RunConfig::default()
    };
    let r = run(&lp, &mut RandomOracle::new(0), &cancelled);
    assert_eq!(unreplayable(&r), "stopped");
    assert_eq!(r.step_count, 3 * 1024);
}

#[test]
fn globals_start_at_init_or_an_uninit_havoc() {
    let p = prog(
        "data-model ilp32\nglobal $g: i32 = 5:i32\nglobal $h: i16\nentry @main\n\
         fn @main() -> %r {\n  local %r: i32\n  locs 5 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: $g := add($g, 1:i32)\n  L4 -> L1: %r := add($g, sext.i32($h))\n}\n",
    );
    let w = Witness {
        havocs: vec![0xffff_fffe], // cut to i16: -2
        ..Witness::default()
    };
    let r = run_witness(&p, &w);
    assert_eq!(returned(&r), 4);
    assert_eq!(r.witness.havocs, vec![0xfffe]);
    assert!(r.read_uninit, "the uninitialised global was read");
}

#[test]
fn entry_parameters_are_havocked_first() {
    let p = prog(
        "data-model ilp32\nentry @main\nfn @main(%a, %b) -> %r {\n  local %a: i32\n  local %b: i8\n\
         local %r: i32\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: %r := sub(%a, zext.i32(%b))\n}\n",
    );
    let w = Witness {
        havocs: vec![100, 0x1_03],
        ..Witness::default()
    };
    assert_eq!(returned(&run_witness(&p, &w)), 97);
}

#[test]
fn havoc_kinds_and_inputs() {
    let p = prog(
        "data-model ilp32\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  local %c: i8\n\
         locs 6 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: havoc %r nondet \"__VERIFIER_nondet_int\"\n\
         L4 -> L5: havoc %c nondet \"__VERIFIER_nondet_char\"\n\
         L5 -> L1: %r := add(%r, sext.i32(%c))\n}\n",
    );
    let r = run_inputs(&p, &[40, 0x1202]);
    assert_eq!(returned(&r), 42);
    assert_eq!(r.witness.havocs, vec![40, 2]);
    assert_eq!(r.steps[0].input, Some(40));
    assert!(
        !r.read_uninit,
        "program inputs are not uninitialised values"
    );
}

#[test]
fn read_uninit_tracks_use_not_declaration() {
    let body = |ops: &str| {
        prog(&format!(
            "data-model ilp32\nobject @a size 4 zeroed\nentry @main\nfn @main() -> %r {{\n  local %r: i32\n  local %x: i32\n  local %p: i32\n\
             locs 8 entry L0 exit L1 err L2 halt L3\n{ops}}}\n"
        ))
    };
    // Declared without initialiser, then assigned: not a use of an uninitialised value.
    let p = body("  L0 -> L4: havoc %x uninit\n  L4 -> L1: %r := 1:i32\n");
    assert!(!run_seed(&p, 3).read_uninit);
    let p = body("  L0 -> L4: havoc %x uninit\n  L4 -> L5: %x := 3:i32\n  L5 -> L1: %r := %x\n");
    assert!(!run_seed(&p, 3).read_uninit);
    let p = body("  L0 -> L4: havoc %x uninit\n  L4 -> L1: %r := %x\n");
    assert!(run_seed(&p, 3).read_uninit);
    // Copying uninitialised bytes is not a use; loading them afterwards is.
    let copy = "  L0 -> L4: %p := alloc.heap(4:i32)\n  L4 -> L5: memcpy(@a, %p, 4:i32)\n";
    let p = body(&format!("{copy}  L5 -> L1: %r := 0:i32\n"));
    assert!(!run_seed(&p, 3).read_uninit);
    let p = body(&format!("{copy}  L5 -> L1: %r := load.i32(@a)\n"));
    assert!(run_seed(&p, 3).read_uninit);
    // An undefined function's result counts even unused.
    let p = body("  L0 -> L4: havoc %x extern \"getchar\"\n  L4 -> L1: %r := 0:i32\n");
    assert!(run_seed(&p, 3).read_uninit);
}

#[test]
fn stores_and_loads_are_little_endian_and_wrap() {
    let decls = "object @a size 4 zeroed\nobject @b size 4 zeroed";
    let p = prog(&format!(
        "data-model ilp32\n{decls}\nentry @main\nfn @main() -> %r {{\n  local %r: i64\n  local %t: i32\n\
         locs 10 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: store.i64 @a, {v}:i64\n\
         L4 -> L5: %t := load.i32(add(@a, 4:i32))\n\
         L5 -> L6: store.i16 -1:i32, 4660:i16\n\
         L6 -> L1: %r := or(or(shl(zext.i64(%t), 32:i64), shl(zext.i64(load.i8(0:i32)), 24:i64)), \
                            or(zext.i64(load.i16(add(@a, 1:i32))), shl(zext.i64(load.i32(@b)), 16:i64)))\n}}\n",
        v = 0x8877_6655_4433_2211u64 as i64
    ));
    let r = run_seed(&p, 0);
    // The i64 store runs past @a's 4 bytes (memory is total); @b is a different object and
    // stays zero; the i16 store at 0xffffffff wraps to address 0 for its high byte.
    let v = returned(&r);
    assert_eq!(v >> 32, 0x8877_6655, "bytes written past the end read back");
    assert_eq!(
        (v >> 24) & 0xff,
        0x12,
        "high byte of the wrapped store at address 0"
    );
    assert_eq!(v & 0xffff, 0x3322, "a load at offset 1 reads bytes 1 and 2");
    assert_eq!((v >> 16) & 0xff, 0, "@b is untouched");
    assert_eq!(r.steps[0].stored, Some((base(1), 8, 0x8877_6655_4433_2211)));
    assert_eq!(r.steps[2].stored, Some((0xffff_ffff, 2, 4660)));
    assert!(
        r.witness.uninit.is_empty(),
        "every byte read was written or zeroed"
    );
}

#[test]
fn static_initialisers_give_bytes_and_addresses() {
    let decls = "object @a size 16 zeroed\nobject @s size 12 zeroed bytes 0 \"hi\" value 4 add(@a, 8:i32) value 8 -2:i16\nobject @e size 2";
    let load = |e: &str, ty: &str| returned(&run_seed(&expr_program(decls, ty, e), 5));
    assert_eq!(
        load("load.i16(@s)", "i16"),
        u16::from_le_bytes(*b"hi") as u64
    );
    assert_eq!(load("load.i32(add(@s, 4:i32))", "i32"), base(1) + 8);
    assert_eq!(load("load.i16(add(@s, 8:i32))", "i16"), 0xfffe);
    assert_eq!(load("load.i16(add(@s, 2:i32))", "i16"), 0, "zero fill");
    assert_eq!(
        load("load.i8(add(@s, 10:i32))", "i8"),
        0,
        "zero fill after a value"
    );
    // Bytes of a non-zeroed object without initialiser come from the oracle.
    let p = expr_program(decls, "i16", "load.i16(@e)");
    let w = Witness {
        uninit: BTreeMap::from([(base(3), 0x34), (base(3) + 1, 0x12)]),
        ..Witness::default()
    };
    let r = run_witness(&p, &w);
    assert_eq!(returned(&r), 0x1234);
    assert!(r.read_uninit);
}

#[test]
fn uninitialised_bytes_are_asked_once_and_stay_stable() {
    let p = prog(
        "data-model ilp32\nobject @a size 4 zeroed\nentry @main\nfn @main() -> %r {\n  local %r: bool\n  local %p: i32\n\
         local %x: i32\n  local %y: i32\n  locs 8 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: %p := alloc.heap(4:i32)\n  L4 -> L5: %x := load.i32(%p)\n\
         L5 -> L6: %y := add(load.i32(%p), load.i32(add(@a, 6:i32)))\n\
         L6 -> L1: %r := eq(add(%x, load.i32(add(@a, 6:i32))), %y)\n}\n",
    );
    for seed in 0..20 {
        let r = run_seed(&p, seed);
        assert_eq!(returned(&r), 1, "seed {seed}");
        // 4 bytes of the heap object, and @a's bytes 6..10: 4, 5 .. past its end, 4 asked.
        let mut want: Vec<u64> = (0..4).map(|i| base(2) + i).collect();
        want.extend((6..10).map(|i| base(1) + i));
        want.sort();
        assert_eq!(r.witness.uninit.keys().copied().collect::<Vec<_>>(), want);
    }
}

fn valid_of(decls: &str, pre: &str, addr: &str, n: u32) -> bool {
    let p = prog(&format!(
        "data-model ilp32\n{decls}\nentry @main\nfn @main() -> %r {{\n  local %r: bool\n  local %p: i32\n\
         locs 8 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %p := alloc.heap(8:i32)\n{pre}\
         L5 -> L1: %r := valid.{n}({addr})\n}}\n"
    ));
    returned(&run_seed(&p, 0)) == 1
}

#[test]
fn valid_checks_null_life_writability_and_bounds() {
    let decls = "object @a size 4 zeroed\nobject @s size 3 readonly bytes 0 \"hi\\x00\"";
    let keep = "  L4 -> L5: skip\n";
    let free = "  L4 -> L5: free(%p)\n";
    assert!(valid_of(decls, keep, "@a", 4));
    assert!(valid_of(decls, keep, "add(@a, 3:i32)", 1));
    assert!(
        !valid_of(decls, keep, "add(@a, 1:i32)", 4),
        "runs past the end"
    );
    assert!(
        !valid_of(decls, keep, "add(@a, 16777215:i32)", 4),
        "offset + n wraps"
    );
    assert!(!valid_of(decls, keep, "0:i32", 1), "null");
    assert!(
        !valid_of(decls, keep, "16:i32", 1),
        "inside the null object"
    );
    assert!(!valid_of(decls, keep, "@s", 1), "read-only");
    assert!(valid_of(decls, keep, "add(%p, 4:i32)", 4));
    assert!(!valid_of(decls, free, "%p", 1), "freed");
    assert!(
        !valid_of(decls, keep, "add(%p, 16777216:i32)", 1),
        "an object never allocated"
    );
}

const ALLOCS: &str = "data-model ilp32\nobject @a size 4 zeroed\nobject @b size 4 zeroed\nentry @main\n\
    fn @main() {\n  local %p: i32\n  local %q: i32\n  local %s: i32\n  locs 7 entry L0 exit L1 err L2 halt L3\n\
    L0 -> L4: %p := alloc.heap(4:i32)\n  L4 -> L5: free(%p)\n  L5 -> L6: %q := alloc.stack(4:i32)\n\
    L6 -> L1: %s := alloc.heap(0:i32)\n}\n";

#[test]
fn fresh_objects_get_the_lowest_unused_number() {
    let r = run_seed(&prog(ALLOCS), 0);
    assert_eq!(r.outcome, Outcome::Returned { value: None });
    // Statics are 1 and 2; a freed number is never reused.
    assert_eq!(r.witness.alloc_ids, vec![3, 4, 5]);
    assert_eq!(r.steps[0].written.map(|w| w.1), Some(base(3)));
    assert_eq!(r.steps[0].operands, vec![4]);
}

#[test]
fn bytes_written_before_an_allocation_stay() {
    // Memory is a total map: a wild write to object 3 before it exists is still there when
    // object 3 is allocated (as in the SMT encoding's single memory array).
    let p = prog(&format!(
        "data-model ilp32\nobject @a size 4 zeroed\nobject @b size 4 zeroed\nentry @main\nfn @main() -> %r {{\n  local %r: i8\n  local %p: i32\n\
         locs 6 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: store.i8 {}:i32, 99:i8\n\
         L4 -> L5: %p := alloc.heap(4:i32)\n  L5 -> L1: %r := load.i8(add(%p, 1:i32))\n}}\n",
        base(3) + 1
    ));
    let r = run_seed(&p, 0);
    assert_eq!(r.witness.alloc_ids, vec![3]);
    assert_eq!(returned(&r), 99);
}

#[test]
fn alloc_ids_from_the_oracle_must_be_the_irs() {
    // The IR's rule (`qicc_ir::memory`): the lowest number never used; a witness that
    // expects another number does not describe this run.
    let p = prog(ALLOCS);
    let with = |ids: Vec<u32>| {
        run_witness(
            &p,
            &Witness {
                alloc_ids: ids,
                ..Witness::default()
            },
        )
    };
    let r = with(vec![3, 4, 5]);
    assert_eq!(r.outcome, Outcome::Returned { value: None });
    assert_eq!(r.witness.alloc_ids, vec![3, 4, 5]);
    for (ids, why) in [
        (vec![9, 3, 255], "any fresh number"),
        (vec![3, 3, 4], "reused after free"),
        (vec![2, 3, 4], "static"),
        (vec![0, 3, 4], "null"),
    ] {
        assert!(
            unreplayable(&with(ids)).contains("expects object number"),
            "{why}"
        );
    }
    assert!(
        unreplayable(&with(vec![3, 4])).contains("object numbers"),
        "exhausted"
    );
}

#[test]
fn running_out_of_objects_or_object_size_is_unsupported() {
    // Two object bits: numbers 1..=3; @a is 1, so two allocations fit.
    let small = ALLOCS
        .replace("data-model ilp32", "data-model ilp32 object-bits 2")
        .replace("object @b size 4 zeroed\n", "");
    let r = run_seed(&prog(&small), 0);
    assert!(unreplayable(&r).contains("out of object numbers"));
    assert_eq!(r.witness.alloc_ids, vec![2, 3]);

    let big = ALLOCS.replace("alloc.heap(4:i32)", "alloc.heap(16777216:i32)");
    assert!(unreplayable(&run_seed(&prog(&big), 0)).contains("allocation of 16777216 bytes"));
}

fn bytes_after(ops: &str) -> [u8; 8] {
    let p = prog(&format!(
        "data-model ilp32\nobject @a size 8 zeroed bytes 0 \"abcdefgh\"\nentry @main\nfn @main() -> %r {{\n  local %r: i64\n\
         locs 5 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: {ops}\n  L4 -> L1: %r := load.i64(@a)\n}}\n"
    ));
    returned(&run_seed(&p, 0)).to_le_bytes()
}

#[test]
fn memcpy_is_memmove_and_memset_uses_the_low_byte() {
    assert_eq!(
        &bytes_after("memcpy(add(@a, 2:i32), @a, 4:i32)"),
        b"ababcdgh"
    );
    assert_eq!(
        &bytes_after("memcpy(@a, add(@a, 2:i32), 4:i32)"),
        b"cdefefgh"
    );
    assert_eq!(&bytes_after("memcpy(@a, @a, 8:i32)"), b"abcdefgh");
    assert_eq!(
        &bytes_after("memset(add(@a, 5:i32), 65:i8, 3:i32)"),
        b"abcdeAAA"
    );
    assert_eq!(&bytes_after("memset(@a, -1:i8, 0:i32)"), b"abcdefgh");
}

#[test]
fn havoc_memory_forgets_writes_and_initialisers_but_not_oracle_bytes() {
    let p = prog(
        "data-model ilp32\nobject @a size 4 zeroed\nentry @main\nfn @main() -> %r {\n  local %r: i32\n\
         local %p: i32\n  local %x: i8\n  locs 9 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: store.i8 @a, 7:i8\n  L4 -> L5: %p := alloc.heap(1:i32)\n  L5 -> L6: %x := load.i8(%p)\n\
         L6 -> L7: havoc_memory\n  L7 -> L8: assume valid.1(%p)\n\
         L8 -> L1: %r := or(zext.i32(load.i16(@a)), shl(zext.i32(sub(load.i8(%p), %x)), 16:i32))\n}\n",
    );
    let w = Witness {
        uninit: BTreeMap::from([(base(2), 0x5a), (base(1), 0x11), (base(1) + 1, 0x22)]),
        alloc_ids: vec![2],
        ..Witness::default()
    };
    let r = run_witness(&p, &w);
    // @a's written byte and its zero initialiser are forgotten; the heap byte read before
    // reads the same after; the object table is kept (the heap object is still valid).
    assert_eq!(returned(&r), 0x2211);
    assert_eq!(r.witness.uninit, w.uninit);
}

#[test]
fn blocked_choice_error_and_halt() {
    let p = prog(
        "data-model ilp32\nassertion #0 verifier_assert in @main\nentry @main\nfn @main() -> %r {\n  local %r: i32\n\
         locs 8 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: skip\n  L0 -> L5: skip\n  L0 -> L6: skip\n  L0 -> L7: skip\n\
         L4 -> L1: %r := 1:i32\n  L5 -> L2: error #0\n  L6 -> L3: halt(add(%r, 3:i32))\n  L7 -> L1: assume false\n}\n",
    );
    let choose = |c: u32| {
        run_witness(
            &p,
            &Witness {
                choices: vec![c],
                ..Witness::default()
            },
        )
        .outcome
    };
    assert_eq!(choose(0), Outcome::Returned { value: Some(1) });
    assert_eq!(
        choose(1),
        Outcome::ErrorReached {
            assertion: AssertionId(0)
        }
    );
    assert_eq!(choose(2), Outcome::Halted { code: Some(3) });
    assert_eq!(
        choose(3),
        Outcome::Blocked {
            func: FuncId(0),
            loc: Loc(7)
        }
    );
    assert!(matches!(choose(4), Outcome::Unreplayable(ref w) if w.contains("edge 4 of 4")));
    let r = run_witness(&p, &Witness::default());
    assert!(unreplayable(&r).contains("choices"));
    // Random choices reach every branch.
    let mut seen = std::collections::HashSet::new();
    for seed in 0..64 {
        seen.insert(format!("{:?}", run_seed(&p, seed).outcome));
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

#[test]
fn assumptions_filter_enabled_edges() {
    let p = prog(
        "data-model ilp32\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  local %x: i32\n\
         locs 6 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n\
         L4 -> L5: assume slt(%x, 0:i32)\n  L4 -> L1: assume not(slt(%x, 0:i32))\n  L5 -> L1: %r := -1:i32\n}\n",
    );
    let neg = run_inputs(&p, &[(-5i32) as u32 as u64]);
    assert_eq!(returned(&neg), 0xffff_ffff);
    assert!(
        neg.witness.choices.is_empty(),
        "one enabled edge is no choice"
    );
    let pos = run_inputs(&p, &[5]);
    assert_eq!(returned(&pos), 0);
    assert_eq!(pos.step_count, 2);
}

#[test]
fn halt_in_a_callee_ends_the_run() {
    let p = prog(
        "data-model ilp32\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  locs 5 entry L0 exit L1 err L2 halt L3\n\
         L0 -> L4: call @f()\n  L4 -> L1: %r := 1:i32\n}\nfn @f() {\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L3: halt\n}\n",
    );
    assert_eq!(run_seed(&p, 0).outcome, Outcome::Halted { code: None });
}

#[test]
fn ill_formed_programs_are_refused() {
    let p = qicc_ir::parse_program(
        "data-model ilp32\nentry @main\nfn @main() {\n  local %x: i32\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: assume %x\n}\n",
    )
    .expect("parses");
    let r = run_seed(&p, 0);
    assert!(unreplayable(&r).starts_with("ill-formed program"));
    assert_eq!(r.step_count, 0);

    // What the checker lets through but the interpreter cannot represent.
    let mut p = expr_program("", "i32", "0:i32");
    p.functions[0].locals[0].ty = qicc_ir::Ty::Int(0);
    p.functions[0].edges[0].op = qicc_ir::Op::Assign(
        qicc_ir::VarRef::Local(qicc_ir::LocalId(0)),
        qicc_ir::Expr::int(0, 0),
    );
    assert!(unreplayable(&run_seed(&p, 0)).contains("i0"));
    let mut p = expr_program("", "i32", "0:i32");
    p.layout.object_bits = 30;
    assert!(unreplayable(&run_seed(&p, 0)).contains("object bits"));
}
