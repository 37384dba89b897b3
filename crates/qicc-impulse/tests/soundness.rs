//! Soundness of the accelerated paths, checked concretely with the interpreter: whenever the
//! instrumented program, taking an accelerated path with `n = N` (and otherwise the original
//! loop), returns, the original program returns the same value — a checksum of every
//! variable and of the arrays the loop writes, read back through loads after the loop.
//!
//! Programs are random small loops `for (k = 0; k < K; k++) body` built from the shapes the
//! crate accelerates: constant and symbolic increments, quadratic sums, narrow counters that
//! can overflow, casts in conditions, `!=` conditions (splits), a havoc per iteration, and a
//! dense store of a varying value (overlay) or a byte (memset). `N` ranges past the number
//! of iterations the loop really makes, so accelerations that must be refused are exercised.

mod common;

use proptest::prelude::*;
use proptest::strategy::ValueTree;
use qicc_interp::{
    run, AllocRequest, HavocRequest, InputOracle, Oracle, Outcome, RandomOracle, RunConfig,
};
use qicc_ir::{EdgeId, FuncId, HavocKind, LocalId, Program, VarRef};
use std::fmt::Write;

#[derive(Clone, Debug)]
enum Stmt {
    /// x := x + c
    IncX(u64),
    /// x := x + (y resized to x's width)
    AddYToX,
    /// y := y + c
    IncY(u64),
    /// s := s + y
    SumY,
    /// v := nondet; y := y + v
    HavocAddY,
    /// assume sext(x) < c  (signed, through a widening cast)
    XBelow(i64),
    /// assume x != c
    XNot(u64),
    /// a[k] := y
    StoreA,
    /// b[k] := (byte) c
    StoreB(u8),
    /// c[k] := c (an int constant, usually with unequal bytes)
    StoreC(u32),
    /// c[k] := v (the havoc'd value: invariant, symbolic)
    StoreCv,
}

#[derive(Clone, Debug)]
struct Case {
    x_bits: u16,
    body: Vec<Stmt>,
    k_bound: u64,
    x0: u64,
    y0: u64,
    s0: u64,
    v: u64,
    n: u64,
    which: usize,
    /// Stores after the loop, before the checksum: (element index, kind) with kind 0 an
    /// `int` into `a`, 1 a byte into `a` (partly overwriting an element), 2 an `int` into `c`.
    pokes: Vec<(u32, u8)>,
}

fn stmt() -> impl Strategy<Value = Stmt> {
    prop_oneof![
        (0u64..5).prop_map(Stmt::IncX),
        Just(Stmt::AddYToX),
        prop_oneof![Just(1u64), Just(2), Just(u32::MAX as u64)].prop_map(Stmt::IncY),
        Just(Stmt::SumY),
        Just(Stmt::HavocAddY),
        (-20i64..200).prop_map(Stmt::XBelow),
        (0u64..300).prop_map(Stmt::XNot),
        Just(Stmt::StoreA),
        any::<u8>().prop_map(Stmt::StoreB),
        any::<u32>().prop_map(Stmt::StoreC),
        Just(Stmt::StoreCv),
    ]
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop_oneof![Just(8u16), Just(16), Just(32)],
        prop::collection::vec(stmt(), 1..5),
        1u64..300,
        prop_oneof![0u64..50, any::<u64>()],
        0u64..40,
        any::<u32>(),
        0u64..50,
        // N as a percentage of K: mostly inside the loop's real iteration count, sometimes
        // past it (those accelerations must be refused).
        prop_oneof![3 => 1u64..=100, 1 => 100u64..=110],
        (0usize..2, prop::collection::vec((0u32..300, 0u8..3), 0..4)),
    )
        .prop_map(
            |(x_bits, body, k_bound, x0, y0, s0, v, percent, (which, pokes))| {
                let n = (k_bound * percent / 100).max(1) + (percent > 100) as u64;
                Case {
                    x_bits,
                    body,
                    k_bound,
                    x0: x0 & ((1u64 << x_bits) - 1),
                    y0,
                    s0: s0 as u64,
                    v,
                    n,
                    which,
                    pokes,
                }
            },
        )
}

