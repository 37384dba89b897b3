//! Extraction of one Region Nesting Tree node as a standalone program (procedure extraction,
//! Listings 2 and 3 of the Qicc abstract), for any engine that verifies whole programs.
//!
//! # The construction
//!
//! The result keeps the original's objects, globals, functions and assertion list, so that
//! every id (`FuncId`, `AssertionId`, object numbers) means the same in both programs, and adds
//! one new entry function:
//!
//! - **Region node** `f/Lh` (head `h`, locations `L'`): a function `region.f.Lh` with a copy of
//!   `f`'s locals (same ids, so operations copy unchanged) and of every edge leaving a location
//!   of `L'`. An edge to another location of `L'` keeps its target; an edge to the head (a back
//!   edge) and an edge to a location outside `L'` (an exit, including `f`'s `exit`) go to the new
//!   function's `exit` after executing their operation; `error`/`halt` edges go to the new
//!   `err`/`halt`. The entry runs `havoc_memory`, `havoc $g region` for every global, and
//!   `havoc %v region` for every local the copy may read before writing it (see
//!   [`crate::liveness`]), then enters the copy of `h`. The loop condition is not added: the
//!   head's own `assume` edges are in the copy, as `assume(*n < 1000)` in Listing 3.
//! - **Function node** `g` (other than the root): a function `entry.g` that havocs memory,
//!   every global and one local per parameter of `g`, and calls `g` with them. The other locals
//!   of `g` start at 0 on entry, as in every call.
//! - **The root**: the original program.
//!
//! In every case, the `error` edges of assertions not asked for are replaced by
//! `assume false` edges to their function's `exit` (batch verification disables violated
//! assertions this way), in every function of the result, so in all callees.
//!
//! The checker requires an assertion's edges to be in the function the assertion names, so an
//! assertion whose edge is copied into the region function is renamed to it, and its edges in
//! `f` itself (reachable only if the region calls `f` recursively) become `assume false`.
//!
//! # Why it is sound (Theorem 1)
//!
//! Claim: if the original program has a feasible path that violates assertion `#k` through an
//! `error #k` edge `e` of a node `N` (one of `N`'s edges, or an edge of a function called from
//! `N`'s edges while the frame is in `N`), and `#k` is asked for, then the extraction of `N`
//! has a feasible path that violates `#k`.
//!
//! Regions. Take the frame `F` of `f` that is at a location of `L'` when the violation happens
//! (it executes `e`, or the call under which `e` executes). The path of `F` from `f`'s entry to
//! that location passes through `h`: `h` is the only entry point of `L'` (the nesting search
//! never makes a region of a cycle with two entry points), so `h` dominates `L'`. From the
//! last visit of `h` on, `F` stays in `L'`: leaving `L'` and coming back would pass `h` again,
//! and so would a back edge. So `F`'s suffix from there uses only edges that leave `L'`
//! locations and end in `L'` other than at `h`, which the copy has with the same operations,
//! followed by the edge `e` (or the call), which the copy also has. Take the state of the
//! original run at that last visit of `h`: locals of `F`, globals, memory contents and the
//! object table (which run-time objects exist, their sizes). The extracted run can be in the
//! same state at the copy of `h`: `havoc` of a global or a live local can give it `F`'s value,
//! `havoc_memory` can give every byte and every run-time object its state (`qicc_ir::memory` defines it so
//! that contents, sizes and liveness of run-time objects all become arbitrary; static objects
//! always exist); a local that is not havocked holds 0 instead of `F`'s value, but every path
//! from `h` writes it before reading it, so the run does not depend on it. From equal states,
//! the same edges execute with the same results (the oracle resolves nondeterminism the same
//! way), including every call, since callees are the original functions; so the violation is
//! reached. `#k` is enabled on that path: it is asked for, its edge is kept in the region
//! function if `e` is in `L'`, or in its own function if `e` is in a callee; the copies of `#k`
//! that became `assume false` in `f` are only reachable in frames of `f` below the extracted
//! frame, and a violation there has its own suffix in the top frame (apply the argument to that
//! frame), so it is never needed.
//!
//! Function nodes. A frame of `g` starts at `g`'s entry with its parameters bound, its other
//! locals 0, and some globals, memory and object table; `entry.g` can produce exactly that
//! state and then runs `g` itself.
//!
//! Disabled assertions only remove paths that end in their `error` edge, so they do not affect
//! paths to the enabled ones.

use crate::liveness::live_locals_at;
use crate::rnt::{NodeId, NodeKind, RegionId, Rnt};
use qicc_ir::{
    verify_program, AssertionId, Edge, EdgeId, Expr, FuncId, Function, HavocKind, Loc, LocalId, Op,
    Program, Span, VarRef,
};
use std::collections::BTreeSet;

