//! Cyclic regions (Qicc paper, Sec. 2) and the intraprocedural Region Nesting Tree
//! (Alg. 1 and Alg. 2, Sec. 3.1).
//!
//! A *region* here is a set of locations `L'` of one function with a single entry point, its
//! *head* `i`: every path from `entry` to a location of `L'` passes `i`, and after the last
//! visit of `i` stays in `L'` until it leaves `L'`. That is the property Theorem 1 needs.
//! `L'` is a cyclic SCC plus its *error tail*: the locations that only the SCC leads to and
//! that lead only to `err`/`halt` (where the IR's `assume !p; error #k` pair puts the location
//! between the condition and the error; see [`FunctionRegions`]' `add_error_tails`).
//! The edges of a region are all edges whose source is in `L'`:
//! - *internal* edges end in `L'` at a location other than the head,
//! - *back edges* end at the head (the paper's body removes them),
//! - *exits* end outside `L'` (at `exit`, `err`, `halt` or an ordinary location); the paper's
//!   final locations `L'_f` are their targets.
//!
//! A region's *body* is the region without its back edges (paper: `G''`). Extraction
//! ([`mod@crate::extract`]) runs the internal edges, and lets back edges and exits end the run
//! (after executing their operation), so everything that happens on an edge leaving a region
//! location — an assertion, a call — belongs to that region.
//!
//! Nesting follows Alg. 1/2 exactly for reducible code: Tarjan on a sub-automaton `γ`, every
//! SCC with more than one location is a cyclic region whose body becomes a child of `γ` and is
//! searched again (with the edges into its head removed, so the head no longer closes the
//! cycle). Choice for irreducible code, which the paper excludes: an SCC with several entry
//! points is **not** made a region (no single head dominates it, Theorem 1 would not hold);
//! the enclosing node records a note, and the search continues inside it with the edges into
//! all its entry points removed, so that reducible loops nested in irreducible code still get
//! their regions. Every region's single entry is checked against the whole reachable
//! automaton, never only against `γ`.

use crate::graph::{FunctionGraph, Scc};
use qicc_ir::{EdgeId, Function, Loc, Op};
use std::collections::HashSet;

/// Where a region sits in its function's nesting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Parent {
    Function,
    Region(usize),
}

/// A cyclic region found by the nesting search (an SCC of a sub-automaton with one entry).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Region {
    pub head: Loc,
    /// All its locations (the SCC and its error tail), ascending; includes the locations of
    /// nested regions.
    pub locs: Vec<Loc>,
    /// The locations of `locs` that are not in the SCC (see `add_error_tails`).
    pub tail: Vec<Loc>,
    /// Every edge leaving one of `locs` (internal edges, back edges and exits), ascending.
    pub edges: Vec<EdgeId>,
    /// Edges from `locs` to the head.
    pub back_edges: Vec<EdgeId>,
    /// Edges from `locs` to locations outside.
    pub exits: Vec<EdgeId>,
    /// Edges leaving its own locations (those in no nested region).
    pub own_edges: Vec<EdgeId>,
    pub parent: Parent,
    /// Indices of the regions nested directly inside, in source order.
    pub children: Vec<usize>,
    /// Irreducible cycles found directly inside (no region for them).
    pub notes: Vec<String>,
    /// Smallest and largest known source line of `edges`.
    pub lines: Option<(u32, u32)>,
}

/// The intraprocedural Region Nesting Tree of one function.
#[derive(Clone, Debug)]
pub struct FunctionRegions {
    pub graph: FunctionGraph,
    /// Every region, parents before children.
    pub regions: Vec<Region>,
    /// Regions not nested in another one, in source order.
    pub top: Vec<usize>,
    /// Reachable edges in no region (the function node's own edges).
    pub own_edges: Vec<EdgeId>,
    /// Irreducible cycles at function level, and unreachable code.
    pub notes: Vec<String>,
    /// Smallest and largest known source line of the reachable edges.
    pub lines: Option<(u32, u32)>,
}

