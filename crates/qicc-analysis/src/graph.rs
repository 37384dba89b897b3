//! The one control-flow analysis of a function's automaton, computed once and shared by every
//! engine (Cranelift's per-function CFG/dominator/loop analysis is the model): reachability
//! from `entry`, reverse post-order, dominators, back edges, reducibility, strongly connected
//! components and their entry points (Qicc paper, Sec. 2), and the loops of
//! [`crate::loops`] — the loop nesting forest and the natural loops.
//!
//! Invariant: every fact here is about the part of the automaton reachable from `entry`.
//! Unreachable locations have no dominators, are in no SCC, and their edges are never back
//! edges; they cannot make a function look irreducible or give a region a second entry.
//!
//! The algorithms themselves are petgraph's (`algo::tarjan_scc`,
//! `algo::dominators::simple_fast`); this module only builds the graphs they run on.

use crate::loops::{natural_loops, reverse_postorder, LoopForest, NaturalLoop};
use petgraph::algo::{dominators, tarjan_scc};
use petgraph::graph::{DiGraph, NodeIndex};
use qicc_ir::{EdgeId, Function, Loc};
use std::collections::HashMap;

/// A petgraph view of a set of edges of one function. Node `i` is location `Li`, so that
/// indices need no translation; locations outside the set are isolated nodes.
pub(crate) fn edge_graph(f: &Function, edges: impl IntoIterator<Item = EdgeId>) -> DiGraph<(), ()> {
    let mut g = DiGraph::with_capacity(f.num_locs as usize, f.edges.len());
    for _ in 0..f.num_locs {
        g.add_node(());
    }
    for id in edges {
        let e = f.edge(id);
        g.add_edge(
            NodeIndex::new(e.from.index()),
            NodeIndex::new(e.to.index()),
            (),
        );
    }
    g
}

/// The locations reachable from `entry` (indexed by location number).
pub fn reachable(f: &Function) -> Vec<bool> {
    if f.entry.0 >= f.num_locs {
        return vec![false; f.num_locs as usize];
    }
    reachable_from(f, &f.successors(), &[f.entry])
}

/// The locations reachable from any of `start` (themselves included) over `succ`.
pub fn reachable_from(f: &Function, succ: &[Vec<EdgeId>], start: &[Loc]) -> Vec<bool> {
    flood(f.num_locs as usize, start, |l| {
        succ[l.index()].iter().map(|&e| f.edge(e).to)
    })
}

/// The locations from which one of `targets` is reachable (themselves included), over the
/// predecessor lists `preds`.
pub fn coreachable(f: &Function, preds: &[Vec<EdgeId>], targets: &[Loc]) -> Vec<bool> {
    flood(f.num_locs as usize, targets, |l| {
        preds[l.index()].iter().map(|&e| f.edge(e).from)
    })
}

/// Every location reachable from `start` by `next` steps (a worklist search).
pub(crate) fn flood<I: Iterator<Item = Loc>>(
    n: usize,
    start: &[Loc],
    next: impl Fn(Loc) -> I,
) -> Vec<bool> {
    let mut seen = vec![false; n];
    let mut stack = Vec::new();
    for &l in start {
        if let Some(slot) = seen.get_mut(l.index()) {
            if !*slot {
                *slot = true;
                stack.push(l);
            }
        }
    }
    while let Some(l) = stack.pop() {
        for to in next(l) {
            if !seen[to.index()] {
                seen[to.index()] = true;
                stack.push(to);
            }
        }
    }
    seen
}

/// A strongly connected component of a (sub-)automaton, with more than one location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scc {
    /// Its locations, ascending.
    pub locs: Vec<Loc>,
    /// Its entry points in the whole reachable automaton (ascending): locations of the SCC with
    /// an edge from a reachable location outside it, and `entry` itself if it is in the SCC
    /// (every run starts there, as if entered from outside).
    pub entries: Vec<Loc>,
}

/// The control-flow analysis of one function (see the module docs).
#[derive(Clone, Debug)]
pub struct FunctionGraph {
    /// Reachable from `entry`, by location number.
    pub reachable: Vec<bool>,
    /// The reachable locations in reverse post-order (depth-first from `entry`, successors in
    /// edge order).
    pub rpo: Vec<Loc>,
    /// Each location's position in `rpo` (`u32::MAX`: unreachable).
    pub rpo_pos: Vec<u32>,
    /// Immediate dominator of each reachable location other than `entry`.
    pub idom: Vec<Option<Loc>>,
    /// The edges `j -> i` (both reachable) where `i` dominates `j`, ascending.
    pub back_edges: Vec<EdgeId>,
    /// Pre- and post-order numbers of each reachable location in the dominator tree.
    dom_interval: Vec<(u32, u32)>,
    succ: Vec<Vec<EdgeId>>,
    preds: Vec<Vec<EdgeId>>,
    /// The reachable automaton is acyclic once its back edges are removed.
    pub reducible: bool,
    /// The SCCs of the reachable automaton with more than one location, ordered by their
    /// smallest location.
    pub sccs: Vec<Scc>,
    /// The loop nesting forest (every cycle, irreducible ones too).
    pub forest: LoopForest,
    /// The natural loops of the dominator back edges, by head.
    pub natural_loops: Vec<NaturalLoop>,
}