/// A standalone program whose entry runs one node of the Region Nesting Tree.
#[derive(Clone, Debug)]
pub struct Extracted {
    pub program: Program,
    pub node: NodeId,
    /// The entry function of `program` (new, except for the root).
    pub entry: FuncId,
    /// Locals of the entry function given arbitrary values on entry, in id order: for a
    /// region, locals of the region's function (the region function keeps its local ids); for
    /// a function node, `entry.g`'s copies of `g`'s parameters (local `i` is parameter `i`).
    pub havocked_locals: Vec<LocalId>,
    /// The last edge of the entry havocs in the entry function (`None` for the root, which
    /// havocs nothing): its target is the node's head, in a state where only the havocs have
    /// run. What holds at the head in every execution of the original program may be assumed
    /// there (Theorem 1 still applies).
    pub after_havocs: Option<EdgeId>,
    /// Globals given arbitrary values on entry (all of them, except for the root).
    pub havocked_globals: Vec<String>,
    /// The assertions asked for (still `error` edges in `program`).
    pub enabled: Vec<AssertionId>,
    /// The other assertions (their edges are `assume false`).
    pub disabled: Vec<AssertionId>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExtractError {
    #[error("node {0} is not in the region nesting tree")]
    NoSuchNode(NodeId),
    #[error("assertion {0} does not exist")]
    NoSuchAssertion(AssertionId),
    #[error("region {0} is not in the analysis of its function")]
    NoSuchRegion(String),
    #[error("internal error: the extracted program is ill-formed: {}", .0.join("; "))]
    Invalid(Vec<String>),
}

/// Extracts `node` of `rnt` (built from `program`) with only `assertions` enabled.
pub fn extract(
    program: &Program,
    rnt: &Rnt,
    node: NodeId,
    assertions: &[AssertionId],
) -> Result<Extracted, ExtractError> {
    let n = rnt.get(node).ok_or(ExtractError::NoSuchNode(node))?;
    if let Some(&a) = assertions
        .iter()
        .find(|a| a.index() >= program.assertions.len())
    {
        return Err(ExtractError::NoSuchAssertion(a));
    }
    let keep: BTreeSet<AssertionId> = assertions.iter().copied().collect();
    let mut prog = program.clone();
    disable_assertions(&mut prog, &keep);
    let mut out = Extracted {
        program: Program::new(program.data_model),
        node,
        entry: program.entry,
        havocked_locals: Vec::new(),
        after_havocs: None,
        havocked_globals: Vec::new(),
        enabled: keep.iter().copied().collect(),
        disabled: program
            .assertion_ids()
            .filter(|a| !keep.contains(a))
            .collect(),
    };
    match n.kind {
        _ if node == rnt.root => {}
        NodeKind::Function(g) => {
            let (entry, locals, last) = add_function_entry(&mut prog, g);
            out.entry = entry;
            out.havocked_locals = locals;
            out.after_havocs = Some(last);
            out.havocked_globals = global_names(&prog);
        }
        NodeKind::Region(r) => {
            let (entry, locals, last) = add_region_entry(&mut prog, rnt, r)?;
            out.entry = entry;
            out.havocked_locals = locals;
            out.after_havocs = Some(last);
            out.havocked_globals = global_names(&prog);
        }
    }
    verify_program(&prog).map_err(ExtractError::Invalid)?;
    out.program = prog;
    Ok(out)
}

fn global_names(p: &Program) -> Vec<String> {
    p.globals.iter().map(|g| g.name.clone()).collect()
}

/// `error #k` for `k` not kept becomes `assume false` to the function's `exit`.
fn disable_assertions(p: &mut Program, keep: &BTreeSet<AssertionId>) {
    for f in &mut p.functions {
        let exit = f.exit;
        for e in &mut f.edges {
            if let Op::Error(a) = e.op {
                if !keep.contains(&a) {
                    e.op = Op::Assume(Expr::bool(false));
                    e.to = exit;
                }
            }
        }
    }
}

/// `base`, or `base.1`, `base.2`, ... whichever names no function yet.
fn fresh_function_name(p: &Program, base: &str) -> String {
    let mut name = base.to_string();
    let mut i = 1;
    while p.find_function(&name).is_some() {
        name = format!("{base}.{i}");
        i += 1;
    }
    name
}

/// Puts `from -> ... -> to` executing `ops` in order (through fresh locations) in front of
/// `f`'s edges, and returns the last of these edges. `ops` is never empty (the entry havocs
/// start with `havoc_memory`); a `skip` stands in if it were.
fn add_chain(f: &mut Function, from: Loc, to: Loc, mut ops: Vec<Op>, span: Span) -> EdgeId {
    if ops.is_empty() {
        ops.push(Op::Skip);
    }
    let mut cur = from;
    let count = ops.len();
    for (i, op) in ops.into_iter().enumerate() {
        let next = if i + 1 == count { to } else { f.new_loc() };
        f.edges.insert(
            i,
            Edge {
                from: cur,
                to: next,
                op,
                span,
            },
        );
        cur = next;
    }
    EdgeId(count as u32 - 1)
}

fn entry_havocs(p: &Program) -> Vec<Op> {
    let mut ops = vec![Op::HavocMemory];
    for i in 0..p.globals.len() {
        ops.push(Op::Havoc(
            VarRef::Global(qicc_ir::GlobalId(i as u32)),
            HavocKind::Region,
        ));
    }
    ops
}

/// `entry.g`: arbitrary memory, globals and arguments, then `call @g(...)`. Returns it, its
/// havocked locals and the last havoc edge.
fn add_function_entry(p: &mut Program, g: FuncId) -> (FuncId, Vec<LocalId>, EdgeId) {
    let callee = p.function(g).clone();
    let name = fresh_function_name(p, &format!("entry.{}", callee.name));
    let mut f = Function::new(name, callee.span);
    let mut ops = entry_havocs(p);
    let mut args = Vec::new();
    let mut havocked = Vec::new();
    for prm in &callee.params {
        let local = callee.local(*prm);
        let id = f.add_local(local.name.clone(), local.ty);
        ops.push(Op::Havoc(VarRef::Local(id), HavocKind::Region));
        args.push(Expr::local(id));
        havocked.push(id);
    }
    let call_at = f.new_loc();
    let entry = f.entry;
    let last = add_chain(&mut f, entry, call_at, ops, callee.span);
    f.add_edge(
        call_at,
        f.exit,
        Op::Call {
            dst: None,
            callee: g,
            args,
        },
        callee.span,
    );
    let id = p.add_function(f);
    p.entry = id;
    (id, havocked, last)
}

/// The copy of region `r`'s edges in a function whose locations `L4..` are the region's
/// locations in ascending order, and the copy of the head.
fn copy_region(
    p: &Program,
    func: FuncId,
    locs: &[Loc],
    edges: &[qicc_ir::EdgeId],
    head: Loc,
    name: &str,
) -> (Function, Loc) {
    let src = p.function(func);
    let mut f = Function::new(name, src.span);
    f.locals = src.locals.clone();
    f.num_locs = 4 + locs.len() as u32;
    let map = |l: Loc| -> Option<Loc> { locs.binary_search(&l).ok().map(|i| Loc(4 + i as u32)) };
    for &id in edges {
        let e = src.edge(id);
        let to = if e.to == src.err {
            f.err
        } else if e.to == src.halt {
            f.halt
        } else if e.to == head {
            f.exit
        } else {
            map(e.to).unwrap_or(f.exit)
        };
        let from = map(e.from).expect("region edges leave region locations");
        f.edges.push(Edge {
            from,
            to,
            op: e.op.clone(),
            span: e.span,
        });
    }
    let h = map(head).expect("the head is a region location");
    (f, h)
}

/// `region.f.Lh`: arbitrary memory, globals and live locals, then the region's edges. Returns
/// it, its havocked locals and the last havoc edge.
fn add_region_entry(
    p: &mut Program,
    rnt: &Rnt,
    r: RegionId,
) -> Result<(FuncId, Vec<LocalId>, EdgeId), ExtractError> {
    let fr = rnt
        .functions
        .get(r.func.index())
        .ok_or_else(|| ExtractError::NoSuchRegion(format!("{}/{}", r.func, r.head)))?;
    let region = fr
        .region_at(r.head)
        .map(|i| &fr.regions[i])
        .ok_or_else(|| ExtractError::NoSuchRegion(r.name(p)))?;
    let src = p.function(r.func);
    let name = fresh_function_name(p, &format!("region.{}.{}", src.name, r.head));
    // The head's first edge locates the loop in the source; the havocs get its span.
    let span = src
        .edges
        .iter()
        .find(|e| e.from == r.head && e.span.is_known())
        .map_or(src.span, |e| e.span);
    let (mut f, head) = copy_region(p, r.func, &region.locs, &region.edges, r.head, &name);
    let live = live_locals_at(&f, head);
    let mut ops = entry_havocs(p);
    for &l in &live {
        ops.push(Op::Havoc(VarRef::Local(l), HavocKind::Region));
    }
    let entry = f.entry;
    let last = add_chain(&mut f, entry, head, ops, span);
    let moved: BTreeSet<AssertionId> = f
        .edges
        .iter()
        .filter_map(|e| match e.op {
            Op::Error(a) => Some(a),
            _ => None,
        })
        .collect();
    let id = p.add_function(f);
    for &a in &moved {
        p.assertions[a.index()].func = id;
    }
    // The copies left in the region's own function: see the module docs.
    let orig = p.function_mut(r.func);
    let exit = orig.exit;
    for e in &mut orig.edges {
        if matches!(e.op, Op::Error(a) if moved.contains(&a)) {
            e.op = Op::Assume(Expr::bool(false));
            e.to = exit;
        }
    }
    p.entry = id;
    Ok((id, live, last))
}