/// The program's IR text.
fn program(c: &Case) -> String {
    let xt = format!("i{}", c.x_bits);
    let mut edges = String::new();
    let mut next = 4u32;
    let mut fresh = || {
        next += 1;
        next
    };
    let mut e = |from: u32, to: u32, op: &str| {
        let _ = writeln!(edges, "  L{from} -> L{to}: {op}");
    };
    let nd = |v: &str| format!("havoc %{v} nondet \"__VERIFIER_nondet_int\"");
    let (l1, l2, l3, head) = (fresh(), fresh(), fresh(), fresh());
    e(0, l1, &nd("K"));
    e(l1, l2, &nd("x"));
    e(l2, l3, &nd("y"));
    e(l3, 4, &nd("s"));
    e(4, head, "%k := 0:i32");
    let body0 = fresh();
    let exit = fresh();
    e(head, body0, "assume slt(%k, %K)");
    e(head, exit, "assume sle(%K, %k)");
    let mut at = body0;
    let resize_y = match c.x_bits {
        32 => "%y".to_string(),
        w => format!("trunc.i{w}(%y)"),
    };
    for s in &c.body {
        let mut step = |op: String| {
            let to = fresh();
            e(at, to, &op);
            at = to;
        };
        match s {
            Stmt::IncX(k) => step(format!("%x := add(%x, {k}:{xt})")),
            Stmt::AddYToX => step(format!("%x := add(%x, {resize_y})")),
            Stmt::IncY(k) => step(format!("%y := add(%y, {}:i32)", *k as u32 as i32)),
            Stmt::SumY => step("%s := add(%s, %y)".into()),
            Stmt::HavocAddY => {
                step(nd("v"));
                step("%y := add(%y, %v)".into());
            }
            Stmt::XBelow(k) => {
                let x = if c.x_bits == 32 {
                    "%x".to_string()
                } else {
                    "sext.i32(%x)".to_string()
                };
                step(format!("assume slt({x}, {k}:i32)"));
            }
            Stmt::XNot(k) => step(format!("assume ne(%x, {}:{xt})", k & ((1 << c.x_bits) - 1))),
            Stmt::StoreA => {
                step("assume valid.4(add(@a, mul(%k, 4:i32)))".into());
                step("store.i32 add(@a, mul(%k, 4:i32)), %y".into());
            }
            Stmt::StoreB(b) => {
                step("assume valid.1(add(@b, %k))".into());
                step(format!("store.i8 add(@b, %k), {}:i8", *b as i8));
            }
            Stmt::StoreC(c) => {
                step("assume valid.4(add(@c, mul(%k, 4:i32)))".into());
                step(format!(
                    "store.i32 add(@c, mul(%k, 4:i32)), {}:i32",
                    *c as i32
                ));
            }
            Stmt::StoreCv => {
                step(nd("v"));
                step("assume valid.4(add(@c, mul(%k, 4:i32)))".into());
                step("store.i32 add(@c, mul(%k, 4:i32)), %v".into());
            }
        }
    }
    e(at, head, "%k := add(%k, 1:i32)");
    let mut at = exit;
    for (i, (idx, kind)) in c.pokes.iter().enumerate() {
        let to = fresh();
        let op = match kind {
            0 => format!("store.i32 add(@a, {}:i32), {}:i32", idx * 4, 70 + i),
            1 => format!("store.i8 add(@a, {}:i32), {}:i8", idx * 4 + 1, 5 + i),
            _ => format!("store.i32 add(@c, {}:i32), {}:i32", idx * 4, 90 + i),
        };
        e(at, to, &op);
        at = to;
    }
    let exit = at;
    let xz = if c.x_bits == 32 {
        "%x".to_string()
    } else {
        "zext.i32(%x)".to_string()
    };
    let mut sum = format!("xor(xor(xor({xz}, %y), %s), %k)");
    for i in [0u32, 1, 3, 7, 15, 100, 299] {
        sum = format!("xor({sum}, load.i32(add(@a, {}:i32)))", i * 4);
    }
    for i in [0u32, 3, 31, 250] {
        sum = format!("xor({sum}, zext.i32(load.i8(add(@b, {i}:i32))))");
    }
    for i in [0u32, 1, 2, 3, 4, 5, 17, 64, 130, 298] {
        sum = format!(
            "xor({sum}, mul(load.i32(add(@c, {}:i32)), {}:i32))",
            i * 4,
            i + 1
        );
    }
    e(exit, 1, &format!("%ret := {sum}"));
    format!(
        "qicc-ir 1\ndata-model ilp32 object-bits 8\nobject @a size 1280 zeroed\nobject @b size 320 zeroed\nobject @c size 1280 zeroed\nentry @main\n\nfn @main() -> %ret {{\n  local %ret: i32\n  local %K: i32\n  local %k: i32\n  local %x: {xt}\n  local %y: i32\n  local %s: i32\n  local %v: i32\n  locs {} entry L0 exit L1 err L2 halt L3\n{edges}}}\n",
        next + 1
    )
}

