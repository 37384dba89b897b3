//! The control structure symbolic execution needs from each function's automaton: a
//! reverse post-order of its locations, its loops, and which edges are back-edges.
//!
//! Loops are the loop nesting forest of Havlak/Ramalingam, which also covers irreducible
//! control flow (a `goto` into a loop): every strongly connected component of a function is
//! a loop whose *header* is its location first in reverse post-order (the first one a
//! depth-first search from the entry reaches); the loops nested in it are the components of
//! the same graph without that header. Invariants this gives, and symex relies on:
//! - loops nest: the loops containing a location form a chain, outermost first, and the
//!   loops containing both ends of an edge are a common prefix of their chains;
//! - an edge is a back-edge (enters a header from inside its loop) exactly when it retreats
//!   in reverse post-order, so every cycle of the automaton takes a back-edge;
//! - a header heads exactly one loop, and that loop is the last of its chain.

use qicc_ir::{EdgeId, Function, Loc, Op, Program, Span};

/// One loop of a function.
#[derive(Clone, Debug)]
pub(crate) struct LoopInfo {
    pub header: Loc,
    /// Where to point the user: the first known source position on the header's edges.
    pub span: Span,
}

/// Everything symex asks about one function.
#[derive(Clone, Debug)]
pub(crate) struct FnInfo {
    /// Position of each location in reverse post-order from the entry (`u32::MAX`:
    /// unreachable).
    pub rpo: Vec<u32>,
    /// Outgoing edges of each location, in edge order.
    pub succ: Vec<Vec<EdgeId>>,
    pub loops: Vec<LoopInfo>,
    /// Loops containing each location, outermost first (indices into `loops`).
    pub chain: Vec<Vec<u32>>,
    /// The loop each location heads, if it is a header.
    pub header_of: Vec<Option<u32>>,
    /// Whether an `error` edge can be reached from each location within this activation
    /// (through calls too). Filled by [`compute_relevance`].
    pub err_from: Vec<bool>,
    /// Whether the function's `exit` can be reached from each location.
    pub exit_from: Vec<bool>,
}

impl FnInfo {
    pub fn new(f: &Function) -> FnInfo {
        let n = f.num_locs as usize;
        let succ = f.successors();
        let rpo = reverse_postorder(f, &succ);
        let mut info = FnInfo {
            rpo,
            succ,
            loops: Vec::new(),
            chain: vec![Vec::new(); n],
            header_of: vec![None; n],
            err_from: vec![true; n],
            exit_from: vec![true; n],
        };
        let reachable: Vec<u32> = (0..n as u32)
            .filter(|&l| info.rpo[l as usize] != u32::MAX)
            .collect();
        // Work list of (location set, enclosing loop) to decompose; the nesting depth is
        // small, so this terminates after depth + 1 rounds over each location.
        let mut work = vec![reachable];
        while let Some(set) = work.pop() {
            let mut in_set = vec![false; n];
            for &l in &set {
                in_set[l as usize] = true;
            }
            for comp in sccs(f, &info.succ, &set, &in_set) {
                let cyclic = comp.len() > 1 || {
                    let l = comp[0];
                    info.succ[l as usize].iter().any(|e| f.edge(*e).to.0 == l)
                };
                if !cyclic {
                    continue;
                }
                let header = *comp
                    .iter()
                    .min_by_key(|&&l| info.rpo[l as usize])
                    .expect("components are non-empty");
                let id = info.loops.len() as u32;
                let span = info.succ[header as usize]
                    .iter()
                    .map(|e| f.edge(*e).span)
                    .find(|s| s.is_known())
                    .unwrap_or(f.span);
                info.loops.push(LoopInfo {
                    header: Loc(header),
                    span,
                });
                info.header_of[header as usize] = Some(id);
                for &l in &comp {
                    info.chain[l as usize].push(id);
                }
                let inner: Vec<u32> = comp.into_iter().filter(|&l| l != header).collect();
                if !inner.is_empty() {
                    work.push(inner);
                }
            }
        }
        info
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

    /// The loop whose back-edge `from -> to` is, if it is one.
    pub fn back_edge_loop(&self, from: Loc, to: Loc) -> Option<u32> {
        let l = self.header_of[to.index()]?;
        self.chain[from.index()].contains(&l).then_some(l)
    }
}

fn reverse_postorder(f: &Function, succ: &[Vec<EdgeId>]) -> Vec<u32> {
    let n = f.num_locs as usize;
    let mut rpo = vec![u32::MAX; n];
    if f.entry.index() >= n {
        return rpo;
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
            post.push(l);
            stack.pop();
        }
    }
    for (i, l) in post.iter().rev().enumerate() {
        rpo[*l as usize] = i as u32;
    }
    rpo
}

