//! The engine at the IR seam: programs as IR text in, verdicts out. Every FALSE is replayed
//! again here by the interpreter (`common::check_consistent`).

mod common;
use common::*;
use qicc_bmc::BmcOptions;
use qicc_engine::AssertionStatus;

const HEAD: &str = "qicc-ir 1\ndata-model ilp32\n";

/// `main` asserting `cond` (an IR bool expression over its locals) after `body` edges
/// from L0 to L4; locals are declared by the caller.
fn assert_prog(decls: &str, locals: &str, body: &str, cond: &str) -> String {
    format!(
        "{HEAD}{decls}assertion #0 verifier_assert in @main\nentry @main\n\
         fn @main() -> %ret {{\n  local %ret: i32\n{locals}  locs 100 entry L0 exit L1 err L2 halt L3\n\
         {body}  L4 -> L98: assume not({cond})\n  L98 -> L2: error #0\n  L4 -> L1: assume {cond}\n}}\n"
    )
}

#[test]
fn division_and_shift_edge_cases_match_semantics() {
    let locals = "  local %x: i32\n  local %y: i32\n";
    let body = "  L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n";
    let truths = [
        "eq(sdiv(%x, 0:i32), ite(slt(%x, 0:i32), 1:i32, -1:i32))",
        "eq(udiv(%x, 0:i32), -1:i32)",
        "eq(urem(%x, 0:i32), %x)",
        "eq(srem(%x, 0:i32), %x)",
        "eq(sdiv(-2147483648:i32, -1:i32), -2147483648:i32)",
        "eq(srem(-2147483648:i32, -1:i32), 0:i32)",
        "eq(shl(%x, 32:i32), 0:i32)",
        "eq(lshr(%x, 33:i32), 0:i32)",
        "eq(ashr(%x, 40:i32), ite(slt(%x, 0:i32), -1:i32, 0:i32))",
        "eq(srem(%x, 2:i32), sub(%x, mul(sdiv(%x, 2:i32), 2:i32)))",
        "eq(trunc.i8(zext.i64(%x)), trunc.i8(%x))",
        "eq(sext.i64(trunc.i16(%x)), zext.i64(trunc.i16(%x))) == false",
    ];
    for cond in &truths[..truths.len() - 1] {
        let r = run(&assert_prog("", locals, body, cond));
        assert_eq!(verdict(&r), Verdict::True, "{cond}: {r:?}");
    }
    // False claims give replayed counterexamples.
    let falsities = [
        "eq(sdiv(%x, 0:i32), -1:i32)",
        "slt(sdiv(%x, -1:i32), 1:i32)",
        "eq(sext.i64(trunc.i16(%x)), zext.i64(trunc.i16(%x)))",
        "ult(mul(%x, 3:i32), 4000000000:i32)",
    ];
    for cond in falsities {
        let r = run(&assert_prog("", locals, body, cond));
        assert_eq!(verdict(&r), Verdict::False, "{cond}: {r:?}");
    }
}

#[test]
fn branches_merge_and_values_stay_precise() {
    // x in {3, 7, 10} after a three-way branch on nondet input.
    let locals = "  local %c: i32\n  local %x: i32\n";
    let body = "  L0 -> L5: havoc %c nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L5 -> L6: assume slt(%c, 0:i32)\n  L6 -> L4: %x := 3:i32\n\
                \x20 L5 -> L7: assume eq(%c, 0:i32)\n  L7 -> L4: %x := 7:i32\n\
                \x20 L5 -> L8: assume slt(0:i32, %c)\n  L8 -> L4: %x := 10:i32\n";
    expect(
        &assert_prog(
            "",
            locals,
            body,
            "or(or(eq(%x, 3:i32), eq(%x, 7:i32)), eq(%x, 10:i32))",
        ),
        Verdict::True,
    );
    let r = expect(
        &assert_prog("", locals, body, "ne(%x, 7:i32)"),
        Verdict::False,
    );
    assert_eq!(r.violation.unwrap().1.havocs, vec![0]);
}

