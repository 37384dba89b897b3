//! Natural loops of one function and the acyclic body each path is drawn from.
//!
//! A loop is the union of the natural loops of all back edges `j -> i` with the same head `i`
//! (`i` dominates `j`; dominators and natural loops come from `qicc-analysis`). Its *body* is
//! the sub-automaton of the loop's locations without any back edge — neither the edges into
//! its own head (the *closing* edges, which end one iteration) nor those of inner loops — and
//! without the edges a loop path may not contain (calls, allocation, `free`, `memcpy`,
//! `memset`, `havoc_memory`, `error`, `halt`: their effect has no closed form here). A loop
//! path `π` is then a path of the body from the head followed by one closing edge.
//!
//! Invariant: for every loop returned, the body is acyclic. That holds for reducible code by
//! construction; a loop whose body still has a cycle (irreducible control flow inside it) is
//! reported as skipped instead, because the paper's construction needs a single head.

use qicc_analysis::graph::FunctionGraph;
use qicc_analysis::region::cyclic_region;
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
    let mut heads: Vec<Loc> = Vec::new();
    let mut members: Vec<Vec<bool>> = Vec::new();
    for &be in &g.back_edges {
        let Some(region) = cyclic_region(f, &g, be) else {
            continue;
        };
        let slot = match heads.iter().position(|h| *h == region.head) {
            Some(i) => i,
            None => {
                heads.push(region.head);
                members.push(vec![false; f.num_locs as usize]);
                heads.len() - 1
            }
        };
        for l in region.locs {
            members[slot][l.index()] = true;
        }
    }
    let is_back: Vec<bool> = {
        let mut v = vec![false; f.edges.len()];
        for &be in &g.back_edges {
            v[be.index()] = true;
        }
        v
    };
    let mut loops = Vec::new();
    let mut skipped = Vec::new();
    for (i, &head) in heads.iter().enumerate() {
        let in_loop = members[i].clone();
        let depth = heads
            .iter()
            .enumerate()
            .filter(|&(k, _)| k != i && members[k][head.index()])
            .count();
        let mut closing = Vec::new();
        let mut body = Vec::new();
        for id in f.edge_ids() {
            let e = f.edge(id);
            if !in_loop[e.from.index()] || !in_loop[e.to.index()] {
                continue;
            }
            if e.to == head {
                if allowed_on_path(&e.op) {
                    closing.push(id);
                }
            } else if !is_back[id.index()] && allowed_on_path(&e.op) {
                body.push(id);
            }
        }
        match topo_order(f, head, &body) {
            Some(topo) => loops.push(LoopInfo {
                head,
                depth,
                closing,
                body,
                topo,
            }),
            None => skipped.push((head, "irreducible control flow inside the loop".to_string())),
        }
    }
    loops.sort_by(|a, b| b.depth.cmp(&a.depth).then(a.head.cmp(&b.head)));
    (loops, skipped)
}

/// A topological order of the locations reachable from `head` over `edges`, or `None` if
/// those edges have a cycle.
fn topo_order(f: &Function, head: Loc, edges: &[EdgeId]) -> Option<Vec<Loc>> {
    let n = f.num_locs as usize;
    let mut succ: Vec<Vec<Loc>> = vec![Vec::new(); n];
    for &id in edges {
        let e = f.edge(id);
        succ[e.from.index()].push(e.to);
    }
    // Iterative depth-first search with colours: 0 new, 1 on the stack, 2 done.
    let mut colour = vec![0u8; n];
    let mut post = Vec::new();
    let mut stack: Vec<(Loc, usize)> = vec![(head, 0)];
    colour[head.index()] = 1;
    while let Some(top) = stack.last_mut() {
        let (l, i) = *top;
        if let Some(&next) = succ[l.index()].get(i) {
            top.1 += 1;
            match colour[next.index()] {
                0 => {
                    colour[next.index()] = 1;
                    stack.push((next, 0));
                }
                1 => return None,
                _ => {}
            }
        } else {
            colour[l.index()] = 2;
            post.push(l);
            stack.pop();
        }
    }
    post.reverse();
    Some(post)
}
