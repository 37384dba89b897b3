//! Facts about the stack objects a function's prologue allocates: at a location after the
//! prologue, such an address local points to byte 0 of a live object of its size, and two of
//! them point into different objects.
//!
//! Why: an extracted region havocs every live-in local and the whole object table, so the
//! address of a local whose address is taken (`%v := alloc.stack(4)` in the prologue) becomes
//! an arbitrary pointer, and every write through it (`*q = …` after `q = &v`) fails its
//! `invalid-write` check in the region. The paper's extraction (Listing 3) keeps such locals as
//! locals of the extracted function; these facts give the region exactly that back.
//!
//! Invariant kept: a fact is returned only when it holds at *every* visit of the location in
//! *every* execution (so Theorem 1 still applies after it is assumed). That needs
//! 1. the object is a frame object (`alloc.frame`): the IR's contract, checked by
//!    `verify_program`, puts the edge on the prologue chain, so it runs once per activation
//!    and dominates every location past it, into a local that is not a parameter and has no
//!    other definition, with a constant size;
//! 2. nothing else ends the object's life: the program has no `havoc_memory`, and every `free`
//!    in the program frees a frame object of its own function (the epilogue's), and in this
//!    function none from which the location is reachable. A program with any other `free` (a
//!    C `free(p)`) gets no stack facts at all.

use qicc_analysis::graph::reachable_from;
use qicc_ir::{
    AllocKind, BinOp, EdgeId, Expr, FuncId, Function, Loc, LocalId, Op, Program, VarRef,
};

/// A frame allocation: the local, its constant size, and the chain location the edge leaves.
struct PrologueAlloc {
    local: LocalId,
    size: u64,
    /// Position of the edge's source on the prologue chain (entry = 0).
    at: usize,
}

/// The prologue chain of `f` (its locations in order, entry first) and its frame allocations.
fn prologue(f: &Function) -> (Vec<Loc>, Vec<PrologueAlloc>) {
    let chain = f.prologue_chain();
    let allocs = f
        .edges
        .iter()
        .filter_map(|e| match &e.op {
            Op::Alloc {
                dst: VarRef::Local(local),
                size,
                kind: AllocKind::Frame,
            } => Some(PrologueAlloc {
                local: *local,
                size: size.as_const()?,
                // Always on the chain in a verified program; an unverified one gets no fact.
                at: chain.iter().position(|l| *l == e.from)?,
            }),
            _ => None,
        })
        .collect();
    (chain, allocs)
}

/// The `free` edges of `g`, or `None` when one of them may free something other than a
/// prologue object of `g`'s own frame.
fn own_frame_frees(g: &Function) -> Option<Vec<EdgeId>> {
    let (_, allocs) = prologue(g);
    let mut frees = Vec::new();
    for (i, e) in g.edges.iter().enumerate() {
        match &e.op {
            Op::HavocMemory | Op::HavocContents => return None,
            Op::Free(Expr::Var(VarRef::Local(l))) if allocs.iter().any(|a| a.local == *l) => {
                frees.push(EdgeId(i as u32));
            }
            Op::Free(_) => return None,
            _ => {}
        }
    }
    Some(frees)
}

/// The stack facts at `loc` of `func` about the locals among `vars`, as one condition (`None`
/// when there is nothing to say). Only locals in `vars` are mentioned: the caller passes the
/// locals its region havocs, whose entry values the facts may narrow.
pub fn stack_condition(program: &Program, func: FuncId, loc: Loc, vars: &[VarRef]) -> Option<Expr> {
    let f = program.function(func);
    let mut frees_here = Vec::new();
    for (i, g) in program.functions.iter().enumerate() {
        let frees = own_frame_frees(g)?;
        if i == func.index() {
            frees_here = frees;
        }
    }
    let after_frees: Vec<Loc> = frees_here.iter().map(|e| f.edge(*e).to).collect();
    if !after_frees.is_empty()
        && reachable_from(f, &f.successors(), &after_frees)
            .get(loc.index())
            .copied()
            .unwrap_or(true)
    {
        return None;
    }
    let layout = program.layout;
    let (chain, allocs) = prologue(f);
    let live: Vec<&PrologueAlloc> = allocs
        .iter()
        .filter(|a| vars.contains(&VarRef::Local(a.local)))
        // Past the allocation: not on the chain up to the edge's source (the edge's target
        // may be a loop head, which is not on the chain).
        .filter(|a| !chain[..=a.at].contains(&loc))
        .filter(|a| a.size > 0 && a.size <= layout.max_object_size())
        .collect();
    let ptr = layout.pointer_ty();
    let offset_mask = Expr::konst(ptr, qicc_ir::types::mask(layout.offset_bits()));
    let object = |l: LocalId| {
        Expr::binary(
            BinOp::LShr,
            Expr::local(l),
            Expr::konst(ptr, u64::from(layout.offset_bits())),
        )
    };
    let mut parts = Vec::new();
    for (i, a) in live.iter().enumerate() {
        let Ok(bytes) = u32::try_from(a.size) else {
            continue;
        };
        parts.push(Expr::valid(bytes, Expr::local(a.local)));
        parts.push(Expr::binary(
            BinOp::Eq,
            Expr::binary(BinOp::And, Expr::local(a.local), offset_mask.clone()),
            Expr::konst(ptr, 0),
        ));
        for b in &live[..i] {
            parts.push(Expr::binary(BinOp::Ne, object(a.local), object(b.local)));
        }
    }
    parts
        .into_iter()
        .reduce(|a, b| Expr::binary(BinOp::And, a, b))
}
