//! The loops of one function, in the two views qicc's engines need, computed once with its
//! [`FunctionGraph`](crate::graph::FunctionGraph).
//!
//! - The **loop nesting forest** ([`LoopForest`], Havlak/Ramalingam) covers *every* cycle,
//!   irreducible ones too (a `goto` into a loop): every strongly connected component of the
//!   reachable automaton is a loop whose *header* is its location first in reverse post-order
//!   (the first one a depth-first search from the entry reaches); the loops nested in it are
//!   the components of the same locations without that header. Users: the BMC's unwinding
//!   bounds, the interval facts' widening points, the BMC's iteration hints.
//! - **Natural loops** ([`NaturalLoop`]) are the reducible loops of the Qicc and Impulse
//!   papers: per head `i`, the union of the natural loops of the back edges `j -> i` (`i`
//!   dominates `j`). Users: Impulse's acceleration, which needs one head that every path into
//!   the loop passes.
//!
//! Invariants the forest keeps (the BMC relies on them):
//! - loops nest: the loops containing a location form a chain, outermost first, and the loops
//!   containing both ends of an edge are a common prefix of their chains;
//! - an edge is a back edge of the forest (enters a header from inside its loop) exactly when
//!   it retreats in reverse post-order, so every cycle takes one, and the headers are exactly
//!   the targets of retreating edges — the widening points of an abstract interpreter;
//! - a header heads exactly one loop, and that loop is the last of its chain.
//!
//! Unreachable locations are in no loop and have no position in the order.

use crate::graph::{components, flood};
use qicc_ir::{EdgeId, Function, Loc, Span};

/// One loop of the nesting forest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForestLoop {
    pub header: Loc,
    /// The loop directly containing this one.
    pub parent: Option<u32>,
    /// Where to point the user: the first known source position on the header's edges.
    pub span: Span,
}

/// The loop nesting forest of one function (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopForest {
    /// Parents before children.
    pub loops: Vec<ForestLoop>,
    /// The loops containing each location, outermost first (indices into `loops`).
    pub chain: Vec<Vec<u32>>,
    /// The loop each location heads, if it is a header.
    pub header_of: Vec<Option<u32>>,
}

impl LoopForest {
    /// The forest of `f`, given its successor lists and the reverse post-order position of
    /// each location (`u32::MAX`: unreachable).
    pub(crate) fn new(f: &Function, succ: &[Vec<EdgeId>], rpo: &[u32]) -> LoopForest {
        let n = f.num_locs as usize;
        let mut forest = LoopForest {
            loops: Vec::new(),
            chain: vec![Vec::new(); n],
            header_of: vec![None; n],
        };
        let reachable: Vec<Loc> = f.locs().filter(|l| rpo[l.index()] != u32::MAX).collect();
        // Work list of (location set, enclosing loop); each round strips one header, so this
        // ends after (nesting depth + 1) rounds over each location.
        let mut work: Vec<(Vec<Loc>, Option<u32>)> = vec![(reachable, None)];
        while let Some((set, parent)) = work.pop() {
            for comp in components(f, succ, &set, &[]) {
                let cyclic = comp.len() > 1
                    || succ[comp[0].index()]
                        .iter()
                        .any(|e| f.edge(*e).to == comp[0]);
                if !cyclic {
                    continue;
                }
                let Some(&header) = comp.iter().min_by_key(|l| rpo[l.index()]) else {
                    continue;
                };
                let id = forest.loops.len() as u32;
                let span = succ[header.index()]
                    .iter()
                    .map(|e| f.edge(*e).span)
                    .find(|s| s.is_known())
                    .unwrap_or(f.span);
                forest.loops.push(ForestLoop {
                    header,
                    parent,
                    span,
                });
                forest.header_of[header.index()] = Some(id);
                for &l in &comp {
                    forest.chain[l.index()].push(id);
                }
                let inner: Vec<Loc> = comp.into_iter().filter(|&l| l != header).collect();
                if !inner.is_empty() {
                    work.push((inner, Some(id)));
                }
            }
        }
        forest
    }

    /// Length of the common prefix of the loop chains of `a` and `b` (the loops containing
    /// both).
    pub fn common_loops(&self, a: Loc, b: Loc) -> usize {
        self.chain[a.index()]
            .iter()
            .zip(&self.chain[b.index()])
            .take_while(|(x, y)| x == y)
            .count()
    }

    /// The loop whose back edge `from -> to` is, if it is one.
    pub fn back_edge_loop(&self, from: Loc, to: Loc) -> Option<u32> {
        let l = self.header_of[to.index()]?;
        self.chain[from.index()].contains(&l).then_some(l)
    }

    /// Whether `l` heads a loop (a widening point: every cycle passes one).
    pub fn is_header(&self, l: Loc) -> bool {
        self.header_of.get(l.index()).is_some_and(Option::is_some)
    }