/// Strongly connected components of the subgraph induced by `set` (iterative Tarjan).
fn sccs(f: &Function, succ: &[Vec<EdgeId>], set: &[u32], in_set: &[bool]) -> Vec<Vec<u32>> {
    let n = f.num_locs as usize;
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = Vec::new();
    let mut next = 0u32;
    for &root in set {
        if index[root as usize] != u32::MAX {
            continue;
        }
        let mut call: Vec<(u32, usize)> = vec![(root, 0)];
        index[root as usize] = next;
        low[root as usize] = next;
        next += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut i)) = call.last_mut() {
            let vs = &succ[v as usize];
            if *i < vs.len() {
                let w = f.edge(vs[*i]).to.0;
                *i += 1;
                if !in_set[w as usize] {
                    continue;
                }
                if index[w as usize] == u32::MAX {
                    index[w as usize] = next;
                    low[w as usize] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    call.push((w, 0));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
            } else {
                call.pop();
                if let Some(&(parent, _)) = call.last() {
                    low[parent as usize] = low[parent as usize].min(low[v as usize]);
                }
                if low[v as usize] == index[v as usize] {
                    let mut comp = Vec::new();
                    while let Some(w) = stack.pop() {
                        on_stack[w as usize] = false;
                        comp.push(w);
                        if w == v {
                            break;
                        }
                    }
                    out.push(comp);
                }
            }
        }
    }
    out
}

/// Which functions and edges an execution from the program's entry can reach at all,
/// ignoring every condition (calls are assumed to return). An assertion none of whose error
/// edges is reachable here is safe by structure.
pub(crate) fn structurally_reachable(p: &Program) -> Vec<Vec<bool>> {
    let mut reach_loc: Vec<Vec<bool>> = p
        .functions
        .iter()
        .map(|f| vec![false; f.num_locs as usize])
        .collect();
    let succs: Vec<Vec<Vec<EdgeId>>> = p.functions.iter().map(|f| f.successors()).collect();
    let mut work: Vec<(usize, u32)> = Vec::new();
    if let Some(f) = p.functions.get(p.entry.index()) {
        if f.entry.index() < f.num_locs as usize {
            reach_loc[p.entry.index()][f.entry.index()] = true;
            work.push((p.entry.index(), f.entry.0));
        }
    }
    let mut edges: Vec<Vec<bool>> = p
        .functions
        .iter()
        .map(|f| vec![false; f.edges.len()])
        .collect();
    while let Some((fi, l)) = work.pop() {
        let f = &p.functions[fi];
        for &e in &succs[fi][l as usize] {
            edges[fi][e.index()] = true;
            let edge = f.edge(e);
            let mut visit = |g: usize, loc: u32, work: &mut Vec<(usize, u32)>| {
                if let Some(slot) = reach_loc.get_mut(g).and_then(|v| v.get_mut(loc as usize)) {
                    if !*slot {
                        *slot = true;
                        work.push((g, loc));
                    }
                }
            };
            if let Op::Call { callee, .. } = &edge.op {
                if let Some(g) = p.functions.get(callee.index()) {
                    visit(callee.index(), g.entry.0, &mut work);
                }
            }
            visit(fi, edge.to.0, &mut work);
        }
    }
    edges
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::parse_program;

    fn info(edges: &str, locs: u32) -> FnInfo {
        let text = format!(
            "qicc-ir 1\ndata-model ilp32\nentry @main\nfn @main() {{\n  locs {locs} entry L0 exit L1 err L2 halt L3\n{edges}}}\n"
        );
        let p = parse_program(&text).expect("parses");
        FnInfo::new(&p.functions[0])
    }

    #[test]
    fn nested_loops_nest_and_back_edges_retreat() {
        // L4: outer head, L5: inner head; L6 inner body; L7 after inner.
        let f = info(
            "  L0 -> L4: skip\n  L4 -> L5: skip\n  L5 -> L6: skip\n  L6 -> L5: skip\n\
             \x20 L5 -> L7: skip\n  L7 -> L4: skip\n  L4 -> L1: skip\n",
            8,
        );
        assert_eq!(f.loops.len(), 2);
        let outer = f.header_of[4].expect("L4 heads a loop");
        let inner = f.header_of[5].expect("L5 heads a loop");
        assert_eq!(f.chain[6], vec![outer, inner]);
        assert_eq!(f.chain[7], vec![outer]);
        assert!(f.chain[1].is_empty());
        assert_eq!(f.back_edge_loop(Loc(6), Loc(5)), Some(inner));
        assert_eq!(f.back_edge_loop(Loc(7), Loc(4)), Some(outer));
        assert_eq!(f.back_edge_loop(Loc(4), Loc(5)), None);
        assert_eq!(f.common_loops(Loc(6), Loc(7)), 1);
        for (from, to) in [(6, 5), (7, 4)] {
            assert!(f.rpo[to] < f.rpo[from]);
        }
    }

    #[test]
    fn irreducible_cycle_gets_one_header() {
        // L4 <-> L5, entered at both from L0.
        let f = info(
            "  L0 -> L4: skip\n  L0 -> L5: skip\n  L4 -> L5: skip\n  L5 -> L4: skip\n\
             \x20 L5 -> L1: skip\n",
            6,
        );
        assert_eq!(f.loops.len(), 1);
        let h = f.loops[0].header.index();
        assert!(h == 4 || h == 5);
        assert_eq!(f.chain[4], vec![0]);
        assert_eq!(f.chain[5], vec![0]);
        let other = 9 - h;
        assert_eq!(f.back_edge_loop(Loc(other as u32), Loc(h as u32)), Some(0));
        assert_eq!(f.back_edge_loop(Loc(h as u32), Loc(other as u32)), None);
    }

    #[test]
    fn self_loop_and_unreachable_locations() {
        let f = info(
            "  L0 -> L4: skip\n  L4 -> L4: skip\n  L4 -> L1: skip\n  L5 -> L5: skip\n",
            6,
        );
        assert_eq!(f.loops.len(), 1);
        assert_eq!(f.header_of[4], Some(0));
        assert_eq!(f.rpo[5], u32::MAX);
        assert!(f.chain[5].is_empty());
    }
}