#[test]
fn overlapping_edges_are_explored_separately() {
    // Two unconditional edges out of L0: a nondeterministic choice the witness records.
    let locals = "  local %x: i32\n";
    let body = "  L0 -> L5: %x := 1:i32\n  L0 -> L6: %x := 2:i32\n\
                \x20 L5 -> L4: skip\n  L6 -> L4: skip\n";
    let r = expect(
        &assert_prog("", locals, body, "ne(%x, 2:i32)"),
        Verdict::False,
    );
    assert_eq!(r.violation.unwrap().1.choices, vec![1]);
    let r = expect(
        &assert_prog("", locals, body, "ne(%x, 1:i32)"),
        Verdict::False,
    );
    assert_eq!(r.violation.unwrap().1.choices, vec![0]);
    expect(
        &assert_prog("", locals, body, "or(eq(%x, 1:i32), eq(%x, 2:i32))"),
        Verdict::True,
    );
}

const COUNT_TO_10: &str = "  local %i: i32\n  local %s: i32\n";
const COUNT_BODY: &str = "  L0 -> L5: %i := 0:i32\n\
    \x20 L5 -> L6: assume slt(%i, 10:i32)\n\
    \x20 L6 -> L7: %s := add(%s, %i)\n\
    \x20 L7 -> L5: %i := add(%i, 1:i32)\n\
    \x20 L5 -> L4: assume not(slt(%i, 10:i32))\n";

#[test]
fn constant_loop_is_proved_by_complete_unwinding() {
    let text = assert_prog("", COUNT_TO_10, COUNT_BODY, "eq(%s, 45:i32)");
    let r = expect(&text, Verdict::True);
    // Everything folds: no solver call. Bound 1 is incomplete; the second step unwinds the
    // loop to its hinted trip count (i in [0, 10] at the head, +1 per iteration) and is complete.
    assert_eq!(stat(r.stats.solver_calls), 0);
    assert_eq!(stat(r.stats.bound), 2);
    let r = run_unwind(&text, 10);
    assert_eq!(verdict(&r), Verdict::True, "{r:?}");
    let r = run_unwind(&text, 9);
    assert_eq!(verdict(&r), Verdict::Unknown);
    let reason = r.reason.clone().unwrap();
    assert!(reason.contains("not fully unwound at bound 9"), "{reason}");
    assert!(matches!(status(&r, 0), AssertionStatus::Unknown(_)));
    // A violation at iteration 10 is found by deepening.
    let r = expect(
        &assert_prog("", COUNT_TO_10, COUNT_BODY, "ne(%s, 45:i32)"),
        Verdict::False,
    );
    assert_eq!(r.violation.unwrap().1.havocs, Vec::<u64>::new());
}

#[test]
fn loop_override_and_fixed_bounds() {
    let text = assert_prog("", COUNT_TO_10, COUNT_BODY, "eq(%s, 45:i32)");
    let p = program(&text);
    let opts = BmcOptions {
        unwind: Some(3),
        loop_unwind: vec![("main".into(), 5, 10)],
        ..BmcOptions::default()
    };
    assert_eq!(verdict(&run_with(&p, &opts)), Verdict::True);
    let opts = BmcOptions {
        loop_unwind: vec![("main".into(), 6, 10)],
        ..BmcOptions::default()
    };
    let r = run_with(&p, &opts);
    assert!(r.reason.unwrap().contains("not a loop head"));
}

#[test]
fn unbounded_loop_is_never_true() {
    // n starts anywhere; x stays 1 — true, but no bound covers every n.
    let locals = "  local %n: i32\n  local %x: i32\n";
    let body = "  L0 -> L5: havoc %n nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L5 -> L6: %x := 1:i32\n\
                \x20 L6 -> L7: assume slt(%n, 1000:i32)\n\
                \x20 L7 -> L6: %n := add(%n, %x)\n\
                \x20 L6 -> L4: assume not(slt(%n, 1000:i32))\n";
    let p = program(&assert_prog("", locals, body, "eq(%x, 1:i32)"));
    let opts = BmcOptions {
        max_unwind: 40,
        ..BmcOptions::default()
    };
    let r = run_with(&p, &opts);
    assert_eq!(verdict(&r), Verdict::Unknown, "{r:?}");
    assert!(r.reason.clone().unwrap().contains("bound 40"));
    assert_eq!(stat(r.stats.bound), 40);
}

