//! Iteration hints: a guess, per loop, of how many back-edges one entry can take.
//!
//! Deepening unwinds every loop K = 1, 2, 3, 4, 6, … times, and each step costs a full symbolic
//! execution and solver calls; a loop `for (i = 0; i < 200; i++)` then needs a dozen steps. The
//! hint lets the second step unwind such a loop to its real trip count at once. A hint is only
//! ever a *schedule*: completeness is still decided by the unwinding check (every cut path must
//! be infeasible), so a wrong hint costs time, never soundness.
//!
//! The guess: a variable `v` tested by an exit condition of the loop, changed inside the loop
//! only by `v := v + k` (one sign of `k`, constants; copies through temporaries as the front-end
//! writes `i++` are looked through), with at least one such change on every cycle through the
//! header, and an interval for `v` at the header from [`qicc_facts`]: then each iteration moves
//! `v` by at least |k| inside that interval, so at most `width / |k| + 1` back-edges are taken.

use qicc_facts::Facts;
use qicc_ir::{BinOp, EdgeId, Expr, FuncId, Loc, Op, Program, VarRef};
use qicc_symex::FnInfo;
use std::collections::HashMap;

/// Hints per (function, loop index of [`FnInfo::loops`]).
pub(crate) fn loop_hints(p: &Program, info: &[FnInfo]) -> HashMap<(FuncId, u32), u32> {
    // No loop, no hint: the interval analysis would only cost time (hundreds of globals).
    if info.iter().all(|i| i.loops().is_empty()) {
        return HashMap::new();
    }
    let flows: Vec<_> = info.iter().map(|i| &i.flow).collect();
    let facts = Facts::analyze_with(p, &flows);
    let mut out = HashMap::new();
    for fid in p.function_ids() {
        let fi = &info[fid.index()];
        for (li, lp) in fi.loops().iter().enumerate() {
            let li = li as u32;
            let in_loop = fi.flow.forest.members(li);
            if let Some(h) = hint(p, fid, fi, lp.header, &in_loop, &facts) {
                out.insert((fid, li), h);
            }
        }
    }
    out
}

fn hint(
    p: &Program,
    fid: FuncId,
    fi: &FnInfo,
    header: Loc,
    in_loop: &[bool],
    facts: &Facts,
) -> Option<u32> {
    let f = p.function(fid);
    let loop_edges: Vec<EdgeId> = f
        .edge_ids()
        .filter(|e| in_loop[f.edge(*e).from.index()])
        .collect();
    // Variables tested on the way out of the loop.
    let mut candidates: Vec<VarRef> = Vec::new();
    for &e in &loop_edges {
        let edge = f.edge(e);
        if let Op::Assume(c) = &edge.op {
            if !in_loop[edge.to.index()] {
                for v in c.vars() {
                    if !candidates.contains(&v) {
                        candidates.push(v);
                    }
                }
            }
        }
    }
    let writes_globals = loop_edges
        .iter()
        .any(|e| matches!(f.edge(*e).op, Op::Call { .. }));
    candidates
        .into_iter()
        .filter(|v| !(writes_globals && matches!(v, VarRef::Global(_))))
        .filter_map(|v| {
            let step = step_of(f, &loop_edges, v)?;
            if !cuts_every_cycle(f, fi, header, in_loop, &step.edges) {
                return None;
            }
            let val = facts.value(fid, header, v)?;
            let (lo, hi) = if val.s != qicc_facts::domain::signed_full(val.w) {
                (val.s.lo, val.s.hi)
            } else if val.u != qicc_facts::domain::unsigned_full(val.w) {
                (val.u.lo, val.u.hi)
            } else {
                return None;
            };
            let trips = (hi - lo) / step.min_abs + 1;
            u32::try_from(trips).ok()
        })
        .min()
}

struct Step {
    edges: Vec<EdgeId>,
    min_abs: i128,
}

/// The edges that change `v` inside the loop, if each is `v := v + k` with constants `k` of
/// one sign (and nothing else writes `v`).
fn step_of(f: &qicc_ir::Function, loop_edges: &[EdgeId], v: VarRef) -> Option<Step> {
    // Temporaries that only ever hold a copy of `v` (the front-end's `tmp := i; i := tmp + 1`).
    let mut copies: HashMap<VarRef, usize> = HashMap::new();
    let mut other_defs: HashMap<VarRef, usize> = HashMap::new();
    for &e in loop_edges {
        match &f.edge(e).op {
            Op::Assign(t, Expr::Var(src)) if *src == v && *t != v => {
                *copies.entry(*t).or_default() += 1
            }
            op => {
                if let Some(d) = op.def() {
                    *other_defs.entry(d).or_default() += 1;
                }
            }
        }
    }
    let is_copy = |t: VarRef| copies.get(&t) == Some(&1) && !other_defs.contains_key(&t);
    let mut edges = Vec::new();
    let mut sign = 0i8;
    let mut min_abs = i128::MAX;
    for &e in loop_edges {
        let op = &f.edge(e).op;
        if op.def() != Some(v) {
            continue;
        }
        let Op::Assign(_, rhs) = op else { return None };
        let Expr::Binary(bop @ (BinOp::Add | BinOp::Sub), a, b) = rhs else {
            return None;
        };
        let base_ok = match a.as_ref() {
            Expr::Var(x) => *x == v || is_copy(*x),
            _ => false,
        };
        let Some(k) = b.as_const() else { return None };
        if !base_ok {
            return None;
        }
        let Expr::Const { ty, .. } = b.as_ref() else {
            return None;
        };
        let mut k = qicc_ir::semantics::to_signed(k, ty.bits()) as i128;
        if *bop == BinOp::Sub {
            k = -k;
        }
        if k == 0 {
            return None;
        }
        let s = if k > 0 { 1 } else { -1 };
        if sign != 0 && sign != s {
            return None;
        }
        sign = s;
        min_abs = min_abs.min(k.abs());
        edges.push(e);
    }
    (!edges.is_empty()).then_some(Step { edges, min_abs })
}

/// Whether removing `cut` leaves no path from the header back to it inside the loop.
fn cuts_every_cycle(
    f: &qicc_ir::Function,
    fi: &FnInfo,
    header: Loc,
    in_loop: &[bool],
    cut: &[EdgeId],
) -> bool {
    let mut seen = vec![false; f.num_locs as usize];
    let mut stack = vec![header];
    seen[header.index()] = true;
    while let Some(l) = stack.pop() {
        for &e in fi.succ(l) {
            if cut.contains(&e) {
                continue;
            }
            let to = f.edge(e).to;
            if to == header {
                return false;
            }
            if in_loop[to.index()] && !seen[to.index()] {
                seen[to.index()] = true;
                stack.push(to);
            }
        }
    }
    true
}