/// Drives the instrumented program: program inputs from a list, the accelerated path with
/// entry edge `entry` once with `n`, every witness the value `v`, otherwise original edges.
struct AccOracle {
    inputs: InputOracle,
    entry: EdgeId,
    n_var: LocalId,
    witness_vars: Vec<LocalId>,
    n: u64,
    v: u64,
    used: bool,
    acc_entries: Vec<EdgeId>,
}

impl Oracle for AccOracle {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        match (req.kind, req.var) {
            (HavocKind::Region, VarRef::Local(l)) if l == self.n_var => self.n,
            (HavocKind::Region, VarRef::Local(l)) if self.witness_vars.contains(&l) => self.v,
            _ => self.inputs.havoc(req),
        }
    }
    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.inputs.uninit_byte(addr)
    }
    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        self.inputs.alloc_id(req)
    }
    fn choose(&mut self, _func: FuncId, enabled: &[EdgeId]) -> usize {
        if !self.used {
            if let Some(i) = enabled.iter().position(|e| *e == self.entry) {
                self.used = true;
                return i;
            }
        }
        enabled
            .iter()
            .position(|e| !self.acc_entries.contains(e))
            .unwrap_or(0)
    }
}

fn inputs(c: &Case) -> Vec<u64> {
    let mut v = vec![c.k_bound, c.x0, c.y0, c.s0];
    v.extend(std::iter::repeat_n(c.v, 2000));
    v
}

/// Runs both programs; `Some(true)` if the accelerated run returned and the original agreed.
fn check(c: &Case) -> Result<Option<bool>, String> {
    let src = program(c);
    let p: Program = common::parse(&src);
    let instr = common::instrument(&p);
    if instr.accelerations.is_empty() {
        return Ok(None);
    }
    let a = &instr.accelerations[c.which % instr.accelerations.len()];
    let config = RunConfig {
        max_steps: 1_000_000,
        ..RunConfig::default()
    };
    let mut oracle = AccOracle {
        inputs: InputOracle::new(inputs(c), 7),
        entry: a.entry_edge,
        n_var: a.n_var,
        witness_vars: a.witnesses.iter().map(|w| w.var).collect(),
        n: c.n,
        v: c.v,
        used: false,
        acc_entries: instr.accelerations.iter().map(|a| a.entry_edge).collect(),
    };
    let fast = run(&instr.program, &mut oracle, &config);
    let Outcome::Returned { value } = fast.outcome else {
        return Ok(Some(false));
    };
    if !oracle.used {
        return Ok(Some(false));
    }
    let slow = run(&p, &mut InputOracle::new(inputs(c), 7), &config);
    if slow.outcome != (Outcome::Returned { value }) {
        return Err(format!(
            "accelerated run returned {value:?}, the original {}\n{src}\n{}",
            slow.outcome,
            qicc_ir::print_program(&instr.program)
        ));
    }
    Ok(Some(true))
}

proptest! {
    // 150 cases by default; PROPTEST_CASES=n runs more.
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(150)
    ))]
    #[test]
    fn accelerated_runs_are_original_runs(c in case()) {
        if let Err(why) = check(&c) {
            prop_assert!(false, "{why}");
        }
    }
}

/// The property above is not vacuous: on a fixed sample, many accelerated runs return.
#[test]
fn accelerations_are_exercised() {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    let strategy = case();
    let (mut returned, mut total) = (0, 0);
    for _ in 0..60 {
        let c = strategy.new_tree(&mut runner).expect("a case").current();
        total += 1;
        if check(&c).expect("sound") == Some(true) {
            returned += 1;
        }
    }
    assert!(
        returned * 4 >= total,
        "only {returned} of {total} accelerated runs returned"
    );
}