#[test]
fn irreducible_loop_entered_in_the_middle() {
    // L5 <-> L6 is a cycle entered at either node; i counts to 5 in both ways round.
    let locals = "  local %i: i32\n  local %c: i32\n";
    let body = "  L0 -> L7: havoc %c nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L7 -> L5: assume eq(%c, 0:i32)\n\
                \x20 L7 -> L6: assume ne(%c, 0:i32)\n\
                \x20 L5 -> L6: assume slt(%i, 5:i32)\n\
                \x20 L6 -> L8: %i := add(%i, 1:i32)\n\
                \x20 L8 -> L5: skip\n\
                \x20 L5 -> L4: assume not(slt(%i, 5:i32))\n";
    expect(
        &assert_prog("", locals, body, "eq(%i, 5:i32)"),
        Verdict::True,
    );
    let r = expect(
        &assert_prog("", locals, body, "ne(%i, 5:i32)"),
        Verdict::False,
    );
    assert!(r.violation.is_some());
}

const SUM: &str = "fn @sum(%n) -> %r {\n  local %n: i32\n  local %r: i32\n  local %t: i32\n\
    \x20 locs 8 entry L0 exit L1 err L2 halt L3\n\
    \x20 L0 -> L4: assume sle(%n, 0:i32)\n  L4 -> L1: %r := 0:i32\n\
    \x20 L0 -> L5: assume not(sle(%n, 0:i32))\n\
    \x20 L5 -> L6: %t := call @sum(sub(%n, 1:i32))\n\
    \x20 L6 -> L1: %r := add(%n, %t)\n}\n";

#[test]
fn recursion_violation_at_depth_five() {
    let locals = "  local %n: i32\n  local %s: i32\n";
    let body = "  L0 -> L5: havoc %n nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L5 -> L6: assume and(sle(0:i32, %n), sle(%n, 20:i32))\n\
                \x20 L6 -> L4: %s := call @sum(%n)\n";
    let text = format!("{}{SUM}", assert_prog("", locals, body, "ne(%s, 15:i32)"));
    let r = expect(&text, Verdict::False);
    assert_eq!(r.violation.unwrap().1.havocs, vec![5]);
    // With n <= 4 the assertion holds, and recursion depth 5 suffices to prove it.
    let body = body.replace("sle(%n, 20:i32)", "sle(%n, 4:i32)");
    let text = format!("{}{SUM}", assert_prog("", locals, &body, "ne(%s, 15:i32)"));
    expect(&text, Verdict::True);
    // A fixed bound below the depth is inconclusive.
    let r = run_unwind(&text, 2);
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("recursion of sum"));
}

#[test]
fn nested_calls_update_globals() {
    let text = format!(
        "{HEAD}global $g: i32 = 1:i32\nglobal $h: i32\n\
         assertion #0 verifier_assert in @main\nentry @main\n\
         fn @main() -> %ret {{\n  local %ret: i32\n  local %v: i32\n\
         \x20 locs 8 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: %v := call @twice(5:i32)\n\
         \x20 L4 -> L5: call @bump()\n\
         \x20 L5 -> L6: assume not(and(eq(%v, 12:i32), eq($g, 4:i32)))\n  L6 -> L2: error #0\n\
         \x20 L5 -> L1: assume and(eq(%v, 12:i32), eq($g, 4:i32))\n}}\n\
         fn @twice(%a) -> %r {{\n  local %a: i32\n  local %r: i32\n  local %t: i32\n\
         \x20 locs 6 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: %t := call @plus_g(%a)\n  L4 -> L5: call @bump()\n\
         \x20 L5 -> L1: %r := call @plus_g(%t)\n}}\n\
         fn @plus_g(%a) -> %r {{\n  local %a: i32\n  local %r: i32\n\
         \x20 locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: %r := add(%a, $g)\n}}\n\
         fn @bump() {{\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: $g := add($g, 1:i32)\n}}\n"
    );
    // v = (5 + 1) + 2 (g bumped between) = 8... then g = 3: 8 != 12, so the check fails.
    let r = expect(&text, Verdict::False);
    assert!(
        r.violation.unwrap().1.havocs.len() == 1,
        "only $h is havocked"
    );
    let fixed = text.replace(
        "eq(%v, 12:i32), eq($g, 4:i32)",
        "eq(%v, 8:i32), eq($g, 3:i32)",
    );
    let r = expect(&fixed, Verdict::True);
    assert_eq!(stat(r.stats.solver_calls), 0);
}