    /// Membership of each location in loop `id`.
    pub fn members(&self, id: u32) -> Vec<bool> {
        self.chain.iter().map(|c| c.contains(&id)).collect()
    }
}

/// Reverse post-order of the locations reachable from `entry` (successors in edge order):
/// the order itself, and each location's position in it (`u32::MAX`: unreachable).
pub(crate) fn reverse_postorder(f: &Function, succ: &[Vec<EdgeId>]) -> (Vec<Loc>, Vec<u32>) {
    let n = f.num_locs as usize;
    let mut pos = vec![u32::MAX; n];
    if f.entry.index() >= n {
        return (Vec::new(), pos);
    }
    let mut visited = vec![false; n];
    let mut post = Vec::with_capacity(n);
    // (location, next successor to look at)
    let mut stack = vec![(f.entry.0, 0usize)];
    visited[f.entry.index()] = true;
    while let Some(top) = stack.last_mut() {
        let (l, i) = *top;
        if let Some(e) = succ[l as usize].get(i) {
            top.1 += 1;
            let to = f.edge(*e).to.0;
            if !visited[to as usize] {
                visited[to as usize] = true;
                stack.push((to, 0));
            }
        } else {
            post.push(Loc(l));
            stack.pop();
        }
    }
    post.reverse();
    for (i, l) in post.iter().enumerate() {
        pos[l.index()] = i as u32;
    }
    (post, pos)
}

/// A natural loop: every dominator back edge into one head, with the union of their natural
/// loops (the head, and every reachable location that reaches a back edge's source without
/// passing the head).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaturalLoop {
    pub head: Loc,
    /// Its locations, ascending.
    pub locs: Vec<Loc>,
    /// Number of other natural loops whose locations contain this head.
    pub depth: usize,
    /// Edges from a loop location into the head, in edge order: they end one iteration.
    pub closing: Vec<EdgeId>,
    /// The edges between loop locations that are neither closing edges nor back edges of an
    /// inner loop, in edge order. Acyclic unless irreducible control flow lies inside the loop.
    pub body: Vec<EdgeId>,
    /// Edges from a loop location to a location outside, in edge order.
    pub exits: Vec<EdgeId>,
}

/// The natural loops of `f`, ordered by head. `back_edges` are the dominator back edges.
pub(crate) fn natural_loops(
    f: &Function,
    preds: &[Vec<EdgeId>],
    reachable: &[bool],
    back_edges: &[EdgeId],
) -> Vec<NaturalLoop> {
    let n = f.num_locs as usize;
    let mut heads: Vec<Loc> = back_edges.iter().map(|&e| f.edge(e).to).collect();
    heads.sort();
    heads.dedup();
    let members: Vec<Vec<bool>> = heads
        .iter()
        .map(|&head| {
            // Backwards from the back edges' sources, never past the head.
            let mut start = vec![head];
            start.extend(
                back_edges
                    .iter()
                    .filter(|&&e| f.edge(e).to == head)
                    .map(|&e| f.edge(e).from),
            );
            flood(n, &start, |a| {
                preds[a.index()]
                    .iter()
                    .filter(move |_| a != head)
                    .map(|&p| f.edge(p).from)
                    .filter(|b| reachable[b.index()])
            })
        })
        .collect();
    let mut is_back = vec![false; f.edges.len()];
    for &be in back_edges {
        is_back[be.index()] = true;
    }
    heads
        .iter()
        .enumerate()
        .map(|(i, &head)| {
            let inside = &members[i];
            let depth = (0..heads.len())
                .filter(|&k| k != i && members[k][head.index()])
                .count();
            let (mut closing, mut body, mut exits) = (Vec::new(), Vec::new(), Vec::new());
            for id in f.edge_ids() {
                let e = f.edge(id);
                if !inside[e.from.index()] {
                    continue;
                }
                if !inside[e.to.index()] {
                    exits.push(id);
                } else if e.to == head {
                    closing.push(id);
                } else if !is_back[id.index()] {
                    body.push(id);
                }
            }
            NaturalLoop {
                head,
                locs: f.locs().filter(|l| inside[l.index()]).collect(),
                depth,
                closing,
                body,
                exits,
            }
        })
        .collect()
}

/// A topological order of the locations reachable from `start` over `edges`, or `None` if
/// those edges have a cycle reachable from `start`.
pub fn topo_order(f: &Function, start: Loc, edges: &[EdgeId]) -> Option<Vec<Loc>> {
    let n = f.num_locs as usize;
    let mut succ: Vec<Vec<Loc>> = vec![Vec::new(); n];
    for &id in edges {
        let e = f.edge(id);
        succ[e.from.index()].push(e.to);
    }
    // Iterative depth-first search with colours: 0 new, 1 on the stack, 2 done.
    let mut colour = vec![0u8; n];
    let mut post = Vec::new();
    let mut stack: Vec<(Loc, usize)> = vec![(start, 0)];
    colour[start.index()] = 1;
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