/// The 8-bit counter of `tests/instrument.rs`: from 0, `n = 255` is admitted, 256 is not.
#[test]
fn u8_counter_stops_at_255() {
    let src = "qicc-ir 1\ndata-model ilp32 object-bits 8\nentry @main\n\nfn @main() -> %ret {\n  local %ret: i32\n  local %c: i8\n  local %t: i32\n  locs 8 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %c := 0:i8\n  L4 -> L7: havoc %t nondet \"__VERIFIER_nondet_int\"\n  L7 -> L5: assume ne(%t, 0:i32)\n  L7 -> L6: assume eq(%t, 0:i32)\n  L5 -> L4: %c := add(%c, 1:i8)\n  L6 -> L1: %ret := zext.i32(%c)\n}\n";
    let p = common::parse(src);
    let instr = common::instrument(&p);
    let a = &instr.accelerations[0];
    let go = |n: u64| {
        let mut oracle = AccOracle {
            // The accelerated path's witness is the loop's non-zero input; then 0 exits.
            inputs: InputOracle::new(vec![0], 1),
            entry: a.entry_edge,
            n_var: a.n_var,
            witness_vars: a.witnesses.iter().map(|w| w.var).collect(),
            n,
            v: 1,
            used: false,
            acc_entries: vec![a.entry_edge],
        };
        run(&instr.program, &mut oracle, &RunConfig::default()).outcome
    };
    assert_eq!(go(255), Outcome::Returned { value: Some(255) });
    assert!(matches!(go(256), Outcome::Blocked { .. }), "{:?}", go(256));
    let _ = RandomOracle::new(0);
}

/// Fills of one value in every element: overlays (constants with unequal bytes) and, for a
/// symbolic value, also a `memset` assuming equal bytes (`v = 0x01010101`).
#[test]
fn constant_fills_match_the_loop() {
    for (k_bound, body) in [
        (1, Stmt::StoreC(0x0102_0304)),
        (2, Stmt::StoreC(0x0102_0304)),
        (3, Stmt::StoreC(0x0102_0304)),
        (7, Stmt::StoreC(0xdead_beef)),
        (64, Stmt::StoreC(0xdead_beef)),
        (100, Stmt::StoreCv),
        (299, Stmt::StoreCv),
    ] {
        for v in [0x1234_5678, 0x0101_0101] {
            let c = Case {
                x_bits: 32,
                body: vec![body.clone()],
                k_bound,
                x0: 0,
                y0: 0,
                s0: 0,
                v,
                n: k_bound,
                which: 0,
                pokes: vec![(1, 0), (5, 2)],
            };
            // `which` picks the accelerated path; every one must be sound, and one returns.
            let results: Vec<_> = (0..2)
                .map(|which| check(&Case { which, ..c.clone() }))
                .collect();
            assert!(
                results.iter().all(|r| r.is_ok()),
                "{body:?} with K = {k_bound}: {results:?}"
            );
            assert!(
                results.contains(&Ok(Some(true))),
                "{body:?} with K = {k_bound}, v = {v:#x}"
            );
        }
    }
}

/// Stores into an active overlay: whole elements are patched (two per overlay), a third
/// element or a partial overwrite blocks the run — never a wrong value.
#[test]
fn stores_into_an_overlay_are_patched() {
    let case = |pokes: Vec<(u32, u8)>| Case {
        x_bits: 32,
        body: vec![Stmt::IncY(1), Stmt::StoreA],
        k_bound: 50,
        x0: 0,
        y0: 3,
        s0: 0,
        v: 0,
        n: 50,
        which: 0,
        pokes,
    };
    assert_eq!(check(&case(vec![(1, 0), (7, 0)])), Ok(Some(true)));
    assert_eq!(check(&case(vec![(1, 0), (1, 0), (7, 0)])), Ok(Some(true)));
    assert_eq!(check(&case(vec![(1, 0), (3, 0), (7, 0)])), Ok(Some(false)));
    assert_eq!(check(&case(vec![(1, 1)])), Ok(Some(false)));
    assert_eq!(check(&case(vec![(60, 1), (299, 0)])), Ok(Some(true)));
}