#[test]
fn uninitialised_globals_and_entry_parameters_are_inputs() {
    let text = format!(
        "{HEAD}global $h: i8\nassertion #0 verifier_assert in @main\nentry @main\n\
         fn @main(%p) -> %ret {{\n  local %p: i32\n  local %ret: i32\n\
         \x20 locs 6 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: assume and(eq($h, 7:i8), eq(%p, 100:i32))\n  L4 -> L2: error #0\n\
         \x20 L0 -> L1: assume not(and(eq($h, 7:i8), eq(%p, 100:i32)))\n}}\n"
    );
    let r = expect(&text, Verdict::False);
    assert_eq!(r.violation.unwrap().1.havocs, vec![7, 100]);
}

const MEM_DECLS: &str =
    "object @a size 16 zeroed\nobject @s size 4 readonly zeroed bytes 0 \"hi!\\x00\"\n\
    object @p size 4 zeroed value 0 add(@a, 8:i32)\n";

#[test]
fn memory_is_little_endian_with_static_initialisers() {
    let locals = "  local %x: i32\n";
    let body = "  L0 -> L5: store.i32 @a, 287454020:i32\n  L5 -> L4: %x := load.i32(@p)\n";
    // 287454020 = 0x11223344
    let cond = "and(and(eq(load.i8(@a), 68:i8), eq(load.i8(add(@a, 3:i32)), 17:i8)), \
                and(eq(load.i16(add(@a, 1:i32)), 8755:i16), \
                and(eq(%x, add(@a, 8:i32)), and(eq(load.i32(add(@a, 4:i32)), 0:i32), \
                eq(load.i16(@s), 26984:i16)))))";
    let r = expect(&assert_prog(MEM_DECLS, locals, body, cond), Verdict::True);
    assert_eq!(stat(r.stats.solver_calls), 0);
}

#[test]
fn symbolic_array_index() {
    let locals = "  local %i: i32\n  local %j: i32\n  local %v: i32\n";
    let body = "  L0 -> L5: havoc %i nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L5 -> L6: havoc %j nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L6 -> L7: assume and(and(ult(%i, 4:i32), ult(%j, 4:i32)), ne(%i, %j))\n\
                \x20 L7 -> L8: store.i32 add(@a, mul(%i, 4:i32)), 42:i32\n\
                \x20 L8 -> L4: %v := load.i32(add(@a, mul(%j, 4:i32)))\n";
    // Other cells stay zero (a zeroed static object).
    expect(
        &assert_prog(MEM_DECLS, locals, body, "eq(%v, 0:i32)"),
        Verdict::True,
    );
    let body2 = body.replace("mul(%j, 4:i32)))", "mul(%i, 4:i32)))");
    expect(
        &assert_prog(MEM_DECLS, locals, &body2, "eq(%v, 42:i32)"),
        Verdict::True,
    );
    let r = expect(
        &assert_prog(MEM_DECLS, locals, &body2, "ne(%v, 42:i32)"),
        Verdict::False,
    );
    assert!(r.violation.is_some());
    // A misaligned read overlapping the written cell sees its upper (zero) bytes, and for
    // i = 3 one byte past the end of @a: out of bounds, so arbitrary.
    let body3 = body.replace("mul(%j, 4:i32)))", "add(mul(%i, 4:i32), 1:i32)))");
    expect(
        &assert_prog(MEM_DECLS, locals, &body3, "eq(trunc.i8(%v), 0:i8)"),
        Verdict::True,
    );
    let r = expect(
        &assert_prog(MEM_DECLS, locals, &body3, "eq(%v, 0:i32)"),
        Verdict::False,
    );
    let w = r.violation.unwrap().1;
    assert_eq!(w.havocs[0], 3);
    assert_eq!(
        w.uninit.keys().copied().collect::<Vec<u64>>(),
        vec![(1u64 << 24) + 16]
    );
}

