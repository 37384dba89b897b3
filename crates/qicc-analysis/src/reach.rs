//! Interprocedural reachability on a whole program, ignoring every condition (any edge may be
//! taken; a call is assumed to return): which functions and edges a run from the entry can
//! reach, and from which locations an `error` edge or the function's `exit` can be reached.
//!
//! Invariant: every answer over-approximates what an execution can do — an edge marked
//! unreachable is taken by no execution, and a location from which no error is marked
//! reachable starts no execution (in its activation or after returning to a caller that can
//! still reach one) that violates anything. Engines use it to answer "safe by structure" and
//! to drop states that no extension can make fail.

use crate::graph::coreachable;
use qicc_ir::{AssertionId, EdgeId, FuncId, Loc, Op, Program};
use std::collections::{BTreeSet, VecDeque};

/// The entry and every function it may call, transitively: entry first, then in id order.
pub fn reachable_functions(p: &Program) -> Vec<FuncId> {
    let mut seen = BTreeSet::new();
    let mut queue = VecDeque::from([p.entry]);
    while let Some(f) = queue.pop_front() {
        if p.functions.get(f.index()).is_some() && seen.insert(f) {
            queue.extend(p.function(f).callees());
        }
    }
    let mut out = vec![p.entry];
    out.extend(seen.into_iter().filter(|&f| f != p.entry));
    out
}

/// Per function, per edge: whether an execution from the program's entry can take it.
pub fn reachable_edges(p: &Program) -> Vec<Vec<bool>> {
    let mut reach_loc: Vec<Vec<bool>> = p
        .functions
        .iter()
        .map(|f| vec![false; f.num_locs as usize])
        .collect();
    let succs: Vec<Vec<Vec<EdgeId>>> = p.functions.iter().map(|f| f.successors()).collect();
    let mut edges: Vec<Vec<bool>> = p
        .functions
        .iter()
        .map(|f| vec![false; f.edges.len()])
        .collect();
    let mut work: Vec<(usize, Loc)> = Vec::new();
    let visit = |g: usize, loc: Loc, reach_loc: &mut Vec<Vec<bool>>, work: &mut Vec<_>| {
        if let Some(slot) = reach_loc.get_mut(g).and_then(|v| v.get_mut(loc.index())) {
            if !*slot {
                *slot = true;
                work.push((g, loc));
            }
        }
    };
    if let Some(f) = p.functions.get(p.entry.index()) {
        visit(p.entry.index(), f.entry, &mut reach_loc, &mut work);
    }
    while let Some((fi, l)) = work.pop() {
        let f = &p.functions[fi];
        for &e in &succs[fi][l.index()] {
            edges[fi][e.index()] = true;
            let edge = f.edge(e);
            if let Op::Call { callee, .. } = &edge.op {
                if let Some(g) = p.functions.get(callee.index()) {
                    visit(callee.index(), g.entry, &mut reach_loc, &mut work);
                }
            }
            visit(fi, edge.to, &mut reach_loc, &mut work);
        }
    }
    edges
}

/// The assertions with an error edge that [`reachable_edges`] marks reachable; the others
/// cannot be violated.
pub fn reachable_assertions(p: &Program, edges: &[Vec<bool>]) -> BTreeSet<AssertionId> {
    let mut out = BTreeSet::new();
    for (fi, f) in p.functions.iter().enumerate() {
        for (ei, e) in f.edges.iter().enumerate() {
            if let Op::Error(a) = e.op {
                if edges[fi].get(ei).copied().unwrap_or(false) {
                    out.insert(a);
                }
            }
        }
    }
    out
}

/// Per function, per location: whether an `error` edge can be reached from it within its
/// activation (a call reaches one if its callee's entry can: a fixpoint over the call graph),
/// and whether the function's `exit` can.
#[derive(Clone, Debug)]
pub struct Relevance {
    pub err_from: Vec<Vec<bool>>,
    pub exit_from: Vec<Vec<bool>>,
}

impl Relevance {
    pub fn new(p: &Program) -> Relevance {
        let preds: Vec<Vec<Vec<EdgeId>>> = p.functions.iter().map(|f| f.predecessors()).collect();
        let mut fn_err = vec![false; p.functions.len()];
        let mut err_from: Vec<Vec<bool>> = Vec::new();
        loop {
            let mut changed = false;
            err_from.clear();
            for (fi, f) in p.functions.iter().enumerate() {
                let hits: Vec<Loc> = f
                    .edges
                    .iter()
                    .filter(|e| match &e.op {
                        Op::Error(_) => true,
                        Op::Call { callee, .. } => {
                            fn_err.get(callee.index()).copied().unwrap_or(true)
                        }
                        _ => false,
                    })
                    .map(|e| e.from)
                    .collect();
                let err = coreachable(f, &preds[fi], &hits);
                if err.get(f.entry.index()).copied().unwrap_or(false) && !fn_err[fi] {
                    fn_err[fi] = true;
                    changed = true;
                }
                err_from.push(err);
            }
            if !changed {
                break;
            }
        }
        let exit_from = p
            .functions
            .iter()
            .enumerate()
            .map(|(fi, f)| coreachable(f, &preds[fi], &[f.exit]))
            .collect();
        Relevance {
            err_from,
            exit_from,
        }
    }
}
