//! Keeping undefined values unobserved: ⊥ flags and memory overlays (paper, Sec. 3.3).
//!
//! An accelerated path leaves two kinds of state the instrumented program must not use as if
//! it were real:
//! - a variable without closed form gets an arbitrary value and its flag `impulse.bot.x` is
//!   set (the paper's ⊥ as a Boolean flag);
//! - an array update with no IR operation is kept as an *overlay*: the range `[lo, lo + len)`
//!   whose element at `lo + W·k` holds a known polynomial in `k`, while the bytes in memory
//!   keep their old values.
//!
//! The paper dismisses counterexamples whose feasibility depends on ⊥; this pass makes the
//! instrumented program itself dismiss them, so that every run of it is a run of the original
//! (up to ⊥ values nobody reads). Every edge outside the instrumentation's own bookkeeping is
//! guarded:
//! - it is *blocked* (an `assume` that fails) if it reads a flagged variable; a call, or a
//!   return from a function other than the entry function, is blocked while any *global* is
//!   flagged (the callee or the caller could read it); writing a variable clears its flag;
//! - a load is *redirected*: when it reads exactly one element of an active overlay it yields
//!   the overlay's value (or the value a later store put there, see [`Patch`]), and it is
//!   blocked when it overlaps an active overlay otherwise;
//! - a store of exactly one element into an active overlay is recorded in a [`Patch`] (and
//!   still written to memory); with no patch left, or overlapping the overlay otherwise, it
//!   is blocked;
//! - anything else that could read or change overlaid memory behind the overlay's back is
//!   blocked while the overlay is active: `memset` and `memcpy` overlapping it, `free`,
//!   `havoc_memory`, calls of functions that touch memory, returns (non-entry functions),
//!   and entering the same accelerated path again.
//!
//! Why this is sound: blocking only removes runs. A run that is not blocked never reads a ⊥
//! variable before overwriting it, so replacing the arbitrary value by the real one changes
//! nothing it does; and it reads overlaid memory only through the redirection, which yields
//! exactly what the original program's `n` stores wrote, while nothing else touched those
//! bytes since except through recorded patches (everything else that could is blocked).
//! Flags, overlays and patches are locals of the function activation, which starts with
//! them false.

use crate::build::{and, and_all, bin, int, ite, mul, not, or, or_all, resize, sub};
use crate::fnbuild::FnBuilder;
use crate::poly::{Poly, J_TY};
use qicc_ir::{BinOp, EdgeId, Expr, LocalId, Op, Ty, VarRef};
use std::collections::{HashMap, HashSet};

/// The locals of one overlay.
#[derive(Clone, Debug)]
pub(crate) struct OverlaySlot {
    pub on: LocalId,
    pub lo: LocalId,
    /// Length in bytes (`n · width`).
    pub len: LocalId,
    pub n: LocalId,
    /// The element value at iteration `j`; its coefficients are constants or locals set by
    /// the accelerated path.
    pub value: Poly,
    pub width: u32,
    pub value_ty: Ty,
    pub decreasing: bool,
    /// Elements overwritten while the overlay is active (see [`Patch`]).
    pub patches: Vec<Patch>,
}

/// One element of an active overlay that a later store replaced: its address and value.
/// A store of exactly one element into the overlay takes the patch of that address, or a
/// free one; with no patch left it is blocked. Loads read a matching patch first. Addresses
/// of patches in use are distinct, so at most one matches.
#[derive(Clone, Debug)]
pub(crate) struct Patch {
    pub on: LocalId,
    pub addr: LocalId,
    pub value: LocalId,
    /// Scratch: this patch is the one the current store takes.
    pub take: LocalId,
}

/// Patches per overlay: the BMC runs the code after an acceleration only a few iterations
/// deep, so few elements are overwritten on any path it explores.
pub(crate) const PATCHES: usize = 2;

pub(crate) struct Input<'a> {
    pub flags: &'a HashMap<VarRef, LocalId>,
    pub overlays: &'a [OverlaySlot],
    /// Bookkeeping edges of the instrumentation, left alone.
    pub skip: &'a HashSet<EdgeId>,
    pub is_entry: bool,
    /// Per function of the program: may read or write memory contents.
    pub touches_memory: &'a [bool],
}