#[test]
fn alloc_free_and_valid() {
    let locals = "  local %p: i32\n  local %q: i32\n  local %b: bool\n  local %c: bool\n";
    let body = "  L0 -> L5: %p := alloc.heap(8:i32)\n\
                \x20 L5 -> L6: %q := alloc.stack(4:i32)\n\
                \x20 L6 -> L7: %b := and(and(valid.4(%p), valid.8(%p)), \
                and(not(valid.4(add(%p, 5:i32))), valid.4(%q)))\n\
                \x20 L7 -> L8: free(%p)\n\
                \x20 L8 -> L4: %c := or(or(valid.1(%p), valid.1(@s)), or(valid.1(0:i32), not(valid.16(@a))))\n";
    let r = expect(
        &assert_prog(MEM_DECLS, locals, body, "and(and(%b, not(%c)), ne(%p, %q))"),
        Verdict::True,
    );
    assert_eq!(stat(r.stats.solver_calls), 0);
    // Heap contents start arbitrary: a counterexample names the bytes it read.
    let body2 = "  L0 -> L5: %p := alloc.heap(8:i32)\n  L5 -> L4: %q := load.i32(add(%p, 2:i32))\n";
    let r = expect(
        &assert_prog(
            MEM_DECLS,
            "  local %p: i32\n  local %q: i32\n",
            body2,
            "ne(%q, 305419896:i32)",
        ),
        Verdict::False,
    );
    let w = r.violation.unwrap().1;
    assert_eq!(w.alloc_ids.len(), 1);
    assert_eq!(
        w.uninit.values().copied().collect::<Vec<u8>>(),
        vec![0x78, 0x56, 0x34, 0x12]
    );
}

#[test]
fn alloc_with_symbolic_size() {
    let locals = "  local %n: i32\n  local %p: i32\n";
    let body = "  L0 -> L5: havoc %n nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L5 -> L6: assume and(ult(0:i32, %n), ult(%n, 100:i32))\n\
                \x20 L6 -> L4: %p := alloc.heap(mul(%n, 4:i32))\n";
    expect(
        &assert_prog(MEM_DECLS, locals, body, "and(valid.4(add(%p, mul(sub(%n, 1:i32), 4:i32))), not(valid.4(add(%p, mul(%n, 4:i32)))))"),
        Verdict::True,
    );
    let r = expect(
        &assert_prog(MEM_DECLS, locals, body, "not(valid.40(%p))"),
        Verdict::False,
    );
    assert!(r.violation.unwrap().1.havocs[0] >= 10);
}