impl FunctionGraph {
    pub fn new(f: &Function) -> FunctionGraph {
        let succ = f.successors();
        let (rpo, rpo_pos) = reverse_postorder(f, &succ);
        let reachable: Vec<bool> = rpo_pos.iter().map(|&p| p != u32::MAX).collect();
        let forest = LoopForest::new(f, &succ, &rpo_pos);
        let live: Vec<EdgeId> = edges_from(f, &reachable);
        let g = edge_graph(f, live.iter().copied());
        let mut idom = vec![None; f.num_locs as usize];
        if f.entry.0 < f.num_locs {
            let doms = dominators::simple_fast(&g, NodeIndex::new(f.entry.index()));
            for l in f.locs() {
                if reachable[l.index()] {
                    idom[l.index()] = doms
                        .immediate_dominator(NodeIndex::new(l.index()))
                        .map(|n| Loc(n.index() as u32));
                }
            }
        }
        let mut fg = FunctionGraph {
            reachable,
            rpo,
            rpo_pos,
            idom,
            back_edges: Vec::new(),
            dom_interval: Vec::new(),
            succ,
            preds: f.predecessors(),
            reducible: true,
            sccs: Vec::new(),
            forest,
            natural_loops: Vec::new(),
        };
        fg.number_dominator_tree();
        let mut is_back = vec![false; f.edges.len()];
        for &e in &live {
            if fg.dominates(f.edge(e).to, f.edge(e).from) {
                is_back[e.index()] = true;
                fg.back_edges.push(e);
            }
        }
        let forward = live.iter().copied().filter(|e| !is_back[e.index()]);
        let acyclic = edge_graph(f, forward);
        // A cycle left after removing back edges is a nontrivial SCC; self-loops are always
        // back edges (a location dominates itself), so none can remain.
        fg.reducible = tarjan_scc(&acyclic).iter().all(|c| c.len() == 1);
        fg.sccs = fg.sccs_of(f, &f.locs().collect::<Vec<_>>(), &[]);
        fg.natural_loops = natural_loops(f, &fg.preds, &fg.reachable, &fg.back_edges);
        fg
    }

    /// Predecessor lists of every location (indexed by location number).
    pub fn pred_lists(&self) -> &[Vec<EdgeId>] {
        &self.preds
    }

    pub fn is_reachable(&self, l: Loc) -> bool {
        self.reachable.get(l.index()).copied().unwrap_or(false)
    }

    /// Whether `a` dominates `b` (both reachable; every location dominates itself).
    /// Constant time: `a` dominates `b` iff `b`'s interval in a depth-first numbering of the
    /// dominator tree lies in `a`'s.
    pub fn dominates(&self, a: Loc, b: Loc) -> bool {
        if !self.is_reachable(a) || !self.is_reachable(b) {
            return false;
        }
        let (pa, pb) = (self.dom_interval[a.index()], self.dom_interval[b.index()]);
        pa.0 <= pb.0 && pb.1 <= pa.1
    }

    /// Numbers the dominator tree (pre-order entry, post-order exit), iteratively.
    fn number_dominator_tree(&mut self) {
        let n = self.idom.len();
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut root = None;
        for l in 0..n {
            if !self.reachable[l] {
                continue;
            }
            match self.idom[l] {
                Some(d) => children[d.index()].push(l),
                None => root = Some(l),
            }
        }
        self.dom_interval = vec![(0, 0); n];
        let Some(root) = root else { return };
        let mut clock = 0u32;
        // (location, next child to visit)
        let mut stack = vec![(root, 0usize)];
        self.dom_interval[root].0 = clock;
        while let Some(top) = stack.last_mut() {
            let (l, next) = *top;
            if let Some(&c) = children[l].get(next) {
                top.1 += 1;
                clock += 1;
                self.dom_interval[c].0 = clock;
                stack.push((c, 0));
            } else {
                clock += 1;
                self.dom_interval[l].1 = clock;
                stack.pop();
            }
        }
    }

    /// The dominators of a reachable location, from itself up to `entry`.
    pub fn dominators(&self, l: Loc) -> Vec<Loc> {
        let mut out = Vec::new();
        if !self.is_reachable(l) {
            return out;
        }
        let mut cur = Some(l);
        while let Some(x) = cur {
            out.push(x);
            cur = self.idom[x.index()];
        }
        out
    }

    /// Nontrivial SCCs of the sub-automaton made of the reachable locations in `locs` and the
    /// reachable edges between them, except edges entering a location of `cut`. Costs time in
    /// the size of `locs` and their edges, not of the whole function.
    pub fn sccs_of(&self, f: &Function, locs: &[Loc], cut: &[Loc]) -> Vec<Scc> {
        let inside: Vec<Loc> = locs
            .iter()
            .copied()
            .filter(|&l| self.is_reachable(l))
            .collect();
        let mut out: Vec<Scc> = components(f, &self.succ, &inside, cut)
            .into_iter()
            .filter(|c| c.len() > 1)
            .map(|mut locs| {
                locs.sort();
                let entries = self.entry_points(f, &locs);
                Scc { locs, entries }
            })
            .collect();
        out.sort_by_key(|s| s.locs[0]);
        out
    }