pub(crate) fn apply(fb: &mut FnBuilder, inp: &Input) {
    if inp.flags.is_empty() && inp.overlays.is_empty() {
        return;
    }
    let ptr = fb.program.pointer_ty();
    let exit = fb.func.exit;
    let flagged_globals: Vec<LocalId> = inp
        .flags
        .iter()
        .filter(|(v, _)| matches!(v, VarRef::Global(_)))
        .map(|(_, f)| *f)
        .collect();
    let count = fb.func.edges.len();
    for i in 0..count {
        let id = EdgeId(i as u32);
        if inp.skip.contains(&id) {
            continue;
        }
        let edge = fb.func.edges[i].clone();
        let mut guards: Vec<Expr> = Vec::new();
        let mut patch_ops: Vec<Op> = Vec::new();
        let op = edge
            .op
            .map_exprs(&mut |x| redirect_loads(x, inp.overlays, ptr, &mut guards));
        let mut reads = Vec::new();
        edge.op.exprs(&mut |x| reads.extend(x.vars()));
        for v in reads {
            if let Some(f) = inp.flags.get(&v) {
                guards.push(not(Expr::local(*f)));
            }
        }
        let off = |s: &OverlaySlot| not(Expr::local(s.on));
        match &op {
            Op::Call { callee, .. } => {
                guards.extend(flagged_globals.iter().map(|f| not(Expr::local(*f))));
                if inp
                    .touches_memory
                    .get(callee.index())
                    .copied()
                    .unwrap_or(true)
                {
                    guards.extend(inp.overlays.iter().map(off));
                }
            }
            Op::Store { ty, addr, value } => {
                for s in inp.overlays {
                    let bytes = (ty.bits() / 8) as u64;
                    let (ok, updates) = patch_store(s, *ty, addr, value, ptr);
                    guards.push(or(off(s), or(not(overlaps(s, addr, bytes, ptr)), ok)));
                    patch_ops.extend(updates);
                }
            }
            Op::MemSet { dst, len, .. } | Op::HavocBytes { dst, len } => {
                for s in inp.overlays {
                    guards.push(or(off(s), disjoint(s, dst, len, ptr)));
                }
            }
            Op::MemCopy { dst, src, len } => {
                for s in inp.overlays {
                    guards.push(or(
                        off(s),
                        and(disjoint(s, dst, len, ptr), disjoint(s, src, len, ptr)),
                    ));
                }
            }
            Op::Free(_) | Op::HavocMemory | Op::HavocContents => {
                guards.extend(inp.overlays.iter().map(off))
            }
            _ => {}
        }
        if edge.to == exit && !inp.is_entry {
            guards.extend(flagged_globals.iter().map(|f| not(Expr::local(*f))));
            guards.extend(inp.overlays.iter().map(off));
        }
        let clears: Vec<Op> = op
            .def()
            .and_then(|d| inp.flags.get(&d))
            .map(|f| Op::Assign(VarRef::Local(*f), Expr::bool(false)))
            .into_iter()
            .collect();
        let g = and_all(guards);
        if g.is_true() && clears.is_empty() && patch_ops.is_empty() && op == edge.op {
            continue;
        }
        if let (Op::Assume(c), true) = (&op, clears.is_empty()) {
            fb.func.edges[i].op = Op::Assume(and(g, c.clone()));
            continue;
        }
        let mut pre = Vec::new();
        if !g.is_true() {
            pre.push(Op::Assume(g));
        }
        pre.extend(patch_ops);
        pre.extend(clears);
        if !pre.is_empty() {
            let at = fb.func.new_loc();
            fb.chain(edge.from, pre, at, edge.span);
            fb.func.edges[i].from = at;
        }
        fb.func.edges[i].op = op;
    }
}

/// Whether a store of `ty` at `p` writes exactly one element of the overlay, which must
/// then have a patch to take; and the assignments that record it (reading the state before
/// the store, so they run right before it).
fn patch_store(s: &OverlaySlot, ty: Ty, p: &Expr, value: &Expr, ptr: Ty) -> (Expr, Vec<Op>) {
    let bytes = (ty.bits() / 8) as u64;
    if bytes != s.width as u64 || ty != s.value_ty || s.patches.is_empty() {
        return (Expr::bool(false), Vec::new());
    }
    let exact = exact_element(s, p, ptr);
    let matches: Vec<Expr> = s.patches.iter().map(|q| matches_patch(q, p)).collect();
    let any_match = or_all(matches.iter().cloned());
    let mut taken_free = Expr::bool(false);
    let mut takes = Vec::new();
    for (q, m) in s.patches.iter().zip(&matches) {
        let free = not(Expr::local(q.on));
        let first_free = and(free.clone(), not(taken_free.clone()));
        taken_free = or(taken_free, free);
        takes.push(and(
            and(Expr::local(s.on), exact.clone()),
            ite(any_match.clone(), m.clone(), first_free),
        ));
    }
    let room = or(any_match, taken_free);
    let mut ops = Vec::new();
    // The choice first, for every patch, so that no update changes another's choice.
    for (q, t) in s.patches.iter().zip(takes) {
        ops.push(Op::Assign(VarRef::Local(q.take), t));
    }
    for q in &s.patches {
        let t = Expr::local(q.take);
        let set =
            |l: LocalId, e: Expr| Op::Assign(VarRef::Local(l), ite(t.clone(), e, Expr::local(l)));
        ops.push(set(q.value, value.clone()));
        ops.push(set(q.addr, p.clone()));
        ops.push(Op::Assign(
            VarRef::Local(q.on),
            or(Expr::local(q.on), t.clone()),
        ));
    }
    (and(exact, room), ops)
}

