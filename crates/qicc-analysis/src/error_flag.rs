//! Corral's error flag (Sec. 4.2): "assertions become `error := ¬e; if (error) return`, every
//! call is followed by `if (error) return`, and the query is `error` at the end of `main`".
//! After it, only the entry function has `error` edges, all at its end, so a checker that
//! looks at the end of the entry alone (stratified inlining) sees every assertion.
//!
//! qicc's assertions are already `assume ¬e; error #k` edges, so the rewriting is on the
//! `error` edges. A new global, zero-initialised, holds 0 (no error) or `k + 1` (assertion
//! `#k` failed): the paper's Boolean `error` is `flag != 0`, and the number keeps which
//! assertion failed. Its width is the smallest of 8, 16, 32 and 64 bits that holds every
//! `k + 1`. Then, in every function:
//! - an `error #k` edge becomes `flag := k + 1` into the function's exit (return at once);
//! - a call edge `L -> M` enters a new location `N`, with `N -> exit: assume flag != 0` and
//!   `N -> M: assume flag == 0` (the two are exclusive: no choice appears).
//!
//! The entry function's exit becomes an ordinary location `E` and a new location is the exit;
//! `E` dispatches: `assume flag == 0` to the new exit (the return value is untouched), and per
//! assertion `#k` that has an `error` edge anywhere, `assume flag == k + 1; error #k`. Those
//! assertions now belong to the entry function (`Assertion::func`); ids, kinds, spans stay.
//!
//! Invariant kept: every run of the result ends as the run of the input with the same oracle
//! answers does (the same assertion reached, the same value returned, the same halt, a block
//! at the same place), and both make the same nondeterministic requests in the same order:
//! rewritten edges keep their index and stay always enabled as `error` and `call` edges are,
//! every new edge leaves a new location, and the new branches are exclusive. After the flag is
//! set the run only returns, so nothing after it can ask the oracle, block or halt. A witness
//! of the result therefore replays on the input and vice versa, which is what the driver's
//! check does with every counterexample. The flag has an initialiser, so it asks no havoc.
//!
//! A frame's epilogue (its `free`s) is skipped on the way out after an error: nothing but
//! returns runs after it, so no run can observe the difference.

use qicc_ir::{
    AssertionId, BinOp, Expr, Function, Global, GlobalId, Loc, Op, Program, Span, Ty, VarRef,
};
use std::collections::BTreeSet;

/// The program with the error flag, and what the flag means.
#[derive(Clone, Debug)]
pub struct ErrorFlagged {
    pub program: Program,
    /// The flag: 0, or `k + 1` after assertion `#k` failed.
    pub flag: GlobalId,
    /// The assertions that had an `error` edge, in id order: each has one `error` edge at the
    /// end of the entry function now.
    pub assertions: Vec<AssertionId>,
}

impl ErrorFlagged {
    /// The flag's value that stands for assertion `a`.
    pub fn code(a: AssertionId) -> u64 {
        u64::from(a.0) + 1
    }
}

/// `p` with Corral's error flag: `error` edges only at the end of the entry function.
pub fn error_flag(p: &Program) -> ErrorFlagged {
    let mut out = p.clone();
    let assertions = failing_assertions(p);
    let ty = flag_ty(p.assertions.len());
    let flag = out.add_global(Global {
        name: fresh_global_name(p, "error.flag"),
        ty,
        unsigned: true,
        init: Some(Expr::konst(ty, 0)),
        span: Span::UNKNOWN,
    });
    for f in &mut out.functions {
        set_and_return(f, flag, ty);
        check_after_calls(f, flag, ty);
    }
    let entry = out.entry;
    if let Some(f) = out.functions.get_mut(entry.index()) {
        dispatch_at_exit(f, flag, ty, &assertions, &p.assertions);
    }
    for a in &assertions {
        if let Some(asr) = out.assertions.get_mut(a.index()) {
            asr.func = entry;
        }
    }
    ErrorFlagged {
        program: out,
        flag,
        assertions,
    }
}

