//! Natural loops of one function and the acyclic body each path is drawn from.
//!
//! A loop is a natural loop of `qicc_analysis::loops` (the union of the natural loops of all
//! back edges `j -> i` with the same head `i`). Its *body* is the analysis' body — the
//! sub-automaton of the loop's locations without any back edge, neither the edges into its
//! own head (the *closing* edges, which end one iteration) nor those of inner loops — without
//! the edges a loop path may not contain (calls, allocation, `free`, `memcpy`,
//! `memset`, `havoc_memory`, `error`, `halt`: their effect has no closed form here). A loop
//! path `π` is then a path of the body from the head followed by one closing edge.
//!
//! Invariant: for every loop returned, the body is acyclic. That holds for reducible code by
//! construction; a loop whose body still has a cycle (irreducible control flow inside it) is
//! reported as skipped instead, because the paper's construction needs a single head.

use qicc_analysis::graph::FunctionGraph;
use qicc_analysis::loops::topo_order;
use qicc_ir::{EdgeId, Function, Loc, Op};

/// One natural loop.
#[derive(Clone, Debug)]
pub(crate) struct LoopInfo {
    pub head: Loc,
    /// Number of other loops whose locations contain this head.
    pub depth: usize,
    /// Edges from a loop location into the head, in edge order.
    pub closing: Vec<EdgeId>,
    /// The acyclic body: allowed edges between loop locations that are not back edges.
    pub body: Vec<EdgeId>,
    /// The body's locations in a topological order starting at the head.
    pub topo: Vec<Loc>,
}

/// Whether an edge may be part of an accelerated path (see the module docs).
pub(crate) fn allowed_on_path(op: &Op) -> bool {
    matches!(
        op,
        Op::Skip
            | Op::NoWrap(_)
            | Op::Assign(..)
            | Op::Assume(_)
            | Op::Havoc(..)
            | Op::Store { .. }
    )
}

/// The loops of `f`, innermost first, and the heads skipped with the reason.
pub(crate) fn natural_loops(f: &Function) -> (Vec<LoopInfo>, Vec<(Loc, String)>) {
    let g = FunctionGraph::new(f);
    let mut loops = Vec::new();
    let mut skipped = Vec::new();
    for nl in &g.natural_loops {
        let allowed = |e: &EdgeId| allowed_on_path(&f.edge(*e).op);
        let closing: Vec<EdgeId> = nl.closing.iter().copied().filter(allowed).collect();
        let body: Vec<EdgeId> = nl.body.iter().copied().filter(allowed).collect();
        match topo_order(f, nl.head, &body) {
            Some(topo) => loops.push(LoopInfo {
                head: nl.head,
                depth: nl.depth,
                closing,
                body,
                topo,
            }),
            None => skipped.push((
                nl.head,
                "irreducible control flow inside the loop".to_string(),
            )),
        }
    }
    loops.sort_by(|a, b| b.depth.cmp(&a.depth).then(a.head.cmp(&b.head)));
    (loops, skipped)
}
