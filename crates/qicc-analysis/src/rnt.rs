//! The interprocedural Region Nesting Tree (paper, Fig. 1): function nodes and region nodes.
//!
//! The root is the function node of `program.entry`. Under a node hang the regions nested
//! directly in it and, for every function called from the node's *own* edges (edges leaving a
//! location of the node that is in no child region), one function node for that callee: a
//! function with several calling contexts appears once under each. Calls on edges in unreachable
//! code make no child.
//!
//! Choices, and the invariant gambling relies on:
//! - A node *holds directly* the assertions whose `error` edge is one of its own edges.
//!   [`Rnt::innermost_nodes`] gives, for each calling context, the node holding the assertion
//!   directly. Every execution that violates an assertion maps, through its call stack and the
//!   locations of its frames, to a path of the (infinite, unfolded) tree ending at a node that
//!   holds it directly; proving the assertion safe in some ancestor-or-self of *every*
//!   innermost node therefore proves it safe in the program (Theorem 1 for each frame).
//! - Recursion: a function already on the path from the root is not expanded again; its node is
//!   marked `recursive` and holds nothing directly. The unfolding below it repeats the subtree
//!   of the ancestor node of the same function, and extraction does not depend on the calling
//!   context, so a proof at any node of that ancestor's subtree, or above it, covers the
//!   repeated contexts too. Its transitive assertions are the function's (through calls).
//! - Size: the tree is cut at [`MAX_NODES`] nodes. A function node that is not expanded for
//!   that reason holds all of its function's assertions (through calls) *directly*, so that the
//!   contexts below it are still covered by a proof at it (whole-function extraction) or above.
//! - An assertion in no node (its edge is in unreachable code, or in a function the entry never
//!   calls) cannot be violated: [`Rnt::innermost_nodes`] is empty for it.

use crate::region::{lines_of_edges, FunctionRegions};
use petgraph::algo::tarjan_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use qicc_ir::{AssertionId, EdgeId, FuncId, Loc, Op, Program};
use std::collections::BTreeSet;
use std::fmt;

/// Stack of the thread running the per-function analyses (see [`build_rnt`]).
const ANALYSIS_STACK: usize = 1 << 30;

/// More nodes than this are not built (a note says where the tree was cut).
pub const MAX_NODES: usize = 50_000;

/// Index into [`Rnt::nodes`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Display for NodeId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "n{}", self.0)
    }
}

/// A region of one function, named by its head: `main/L7`. A head identifies the region
/// within its function (nested regions have different heads, siblings are disjoint), and it
/// does not depend on the calling context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RegionId {
    pub func: FuncId,
    pub head: Loc,
}