/// Fills `err_from` and `exit_from` of every function: backward reachability of `error` edges
/// and of `exit`, where a call edge reaches an error if its callee's entry can (a fixpoint over
/// the call graph) and is assumed to return. Symbolic execution drops a state from which no
/// error can be reached — neither in its own activation nor after it returns to a caller that
/// can still reach one — since no extension of it can violate anything; such paths need no
/// unwinding either. Over-approximate by construction (any edge may be taken).
pub(crate) fn compute_relevance(p: &Program, info: &mut [FnInfo]) {
    let preds: Vec<Vec<Vec<EdgeId>>> = p.functions.iter().map(|f| f.predecessors()).collect();
    let mut fn_err = vec![false; p.functions.len()];
    loop {
        let mut changed = false;
        for (fi, f) in p.functions.iter().enumerate() {
            let n = f.num_locs as usize;
            let mut err = vec![false; n];
            let mut stack: Vec<Loc> = Vec::new();
            for e in &f.edges {
                let hit = match &e.op {
                    Op::Error(_) => true,
                    Op::Call { callee, .. } => fn_err.get(callee.index()).copied().unwrap_or(true),
                    _ => false,
                };
                if hit && !err[e.from.index()] {
                    err[e.from.index()] = true;
                    stack.push(e.from);
                }
            }
            while let Some(l) = stack.pop() {
                for &e in &preds[fi][l.index()] {
                    let from = f.edge(e).from;
                    if !err[from.index()] {
                        err[from.index()] = true;
                        stack.push(from);
                    }
                }
            }
            if err[f.entry.index()] && !fn_err[fi] {
                fn_err[fi] = true;
                changed = true;
            }
            info[fi].err_from = err;
        }
        if !changed {
            break;
        }
    }
    for (fi, f) in p.functions.iter().enumerate() {
        let n = f.num_locs as usize;
        let mut exit = vec![false; n];
        exit[f.exit.index()] = true;
        let mut stack = vec![f.exit];
        while let Some(l) = stack.pop() {
            for &e in &preds[fi][l.index()] {
                let from = f.edge(e).from;
                if !exit[from.index()] {
                    exit[from.index()] = true;
                    stack.push(from);
                }
            }
        }
        info[fi].exit_from = exit;
    }
}