#[test]
fn memset_and_memcpy() {
    let locals = "  local %p: i32\n  local %n: i32\n";
    let body = "  L0 -> L5: %p := alloc.heap(64:i32)\n\
                \x20 L5 -> L6: memset(%p, 171:i8, 40:i32)\n\
                \x20 L6 -> L7: memset(add(%p, 40:i32), 0:i8, 24:i32)\n\
                \x20 L7 -> L8: store.i32 %p, 16909060:i32\n\
                \x20 L8 -> L9: memcpy(add(%p, 2:i32), %p, 4:i32)\n\
                \x20 L9 -> L10: havoc %n nondet \"__VERIFIER_nondet_int\"\n\
                \x20 L10 -> L11: assume ult(%n, 20:i32)\n\
                \x20 L11 -> L4: memcpy(add(%p, 44:i32), %p, %n)\n";
    // 16909060 = 0x01020304; memmove keeps the old bytes: p[2..6] = 04 03 02 01.
    let cond = "and(and(eq(load.i32(add(%p, 2:i32)), 16909060:i32), eq(load.i16(%p), 772:i16)), \
                and(eq(load.i8(add(%p, 39:i32)), -85:i8), eq(load.i8(add(%p, 63:i32)), 0:i8)))";
    expect(&assert_prog("", locals, body, cond), Verdict::True);
    // The copy of symbolic length reaches p[44 + k] for k < n only.
    let cond2 = "or(ule(%n, 10:i32), eq(load.i8(add(%p, 54:i32)), -85:i8))";
    expect(&assert_prog("", locals, body, cond2), Verdict::True);
    let cond3 = "eq(load.i8(add(%p, 54:i32)), 0:i8)";
    let r = expect(&assert_prog("", locals, body, cond3), Verdict::False);
    assert!(r.violation.unwrap().1.havocs[0] > 10);
}

#[test]
fn havoc_memory_forgets_contents_but_not_statics() {
    let locals = "  local %x: i32\n";
    let body = "  L0 -> L5: store.i32 @a, 5:i32\n  L5 -> L6: havoc_memory\n\
                \x20 L6 -> L4: %x := load.i32(@a)\n";
    let r = expect(
        &assert_prog(MEM_DECLS, locals, body, "eq(%x, 5:i32)"),
        Verdict::False,
    );
    assert_eq!(r.violation.unwrap().1.uninit.len(), 4);
    expect(
        &assert_prog(
            MEM_DECLS,
            locals,
            body,
            "and(valid.16(@a), not(valid.1(@s)))",
        ),
        Verdict::True,
    );
}

#[test]
fn undefined_behaviour_is_unknown_never_false() {
    let text = format!(
        "{HEAD}assertion #0 div-by-zero in @main\nassertion #1 verifier_assert in @main\n\
         entry @main\nfn @main() -> %ret {{\n  local %ret: i32\n  local %x: i32\n\
         \x20 locs 8 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n\
         \x20 L4 -> L2: assume eq(%x, 0:i32)\n\
         \x20 L4 -> L5: assume ne(%x, 0:i32)\n\
         \x20 L5 -> L6: %ret := sdiv(100:i32, %x)\n\
         \x20 L6 -> L1: assume slt(%ret, 1000:i32)\n\
         \x20 L6 -> L7: assume not(slt(%ret, 1000:i32))\n  L7 -> L2: error #1\n}}\n"
    );
    // The `assume` into err is not well-formed; build the UB edge properly.
    let text = text
        .replace(
            "  L4 -> L2: assume eq(%x, 0:i32)\n",
            "  L4 -> L8: assume eq(%x, 0:i32)\n  L8 -> L2: error #0\n",
        )
        .replace("locs 8", "locs 9");
    let r = expect(&text, Verdict::Unknown);
    let reason = r.reason.clone().unwrap();
    assert!(reason.contains("division by zero"), "{reason}");
    assert!(matches!(status(&r, 0), AssertionStatus::Unknown(_)));
    assert_eq!(status(&r, 1), &AssertionStatus::Safe);
    // Guarded: TRUE.
    let safe = text.replace("assume eq(%x, 0:i32)\n  L8", "assume false\n  L8");
    expect(&safe, Verdict::True);
    // A reachable property violation still gives FALSE.
    let bad = safe.replace("slt(%ret, 1000:i32)", "slt(%ret, 50:i32)");
    expect(&bad, Verdict::False);
}