/// Assertions with at least one `error` edge: those a run can report, so those the entry's
/// end must be able to report again.
fn failing_assertions(p: &Program) -> Vec<AssertionId> {
    let set: BTreeSet<AssertionId> = p
        .functions
        .iter()
        .flat_map(|f| &f.edges)
        .filter_map(|e| match e.op {
            Op::Error(a) => Some(a),
            _ => None,
        })
        .collect();
    set.into_iter().collect()
}

/// The narrowest of i8, i16, i32, i64 whose unsigned range holds `1..=n` (the codes of `n`
/// assertions). Ids are `u32`, so i64 always does.
fn flag_ty(n: usize) -> Ty {
    [8u16, 16, 32]
        .into_iter()
        .find(|&w| (n as u64) < (1u64 << w))
        .map_or(Ty::I64, Ty::Int)
}

/// `base`, or `base.N` for the first `N` that no global of `p` is named (a C program may have
/// a global of any name without a dot; a program flagged twice has one with).
fn fresh_global_name(p: &Program, base: &str) -> String {
    let taken = |n: &str| p.globals.iter().any(|g| g.name == n);
    if !taken(base) {
        return base.to_string();
    }
    (1u64..)
        .map(|i| format!("{base}.{i}"))
        .find(|n| !taken(n))
        .unwrap_or_else(|| base.to_string())
}

/// `assume flag OP value`.
fn assume_flag(flag: GlobalId, ty: Ty, op: BinOp, value: u64) -> Op {
    Op::Assume(Expr::binary(op, Expr::global(flag), Expr::konst(ty, value)))
}

/// `error #k` → `flag := k + 1` into exit, in place: the edge keeps its index (choices among
/// enabled edges count by edge order) and, like the `error` edge, is always enabled.
fn set_and_return(f: &mut Function, flag: GlobalId, ty: Ty) {
    let exit = f.exit;
    for e in &mut f.edges {
        if let Op::Error(a) = e.op {
            e.op = Op::Assign(VarRef::Global(flag), Expr::konst(ty, ErrorFlagged::code(a)));
            e.to = exit;
        }
    }
}

/// After each call, `if (flag != 0) return`: the call enters a new location whose two
/// exclusive `assume` edges go to the exit or on to the call's old target.
fn check_after_calls(f: &mut Function, flag: GlobalId, ty: Ty) {
    let exit = f.exit;
    // Only the edges there are now: the checks added below are no calls.
    for i in 0..f.edges.len() {
        if !matches!(f.edges[i].op, Op::Call { .. }) {
            continue;
        }
        let (cont, span) = (f.edges[i].to, f.edges[i].span);
        let after = f.new_loc();
        f.edges[i].to = after;
        f.add_edge(after, exit, assume_flag(flag, ty, BinOp::Ne, 0), span);
        f.add_edge(after, cont, assume_flag(flag, ty, BinOp::Eq, 0), span);
    }
}

/// The entry's old exit `E` becomes the query: `flag == 0` returns (through a new exit),
/// `flag == k + 1` fails assertion `#k` (at the assertion's span, for traces).
fn dispatch_at_exit(
    f: &mut Function,
    flag: GlobalId,
    ty: Ty,
    failing: &[AssertionId],
    assertions: &[qicc_ir::Assertion],
) {
    let end: Loc = f.exit;
    let exit = f.new_loc();
    f.exit = exit;
    let span = f.span;
    f.add_edge(end, exit, assume_flag(flag, ty, BinOp::Eq, 0), span);
    for &a in failing {
        let at = assertions.get(a.index()).map_or(span, |asr| asr.span);
        let report = f.new_loc();
        let code = ErrorFlagged::code(a);
        f.add_edge(end, report, assume_flag(flag, ty, BinOp::Eq, code), at);
        f.add_edge(report, f.err, Op::Error(a), at);
    }
}
