//! Which locals a function may read before writing them (live variables, backward may-analysis).
//!
//! Extraction uses it to decide which locals of a region get an arbitrary value at the region's
//! entry: a local that every path writes before reading cannot influence the run, whatever its
//! value, so leaving it out of the havocs loses no behaviour. Globals and memory are not
//! tracked here (extraction makes all of them arbitrary).

use qicc_ir::{Function, Loc, LocalId, Op, VarRef};
use std::collections::BTreeSet;

fn local_uses(op: &Op) -> BTreeSet<LocalId> {
    let mut out = BTreeSet::new();
    op.exprs(&mut |e| {
        for v in e.vars() {
            if let VarRef::Local(l) = v {
                out.insert(l);
            }
        }
    });
    out
}

fn local_def(op: &Op) -> Option<LocalId> {
    match op.def() {
        Some(VarRef::Local(l)) => Some(l),
        _ => None,
    }
}

/// The locals live at `at`: read on some path from `at` before any write to them. Final
/// locations have nothing live (a returned value is read by the caller, which extraction
/// drops; [`Function::ret`] is deliberately not counted).
pub fn live_locals_at(f: &Function, at: Loc) -> Vec<LocalId> {
    let n = f.num_locs as usize;
    let mut live: Vec<BTreeSet<LocalId>> = vec![BTreeSet::new(); n];
    let preds = f.predecessors();
    let mut work: Vec<Loc> = f.locs().collect();
    let mut queued = vec![true; n];
    let succ = f.successors();
    while let Some(l) = work.pop() {
        queued[l.index()] = false;
        let mut now = BTreeSet::new();
        for &id in &succ[l.index()] {
            let e = f.edge(id);
            let mut after = live[e.to.index()].clone();
            if let Some(d) = local_def(&e.op) {
                after.remove(&d);
            }
            now.extend(after);
            // Operands are read before the destination is written (`%x := add(%x, 1)`).
            now.extend(local_uses(&e.op));
        }
        if now != live[l.index()] {
            live[l.index()] = now;
            for &p in &preds[l.index()] {
                let from = f.edge(p).from;
                if !queued[from.index()] {
                    queued[from.index()] = true;
                    work.push(from);
                }
            }
        }
    }
    live.get(at.index())
        .map(|s| s.iter().copied().collect())
        .unwrap_or_default()
}