impl FunctionRegions {
    /// Alg. 1 (RNT Gen) with Alg. 2 (InnerFinder) on one function.
    pub fn new(f: &Function) -> FunctionRegions {
        let graph = FunctionGraph::new(f);
        let mut out = FunctionRegions {
            regions: Vec::new(),
            top: Vec::new(),
            own_edges: Vec::new(),
            notes: Vec::new(),
            lines: None,
            graph,
        };
        let all: Vec<Loc> = f.locs().filter(|&l| out.graph.is_reachable(l)).collect();
        // The stack σ of Alg. 1: (node that receives what is found, locations, cut locations).
        let mut sigma: Vec<(Parent, Vec<Loc>, Vec<Loc>)> = vec![(Parent::Function, all, vec![])];
        while let Some((node, locs, cut)) = sigma.pop() {
            for scc in out.graph.sccs_of(f, &locs, &cut) {
                let Scc { locs, entries } = scc;
                if let [head] = entries[..] {
                    let idx = out.regions.len();
                    out.regions.push(Region {
                        head,
                        locs: locs.clone(),
                        tail: Vec::new(),
                        edges: Vec::new(),
                        back_edges: Vec::new(),
                        exits: Vec::new(),
                        own_edges: Vec::new(),
                        parent: node,
                        children: Vec::new(),
                        notes: Vec::new(),
                        lines: None,
                    });
                    match node {
                        Parent::Function => out.top.push(idx),
                        Parent::Region(p) => out.regions[p].children.push(idx),
                    }
                    sigma.push((Parent::Region(idx), locs, vec![head]));
                } else {
                    let note = format!(
                        "irreducible cycle at {} (entry points {}): no region",
                        lines_str(f, &locs),
                        entries
                            .iter()
                            .map(|l| l.to_string())
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                    match node {
                        Parent::Function => out.notes.push(note),
                        Parent::Region(p) => out.regions[p].notes.push(note),
                    }
                    sigma.push((node, locs, entries));
                }
            }
        }
        out.add_error_tails(f);
        out.fill_edges(f);
        out
    }

    /// Extends every region by its *error tails*: locations outside it whose predecessors are
    /// all in the region (or its tail) and from which every path ends in `err` or `halt`
    /// without reaching `exit` or any cycle. The IR puts an assertion's condition and its
    /// `error` on two edges (`assume !p` to a fresh location, then `error #k`), and that fresh
    /// location can never return to the head, so the SCC alone would leave the assertion out
    /// of its loop; the paper's automata have the edge `l -[!p]-> l_err` instead, with `l_err`
    /// in the region. Tails keep the single entry (their predecessors are inside), they are in
    /// no cycle (so in no other region), and a nested region's tail is in its parent's.
    fn add_error_tails(&mut self, f: &Function) {
        let g = &self.graph;
        // Locations from which `exit` or a cycle can be reached.
        let mut alive = vec![false; f.num_locs as usize];
        let mut stack: Vec<Loc> = vec![f.exit];
        for s in &g.sccs {
            stack.extend(s.locs.iter().copied());
        }
        for &l in &stack {
            alive[l.index()] = true;
        }
        while let Some(l) = stack.pop() {
            for &e in g.predecessors(l) {
                let from = f.edge(e).from;
                if g.is_reachable(from) && !alive[from.index()] {
                    alive[from.index()] = true;
                    stack.push(from);
                }
            }
        }
        let dead = |l: Loc| g.is_reachable(l) && !alive[l.index()] && !f.is_final(l);
        let mut tails = Vec::with_capacity(self.regions.len());
        for r in &self.regions {
            let mut member: HashSet<Loc> = r.locs.iter().copied().collect();
            let mut tail = Vec::new();
            let mut work: Vec<Loc> = r.locs.clone();
            while let Some(l) = work.pop() {
                for &e in g.successors(l) {
                    let u = f.edge(e).to;
                    let inside = |p: &EdgeId| {
                        let from = f.edge(*p).from;
                        member.contains(&from) || !g.is_reachable(from)
                    };
                    if !member.contains(&u) && dead(u) && g.predecessors(u).iter().all(inside) {
                        member.insert(u);
                        tail.push(u);
                        work.push(u);
                    }
                }
            }
            tail.sort();
            tails.push(tail);
        }
        for (r, tail) in self.regions.iter_mut().zip(tails) {
            r.locs.extend(tail.iter().copied());
            r.locs.sort();
            r.tail = tail;
        }
    }

    /// Edges, back edges, exits and own edges of every region, and the function's own edges.
    fn fill_edges(&mut self, f: &Function) {
        // The innermost region of each location (regions are listed parents first).
        let mut owner: Vec<Option<usize>> = vec![None; f.num_locs as usize];
        for (i, r) in self.regions.iter().enumerate() {
            for l in &r.locs {
                owner[l.index()] = Some(i);
            }
        }
        let mut unreachable = Vec::new();
        for id in f.edge_ids() {
            let e = f.edge(id);
            if !self.graph.is_reachable(e.from) {
                unreachable.push(id);
                continue;
            }
            let Some(inner) = owner[e.from.index()] else {
                self.own_edges.push(id);
                continue;
            };
            self.regions[inner].own_edges.push(id);
            let mut cur = Some(inner);
            while let Some(r) = cur {
                let region = &mut self.regions[r];
                region.edges.push(id);
                if e.to == region.head {
                    region.back_edges.push(id);
                } else if region.locs.binary_search(&e.to).is_err() {
                    region.exits.push(id);
                }
                cur = match region.parent {
                    Parent::Function => None,
                    Parent::Region(p) => Some(p),
                };
            }
        }
        if !unreachable.is_empty() {
            self.notes.push(format!(
                "unreachable code at {} ({} edges): in no region",
                lines_of_edges(f, &unreachable)
                    .map(|(a, b)| format!("lines {a}-{b}"))
                    .unwrap_or_else(|| "unknown lines".into()),
                unreachable.len()
            ));
        }
        let reachable: Vec<EdgeId> = crate::graph::edges_from(f, &self.graph.reachable);
        self.lines = lines_of_edges(f, &reachable);
        for r in &mut self.regions {
            r.lines = lines_of_edges(f, &r.edges);
        }
        // Children in source order (then by head, for code without line numbers).
        let keys: Vec<(u32, Loc)> = self
            .regions
            .iter()
            .map(|r| (r.lines.map_or(0, |(a, _)| a), r.head))
            .collect();
        self.top.sort_by_key(|&i| keys[i]);
        for r in &mut self.regions {
            r.children.sort_by_key(|&i| keys[i]);
        }
    }

    /// The region with this head.
    pub fn region_at(&self, head: Loc) -> Option<usize> {
        self.regions.iter().position(|r| r.head == head)
    }

    /// The assertion edges (`error #k`) among `edges`.
    pub fn assertions_in(f: &Function, edges: &[EdgeId]) -> Vec<qicc_ir::AssertionId> {
        let mut out: Vec<_> = edges
            .iter()
            .filter_map(|&e| match f.edge(e).op {
                Op::Error(a) => Some(a),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

/// The smallest and largest known source line of the edges.
pub fn lines_of_edges(f: &Function, edges: &[EdgeId]) -> Option<(u32, u32)> {
    let mut range: Option<(u32, u32)> = None;
    for &e in edges {
        let s = f.edge(e).span;
        if s.is_known() {
            range = Some(match range {
                None => (s.line, s.line),
                Some((a, b)) => (a.min(s.line), b.max(s.line)),
            });
        }
    }
    range
}

fn lines_str(f: &Function, locs: &[Loc]) -> String {
    let edges: Vec<EdgeId> = f
        .edge_ids()
        .filter(|&e| locs.binary_search(&f.edge(e).from).is_ok())
        .collect();
    match lines_of_edges(f, &edges) {
        Some((a, b)) if a == b => format!("line {a}"),
        Some((a, b)) => format!("lines {a}-{b}"),
        None => format!(
            "locations {}",
            locs.iter()
                .map(|l| l.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}
