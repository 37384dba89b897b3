//! IR in, instrumented IR out: one program per closed-form shape, memory effect, split and
//! overflow guard (paper Sec. 3–4). The snapshots are reviewed by reading; what to look for
//! is said above each test.

mod common;
use common::report;

const HEADER: &str = "qicc-ir 1\ndata-model ilp32 object-bits 8\n";

fn program(objects: &str, locals: &str, locs: u32, edges: &str) -> String {
    format!(
        "{HEADER}{objects}entry @main\n\nfn @main(%n) -> %ret {{\n  local %ret: i32\n  local %n: i32\n{locals}  locs {locs} entry L0 exit L1 err L2 halt L3\n{edges}}}\n"
    )
}

/// `for (i = 0; i < n; i++)`: `i(j) = i + j`; the guard keeps `i + n` inside i32.
#[test]
fn constant_increment() {
    let src = program(
        "",
        "  local %i: i32\n",
        7,
        "  L0 -> L4: %i := 0:i32\n  L4 -> L5: assume slt(%i, %n)\n  L4 -> L6: assume sle(%n, %i)\n  L5 -> L4: %i := add(%i, 1:i32)\n  L6 -> L1: %ret := %i\n",
    );
    insta::assert_snapshot!(report(&src));
}

/// `x += k` with `k` not assigned in the loop: `x(j) = x + k·j`, with a symbolic step.
#[test]
fn increment_by_invariant_variable() {
    let src = program(
        "",
        "  local %i: i32\n  local %x: i32\n  local %k: i32\n",
        8,
        "  L0 -> L4: %i := 0:i32\n  L4 -> L5: assume slt(%i, %n)\n  L4 -> L6: assume sle(%n, %i)\n  L5 -> L7: %x := add(%x, %k)\n  L7 -> L4: %i := add(%i, 1:i32)\n  L6 -> L1: %ret := %x\n",
    );
    insta::assert_snapshot!(report(&src));
}

/// `s += i; i++`: `s` grows quadratically, `s(j) = s + i·j + j(j−1)/2` (the γ·n term of
/// eq. 1 in the binomial basis).
#[test]
fn quadratic_sum() {
    let src = program(
        "",
        "  local %i: i32\n  local %s: i32\n",
        8,
        "  L0 -> L4: %i := 0:i32\n  L4 -> L5: assume slt(%i, %n)\n  L4 -> L6: assume sle(%n, %i)\n  L5 -> L7: %s := add(%s, %i)\n  L7 -> L4: %i := add(%i, 1:i32)\n  L6 -> L1: %ret := %s\n",
    );
    insta::assert_snapshot!(report(&src));
}

/// `x = 2x − x + y; y++`: not of the form `x + δ`, so syntactic matching fails; the
/// constraint-based method finds `x(j) = x + y·j + j(j−1)/2`.
#[test]
fn constraint_based_where_syntax_fails() {
    let src = program(
        "",
        "  local %x: i32\n  local %y: i32\n",
        8,
        "  L0 -> L4: %y := 0:i32\n  L4 -> L5: assume slt(%y, %n)\n  L4 -> L6: assume sle(%n, %y)\n  L5 -> L7: %x := add(sub(mul(%x, 2:i32), %x), %y)\n  L7 -> L4: %y := add(%y, 1:i32)\n  L6 -> L1: %ret := %x\n",
    );
    let out = report(&src);
    assert!(out.contains("constraint-based"), "{out}");
    insta::assert_snapshot!(out);
}

/// `y = y * y` has no polynomial closed form: `y` becomes ⊥ (havoc + flag) and the read of
/// `y` after the loop is blocked while the flag is set.
#[test]
fn no_closed_form_is_bottom() {
    let src = program(
        "",
        "  local %i: i32\n  local %y: i32\n",
        8,
        "  L0 -> L4: %i := 0:i32\n  L4 -> L5: assume slt(%i, %n)\n  L4 -> L6: assume sle(%n, %i)\n  L5 -> L7: %y := mul(%y, %y)\n  L7 -> L4: %i := add(%i, 1:i32)\n  L6 -> L1: %ret := %y\n",
    );
    let out = report(&src);
    assert!(out.contains("impulse.bot.y"), "{out}");
    insta::assert_snapshot!(out);
}