fn matches_patch(q: &Patch, p: &Expr) -> Expr {
    and(
        Expr::local(q.on),
        bin(BinOp::Eq, Expr::local(q.addr), p.clone()),
    )
}

/// `p` is the start of an element inside the overlay's range.
fn exact_element(s: &OverlaySlot, p: &Expr, ptr: Ty) -> Expr {
    let d = sub(p.clone(), Expr::local(s.lo));
    and(
        bin(BinOp::Ult, d.clone(), Expr::local(s.len)),
        bin(
            BinOp::Eq,
            bin(BinOp::URem, d, int(ptr, s.width as u64)),
            int(ptr, 0),
        ),
    )
}

/// `[p, p + bytes)` meets the overlay's range.
fn overlaps(s: &OverlaySlot, p: &Expr, bytes: u64, ptr: Ty) -> Expr {
    let lo = Expr::local(s.lo);
    let inside = bin(BinOp::Ult, sub(p.clone(), lo.clone()), Expr::local(s.len));
    let before = bin(BinOp::Ult, sub(lo, p.clone()), int(ptr, bytes));
    or(inside, before)
}

/// `[p, p + len)` and the overlay's range are disjoint (neither contains the other's start).
fn disjoint(s: &OverlaySlot, p: &Expr, len: &Expr, _ptr: Ty) -> Expr {
    let lo = Expr::local(s.lo);
    let empty = bin(BinOp::Eq, len.clone(), int(_ptr, 0));
    let p_out = bin(BinOp::Ule, Expr::local(s.len), sub(p.clone(), lo.clone()));
    let lo_out = bin(BinOp::Ule, len.clone(), sub(lo, p.clone()));
    or(empty, and(p_out, lo_out))
}

/// Rewrites every load of `e` through the overlays, collecting the guards that block loads
/// partially overlapping one.
fn redirect_loads(e: &Expr, overlays: &[OverlaySlot], ptr: Ty, guards: &mut Vec<Expr>) -> Expr {
    if overlays.is_empty() {
        return e.clone();
    }
    e.rewrite(&mut |x| match x {
        Expr::Load(ty, addr) => {
            let bytes = (ty.bits() / 8) as u64;
            let mut value = Expr::Load(ty, addr.clone());
            for s in overlays {
                let on = Expr::local(s.on);
                let d = sub((*addr).clone(), Expr::local(s.lo));
                let exact = if bytes == s.width as u64 && ty == s.value_ty {
                    exact_element(s, &addr, ptr)
                } else {
                    Expr::bool(false)
                };
                guards.push(or(
                    not(on.clone()),
                    or(not(overlaps(s, &addr, bytes, ptr)), exact.clone()),
                ));
                if exact.is_false() {
                    continue;
                }
                let k = resize(false, ptr, J_TY, element_index(d, bytes, ptr));
                let j = if s.decreasing {
                    sub(sub(Expr::local(s.n), int(J_TY, 1)), k)
                } else {
                    k
                };
                let element = s.patches.iter().fold(s.value.at(&j), |acc, q| {
                    ite(matches_patch(q, &addr), Expr::local(q.value), acc)
                });
                value = ite(and(on, exact), element, value);
            }
            value
        }
        other => other,
    })
}

/// `d / width` (a shift for powers of two).
fn element_index(d: Expr, width: u64, ptr: Ty) -> Expr {
    if width.is_power_of_two() {
        bin(BinOp::LShr, d, int(ptr, width.trailing_zeros() as u64))
    } else {
        bin(BinOp::UDiv, d, int(ptr, width))
    }
}

/// Per function: whether it (or anything it calls) reads or writes memory contents.
pub(crate) fn touches_memory(program: &qicc_ir::Program) -> Vec<bool> {
    let n = program.functions.len();
    let mut touches = vec![false; n];
    for (i, f) in program.functions.iter().enumerate() {
        touches[i] = f.edges.iter().any(|e| {
            let mut loads = false;
            e.op.exprs(&mut |x| loads |= x.reads_memory());
            loads
                || matches!(
                    e.op,
                    Op::Store { .. }
                        | Op::MemSet { .. }
                        | Op::HavocBytes { .. }
                        | Op::MemCopy { .. }
                        | Op::Free(_)
                        | Op::HavocMemory
                        | Op::HavocContents
                )
        });
    }
    loop {
        let mut changed = false;
        for (i, f) in program.functions.iter().enumerate() {
            if !touches[i]
                && f.callees()
                    .iter()
                    .any(|c| touches.get(c.index()).copied().unwrap_or(true))
            {
                touches[i] = true;
                changed = true;
            }
        }
        if !changed {
            return touches;
        }
    }
}

/// The overlay's length in bytes, `n · width`.
pub(crate) fn overlay_len(s: &OverlaySlot, ptr: Ty) -> Expr {
    mul(
        resize(false, J_TY, ptr, Expr::local(s.n)),
        int(ptr, s.width as u64),
    )
}