    /// The entry points of a set of locations (ascending) in the reachable automaton: members
    /// with an edge from a reachable non-member, plus `entry` when it is a member.
    pub fn entry_points(&self, f: &Function, locs: &[Loc]) -> Vec<Loc> {
        let member = |l: Loc| locs.binary_search(&l).is_ok();
        let mut out: Vec<Loc> = Vec::new();
        if member(f.entry) {
            out.push(f.entry);
        }
        for &l in locs {
            let Some(preds) = self.preds.get(l.index()) else {
                continue;
            };
            for &e in preds {
                let from = f.edge(e).from;
                if !member(from) && self.is_reachable(from) {
                    out.push(l);
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Outgoing edges of each location.
    pub fn successors(&self, l: Loc) -> &[EdgeId] {
        self.succ.get(l.index()).map_or(&[], Vec::as_slice)
    }

    /// Incoming edges of each location.
    pub fn predecessors(&self, l: Loc) -> &[EdgeId] {
        self.preds.get(l.index()).map_or(&[], Vec::as_slice)
    }
}

/// The strongly connected components (petgraph's Tarjan) of the sub-automaton made of the
/// locations `locs` and the edges between them, except edges entering a location of `cut`.
/// Costs time in the size of `locs` and their edges, not of the whole function.
pub(crate) fn components(
    f: &Function,
    succ: &[Vec<EdgeId>],
    locs: &[Loc],
    cut: &[Loc],
) -> Vec<Vec<Loc>> {
    let index: HashMap<Loc, usize> = locs.iter().enumerate().map(|(i, &l)| (l, i)).collect();
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(locs.len(), locs.len());
    for _ in locs {
        g.add_node(());
    }
    for (i, &l) in locs.iter().enumerate() {
        for &e in &succ[l.index()] {
            let to = f.edge(e).to;
            if let (Some(&j), false) = (index.get(&to), cut.contains(&to)) {
                g.add_edge(NodeIndex::new(i), NodeIndex::new(j), ());
            }
        }
    }
    tarjan_scc(&g)
        .into_iter()
        .map(|c| c.iter().map(|n| locs[n.index()]).collect())
        .collect()
}

/// The edges leaving the locations marked in `reachable` (for the reachable locations: the
/// edges a run can take; compare `reach::reachable_edges`, the same over a whole program).
pub fn edges_from(f: &Function, reachable: &[bool]) -> Vec<EdgeId> {
    f.edge_ids()
        .filter(|&e| reachable[f.edge(e).from.index()])
        .collect()
}

impl FunctionGraph {
    /// A readable summary (tests, `qicc cfa`): unreachable locations, immediate dominators,
    /// back edges, reducibility and SCCs with their entry points.
    pub fn summary(&self, f: &Function) -> String {
        use std::fmt::Write;
        let list = |ls: &[Loc]| {
            ls.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let mut out = String::new();
        let unreachable: Vec<Loc> = f.locs().filter(|&l| !self.is_reachable(l)).collect();
        let _ = writeln!(out, "fn @{}", f.name);
        if !unreachable.is_empty() {
            let _ = writeln!(out, "  unreachable: {}", list(&unreachable));
        }
        let idoms: Vec<String> = f
            .locs()
            .filter_map(|l| self.idom[l.index()].map(|d| format!("{l}:{d}")))
            .collect();
        let _ = writeln!(out, "  idom: {}", idoms.join(" "));
        let backs: Vec<String> = self
            .back_edges
            .iter()
            .map(|&e| format!("{}->{}", f.edge(e).from, f.edge(e).to))
            .collect();
        let _ = writeln!(out, "  back edges: {}", backs.join(" "));
        let _ = writeln!(out, "  reducible: {}", self.reducible);
        for s in &self.sccs {
            let _ = writeln!(
                out,
                "  scc {{{}}} entries {{{}}}",
                list(&s.locs),
                list(&s.entries)
            );
        }
        let _ = writeln!(out, "  rpo: {}", list(&self.rpo));
        let edges = |es: &[EdgeId]| {
            es.iter()
                .map(|&e| format!("{}->{}", f.edge(e).from, f.edge(e).to))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for (i, lp) in self.forest.loops.iter().enumerate() {
            let members = self.forest.members(i as u32);
            let locs: Vec<Loc> = f.locs().filter(|l| members[l.index()]).collect();
            let parent = lp.parent.map_or("-".to_string(), |p| format!("#{p}"));
            let _ = writeln!(
                out,
                "  loop #{i} header {} parent {parent} {{{}}}",
                lp.header,
                list(&locs)
            );
        }
        for nl in &self.natural_loops {
            let _ = writeln!(
                out,
                "  natural {} depth {} {{{}}} closing {{{}}} body {{{}}} exits {{{}}}",
                nl.head,
                nl.depth,
                list(&nl.locs),
                edges(&nl.closing),
                edges(&nl.body),
                edges(&nl.exits)
            );
        }
        out
    }
}