/// `a[i] = i; b[i] = 7` (dense, increasing, disjoint arrays): the `int` array's effect is an
/// overlay read back through every later load, the byte array's a `memset`; the guard keeps
/// the two written ranges disjoint.
#[test]
fn dense_increasing_stores() {
    let src = program(
        "object @a size 400 zeroed\nobject @b size 100 zeroed\n",
        "  local %i: i32\n",
        12,
        concat!(
            "  L0 -> L4: %i := 0:i32\n",
            "  L4 -> L5: assume slt(%i, 100:i32)\n",
            "  L4 -> L6: assume sle(100:i32, %i)\n",
            "  L5 -> L7: assume valid.4(add(@a, mul(%i, 4:i32)))\n",
            "  L7 -> L8: store.i32 add(@a, mul(%i, 4:i32)), %i\n",
            "  L8 -> L9: assume valid.1(add(@b, %i))\n",
            "  L9 -> L10: store.i8 add(@b, %i), 7:i8\n",
            "  L10 -> L4: %i := add(%i, 1:i32)\n",
            "  L6 -> L1: %ret := load.i32(add(@a, mul(%n, 4:i32)))\n",
        ),
    );
    let out = report(&src);
    assert!(out.contains("overlay") && out.contains("memset"), "{out}");
    insta::assert_snapshot!(out);
}

/// `buf[i] = c; buf[i + 1] = d; i += 2` writes every byte, but each store skips every other
/// one (stride 2, width 1): not dense, not accelerated.
#[test]
fn strided_stores_are_not_accelerated() {
    let src = program(
        "object @b size 100 zeroed\n",
        "  local %i: i32\n",
        10,
        concat!(
            "  L0 -> L4: %i := 0:i32\n",
            "  L4 -> L5: assume slt(%i, 98:i32)\n",
            "  L4 -> L6: assume sle(98:i32, %i)\n",
            "  L5 -> L7: store.i8 add(@b, %i), 92:i8\n",
            "  L7 -> L8: store.i8 add(@b, add(%i, 1:i32)), 32:i8\n",
            "  L8 -> L4: %i := add(%i, 2:i32)\n",
            "  L6 -> L1: %ret := %i\n",
        ),
    );
    let out = report(&src);
    assert!(out.contains("; skipped loop at L4"), "{out}");
    assert!(out.contains("moves by 2 bytes"), "{out}");
}

/// `while (x != 10) x++`: `ne` is not convex; it is split into `x < 10` and `10 < x`
/// (Fig. 4), one accelerated path each.
#[test]
fn split_of_not_equal() {
    let src = program(
        "",
        "  local %x: i32\n",
        7,
        "  L4 -> L5: assume ne(%x, 10:i32)\n  L4 -> L6: assume eq(%x, 10:i32)\n  L5 -> L4: %x := add(%x, 1:i32)\n  L6 -> L1: %ret := %x\n  L0 -> L4: %x := %n\n",
    );
    let out = report(&src);
    assert_eq!(out.matches("; acceleration").count(), 2, "{out}");
    insta::assert_snapshot!(out);
}

/// An 8-bit counter: the accelerated path admits only `n` with `c + n ≤ 255` (or ≤ 127
/// read as signed) — see also `tests/soundness.rs`, which runs it.
#[test]
fn u8_counter_overflow_guard() {
    let src = program(
        "",
        "  local %c: i8\n  local %t: i32\n",
        8,
        concat!(
            "  L0 -> L4: %c := 0:i8\n",
            "  L4 -> L7: havoc %t nondet \"__VERIFIER_nondet_int\"\n",
            "  L7 -> L5: assume ne(%t, 0:i32)\n",
            "  L7 -> L6: assume eq(%t, 0:i32)\n",
            "  L5 -> L4: %c := add(%c, 1:i8)\n",
            "  L6 -> L1: %ret := zext.i32(%c)\n",
        ),
    );
    insta::assert_snapshot!(report(&src));
}