impl RegionId {
    /// `func/L<head>`, e.g. `main/L7`.
    pub fn name(&self, program: &Program) -> String {
        format!("{}/{}", func_name(program, self.func), self.head)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NodeKind {
    Function(FuncId),
    Region(RegionId),
}

#[derive(Clone, Debug)]
pub struct RntNode {
    pub kind: NodeKind,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    /// For a function node under a parent: the call edges (in the parent's function) of the
    /// parent's own edges that call it.
    pub call_sites: Vec<EdgeId>,
    /// Smallest and largest source line of the node's edges (including nested regions').
    pub lines: Option<(u32, u32)>,
    /// Assertions whose `error` edge is one of the node's own edges (see the module docs for
    /// unexpanded function nodes).
    pub direct: Vec<AssertionId>,
    /// Assertions reachable inside the node: its own, its child regions' and its callees'.
    pub assertions: Vec<AssertionId>,
    /// A function already on the path from the root: not expanded.
    pub recursive: bool,
    /// Not expanded because the tree reached [`MAX_NODES`].
    pub truncated: bool,
    /// Irreducible cycles, unreachable code, recursion, truncation.
    pub notes: Vec<String>,
}

impl RntNode {
    pub fn func(&self) -> FuncId {
        match self.kind {
            NodeKind::Function(f) => f,
            NodeKind::Region(r) => r.func,
        }
    }

    pub fn region(&self) -> Option<RegionId> {
        match self.kind {
            NodeKind::Region(r) => Some(r),
            NodeKind::Function(_) => None,
        }
    }
}

/// The interprocedural Region Nesting Tree of a program.
#[derive(Clone, Debug)]
pub struct Rnt {
    /// In pre-order: a parent comes before its children.
    pub nodes: Vec<RntNode>,
    pub root: NodeId,
    /// The intraprocedural analysis of every function, by `FuncId`.
    pub functions: Vec<FunctionRegions>,
}

pub(crate) fn func_name(p: &Program, f: FuncId) -> &str {
    p.functions
        .get(f.index())
        .map(|f| f.name.as_str())
        .unwrap_or("?")
}

/// Builds the tree of a well-formed program (one that passes `qicc_ir::verify_program`).
pub fn build_rnt(program: &Program) -> Rnt {
    // petgraph's Tarjan recurses once per location on a depth-first path: a function with a
    // long straight line of code needs a deep stack, so the per-function analyses run on a
    // thread with one of its own (virtual memory; only what is used is committed).
    let analyse =
        || -> Vec<FunctionRegions> { program.functions.iter().map(FunctionRegions::new).collect() };
    let functions = std::thread::scope(|s| {
        let handle = std::thread::Builder::new()
            .name("qicc-analysis".into())
            .stack_size(ANALYSIS_STACK)
            .spawn_scoped(s, analyse)
            .ok()?;
        Some(match handle.join() {
            Ok(f) => f,
            Err(panic) => std::panic::resume_unwind(panic),
        })
    })
    // No thread could be made: analyse on this one.
    .unwrap_or_else(analyse);
    let through_calls = assertions_through_calls(program, &functions);
    let mut b = Builder {
        program,
        functions: &functions,
        through_calls: &through_calls,
        nodes: Vec::new(),
    };
    let root = b.build(program.entry);
    Rnt {
        nodes: b.nodes,
        root,
        functions,
    }
}

/// Per function: the assertions reachable in it or (transitively) in what it calls, counting
/// only reachable edges.
fn assertions_through_calls(p: &Program, fr: &[FunctionRegions]) -> Vec<BTreeSet<AssertionId>> {
    let n = p.functions.len();
    let mut cg: DiGraph<(), ()> = DiGraph::with_capacity(n, 0);
    for _ in 0..n {
        cg.add_node(());
    }
    let mut sets: Vec<BTreeSet<AssertionId>> = vec![BTreeSet::new(); n];
    for (i, f) in p.functions.iter().enumerate() {
        for e in &f.edges {
            if !fr[i].graph.is_reachable(e.from) {
                continue;
            }
            match &e.op {
                Op::Error(a) => {
                    sets[i].insert(*a);
                }
                Op::Call { callee, .. } => {
                    cg.add_edge(NodeIndex::new(i), NodeIndex::new(callee.index()), ());
                }
                _ => {}
            }
        }
    }
    // tarjan_scc lists callee components before their callers.
    for comp in tarjan_scc(&cg) {
        let mut acc = BTreeSet::new();
        for &v in &comp {
            acc.extend(sets[v.index()].iter().copied());
            for w in cg.neighbors(v) {
                acc.extend(sets[w.index()].iter().copied());
            }
        }
        for &v in &comp {
            sets[v.index()] = acc.clone();
        }
    }
    sets
}

struct Builder<'a> {
    program: &'a Program,
    functions: &'a [FunctionRegions],
    through_calls: &'a [BTreeSet<AssertionId>],
    nodes: Vec<RntNode>,
}

/// What a node is made of before it gets its number.
enum Pending {
    Function {
        func: FuncId,
        call_sites: Vec<EdgeId>,
    },
    Region {
        func: FuncId,
        region: usize,
    },
}

impl Builder<'_> {
    fn build(&mut self, entry: FuncId) -> NodeId {
        // Explicit stack: call chains can be long.
        let mut stack = vec![(
            None,
            Pending::Function {
                func: entry,
                call_sites: vec![],
            },
        )];
        let mut root = None;
        while let Some((parent, pending)) = stack.pop() {
            let id = NodeId(self.nodes.len() as u32);
            root.get_or_insert(id);
            let children = self.make_node(id, parent, pending);
            if let Some(p) = parent {
                self.nodes[p.index()].children.push(id);
            }
            // Push in reverse so that children are numbered in order.
            for c in children.into_iter().rev() {
                stack.push((Some(id), c));
            }
        }
        self.fill_assertions();
        root.expect("the stack starts with the root")
    }

    fn on_path(&self, mut cur: Option<NodeId>, func: FuncId) -> bool {
        while let Some(n) = cur {
            let node = &self.nodes[n.index()];
            if node.kind == NodeKind::Function(func) {
                return true;
            }
            cur = node.parent;
        }
        false
    }