#[test]
fn all_violations_are_reported() {
    let text = format!(
        "{HEAD}assertion #0 verifier_assert in @main\nassertion #1 reach_error in @main\n\
         assertion #2 verifier_assert in @main\nentry @main\n\
         fn @main() -> %ret {{\n  local %ret: i32\n  local %x: i32\n\
         \x20 locs 8 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n\
         \x20 L4 -> L5: assume eq(%x, 1:i32)\n  L5 -> L2: error #0\n\
         \x20 L4 -> L6: assume eq(%x, 2:i32)\n  L6 -> L2: error #1\n\
         \x20 L4 -> L7: assume eq(%x, 3:i32)\n  L7 -> L3: halt\n\
         \x20 L7 -> L2: assume false\n}}\n"
    )
    .replace("  L7 -> L2: assume false\n", "");
    let p = program(&text);
    let opts = BmcOptions {
        all_violations: true,
        ..BmcOptions::default()
    };
    let r = run_with(&p, &opts);
    assert_eq!(verdict(&r), Verdict::False);
    assert_eq!(status(&r, 0), &AssertionStatus::Violated);
    assert_eq!(status(&r, 1), &AssertionStatus::Violated);
    assert_eq!(status(&r, 2), &AssertionStatus::Safe);
    let r = run_with(&p, &BmcOptions::default());
    assert_eq!(verdict(&r), Verdict::False);
    let violated = r
        .statuses
        .iter()
        .filter(|(_, s)| *s == AssertionStatus::Violated)
        .count();
    assert_eq!(violated, 1);
}

#[test]
fn cancelled_budget_stops_with_unknown() {
    let text = assert_prog("", COUNT_TO_10, COUNT_BODY, "eq(%s, 45:i32)");
    let p = program(&text);
    let budget = qicc_engine::Budget::unlimited();
    budget.cancel.cancel();
    let r = qicc_bmc::verify(&p, &BmcOptions::default(), &budget);
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("cancelled"));
}

#[test]
fn ill_formed_program_is_unknown() {
    let text = format!(
        "{HEAD}entry @main\nfn @main() {{\n  local %x: i32\n  locs 5 entry L0 exit L1 err L2 halt L3\n\
         \x20 L0 -> L1: %x := true\n}}\n"
    );
    let p = qicc_ir::parse_program(&text).unwrap();
    let r = qicc_bmc::verify(
        &p,
        &BmcOptions::default(),
        &qicc_engine::Budget::unlimited(),
    );
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("ill-formed"));
}

#[test]
fn havoc_memory_violation_a_replay_cannot_reproduce_is_unknown() {
    // After havoc_memory a byte may differ from what it was; the interpreter's witness holds
    // one value per never-written address, so this violation cannot be replayed.
    let locals = "  local %p: i32\n  local %a: i8\n  local %b: i8\n";
    let body = "  L0 -> L5: %p := alloc.heap(4:i32)\n  L5 -> L6: %a := load.i8(%p)\n\
                \x20 L6 -> L7: havoc_memory\n  L7 -> L4: %b := load.i8(%p)\n";
    let r = expect(
        &assert_prog("", locals, body, "eq(%a, %b)"),
        Verdict::Unknown,
    );
    let reason = r.reason.unwrap();
    assert!(reason.contains("havoc_memory"), "{reason}");
    // The same difference across two distinct addresses replays fine.
    let body2 = body.replace("%b := load.i8(%p)", "%b := load.i8(add(%p, 1:i32))");
    expect(
        &assert_prog("", locals, &body2, "eq(%a, %b)"),
        Verdict::False,
    );
}

#[test]
fn a_counterexample_the_interpreter_cannot_run_is_not_false() {
    // The interpreter refuses bulk operations over 2^28 bytes; the encoding has no such
    // limit. The model reaches the error, the replay stops: UNKNOWN, never FALSE.
    let locals = "  local %p: i32\n";
    let body = "  L0 -> L5: %p := alloc.heap(16:i32)\n\
                \x20 L5 -> L4: memset(%p, 0:i8, 536870912:i32)\n";
    let r = expect(
        &assert_prog("", locals, body, "ne(load.i8(%p), 0:i8)"),
        Verdict::Unknown,
    );
    let reason = r.reason.clone().unwrap();
    assert!(reason.contains("counterexample did not replay"), "{reason}");
    assert!(matches!(status(&r, 0), AssertionStatus::Unknown(m) if m.contains("memset")));
}