    /// Creates node `id` and returns the children to create under it.
    fn make_node(&mut self, id: NodeId, parent: Option<NodeId>, pending: Pending) -> Vec<Pending> {
        let p = self.program;
        let (kind, call_sites, func) = match &pending {
            Pending::Function { func, call_sites } => {
                (NodeKind::Function(*func), call_sites.clone(), *func)
            }
            Pending::Region { func, region } => {
                let head = self.functions[func.index()].regions[*region].head;
                (
                    NodeKind::Region(RegionId { func: *func, head }),
                    vec![],
                    *func,
                )
            }
        };
        let f = p.function(func);
        let fr = &self.functions[func.index()];
        let mut node = RntNode {
            kind,
            parent,
            children: Vec::new(),
            call_sites,
            lines: None,
            direct: Vec::new(),
            assertions: Vec::new(),
            recursive: false,
            truncated: false,
            notes: Vec::new(),
        };
        let (own, regions, lines, notes): (&[EdgeId], &[usize], _, &[String]) = match &pending {
            Pending::Function { .. } => (&fr.own_edges, &fr.top, fr.lines, &fr.notes),
            Pending::Region { region, .. } => {
                let r = &fr.regions[*region];
                (&r.own_edges, &r.children, r.lines, &r.notes)
            }
        };
        node.lines = lines;
        if matches!(pending, Pending::Function { .. }) {
            if self.on_path(parent, func) {
                node.recursive = true;
                node.notes
                    .push("recursive: already on the path from the root, not expanded".into());
                self.nodes.push(node);
                return vec![];
            }
            if id.index() >= MAX_NODES {
                node.truncated = true;
                node.direct = self.through_calls[func.index()].iter().copied().collect();
                node.notes.push(format!(
                    "not expanded: the tree reached {MAX_NODES} nodes; holds all its assertions"
                ));
                self.nodes.push(node);
                return vec![];
            }
        }
        node.notes.extend(notes.iter().cloned());
        node.direct = FunctionRegions::assertions_in(f, own);
        // Children: nested regions and callees of own edges, in source order.
        let mut kids: Vec<(u32, Pending)> = Vec::new();
        for &r in regions {
            let line = fr.regions[r].lines.map_or(0, |(a, _)| a);
            kids.push((line, Pending::Region { func, region: r }));
        }
        let mut callees: Vec<(FuncId, Vec<EdgeId>)> = Vec::new();
        for &e in own {
            if let Op::Call { callee, .. } = f.edge(e).op {
                match callees.iter_mut().find(|(c, _)| *c == callee) {
                    Some((_, sites)) => sites.push(e),
                    None => callees.push((callee, vec![e])),
                }
            }
        }
        for (callee, sites) in callees {
            let line = lines_of_edges(f, &sites).map_or(0, |(a, _)| a);
            kids.push((
                line,
                Pending::Function {
                    func: callee,
                    call_sites: sites,
                },
            ));
        }
        // Stable: regions before callees on the same line.
        kids.sort_by_key(|(line, _)| *line);
        self.nodes.push(node);
        kids.into_iter().map(|(_, k)| k).collect()
    }

    /// Transitive assertions, bottom-up (children have larger ids than their parents).
    fn fill_assertions(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            let node = &self.nodes[i];
            let mut set: BTreeSet<AssertionId> = node.direct.iter().copied().collect();
            if node.recursive {
                set.extend(self.through_calls[node.func().index()].iter().copied());
            }
            for c in &node.children {
                set.extend(self.nodes[c.index()].assertions.iter().copied());
            }
            self.nodes[i].assertions = set.into_iter().collect();
        }
    }
}

impl Rnt {
    pub fn node(&self, id: NodeId) -> &RntNode {
        &self.nodes[id.index()]
    }

    pub fn get(&self, id: NodeId) -> Option<&RntNode> {
        self.nodes.get(id.index())
    }

    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    /// For each calling context, the node holding the assertion's edge among its own edges
    /// (in tree order). Empty: no context reaches the assertion's edge (it is in unreachable
    /// code or in a function the entry never calls), so it cannot be violated.
    pub fn innermost_nodes(&self, a: AssertionId) -> Vec<NodeId> {
        self.node_ids()
            .filter(|&n| self.node(n).direct.contains(&a))
            .collect()
    }

    /// The node and its ancestors up to the root: the order in which gambling climbs.
    pub fn ancestors(&self, n: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut cur = Some(n);
        while let Some(c) = cur {
            out.push(c);
            cur = self.get(c).and_then(|x| x.parent);
        }
        out
    }

    /// The region data of a region node.
    pub fn region(&self, id: RegionId) -> Option<&crate::region::Region> {
        let fr = self.functions.get(id.func.index())?;
        fr.region_at(id.head).map(|i| &fr.regions[i])
    }

    /// A short readable name: `main` for a function node, `main/L7` for a region node.
    pub fn name(&self, program: &Program, n: NodeId) -> String {
        match self.node(n).kind {
            NodeKind::Function(f) => func_name(program, f).to_string(),
            NodeKind::Region(r) => r.name(program),
        }
    }

    /// The name with the node's kind and lines, for reports: `region main/L7 (lines 12-18)`.
    pub fn describe(&self, program: &Program, n: NodeId) -> String {
        let node = self.node(n);
        let kind = match node.kind {
            NodeKind::Function(_) => "function",
            NodeKind::Region(_) => "region",
        };
        format!(
            "{kind} {}{}",
            self.name(program, n),
            crate::render::lines_suffix(node.lines)
        )
    }

    /// The full context of a node: the names from the root down, joined by ` > `.
    pub fn path_name(&self, program: &Program, n: NodeId) -> String {
        let mut names: Vec<String> = self
            .ancestors(n)
            .into_iter()
            .map(|x| self.name(program, x))
            .collect();
        names.reverse();
        names.join(" > ")
    }
}
