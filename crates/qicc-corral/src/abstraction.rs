//! Variable abstraction as a program transformation (Fig. 3): the program with only the
//! globals in `tracked` kept, and the memory as a whole kept or not (qicc's one more
//! "variable": a load or `valid` of untracked memory is any value).
//!
//! Each read of an untracked global evaluates to an arbitrary value of its own (a fresh
//! local, havocked just before the edge: the paper's "any value", per occurrence as the
//! parameterized encoding has it); a write to an untracked
//! global (assignment or havoc) is dropped. Everything else is unchanged, so every execution
//! of the program is one of the abstraction's (an over-approximation: a TRUE of the
//! abstraction holds for the program). An assertion over an untracked global is, through
//! its `assume ¬e` guard over a fresh value, reachable: the paper's `assert false`.
//!
//! The engine does not build this program: it encodes the same meaning once, parameterized
//! by one Bool constant per global (`qicc_symex`'s `Encoder::abstraction`, Fig. 5), and picks
//! the tracked set by assumptions. This transformation is the reference that encoding is
//! tested against (Alg. 1 re-encodes it per set, Alg. 2 uses the parameterized VC: they must
//! agree on every query).

use qicc_ir::{Expr, GlobalId, HavocKind, Op, Program, VarRef};
use std::collections::BTreeSet;

/// `p` with the globals outside `tracked` abstracted away, and the memory too unless
/// `memory_tracked` (see the module docs).
pub fn abstract_globals(
    p: &Program,
    tracked: &BTreeSet<GlobalId>,
    memory_tracked: bool,
) -> Program {
    let mut out = p.clone();
    let untracked = |v: &VarRef| matches!(v, VarRef::Global(g) if !tracked.contains(g));
    for f in &mut out.functions {
        let edges = std::mem::take(&mut f.edges);
        for e in edges {
            // A write to an untracked global is dropped.
            let op = match &e.op {
                Op::Assign(v, _) | Op::Havoc(v, _) if untracked(v) => Op::Skip,
                op => op.clone(),
            };
            // Each read of an untracked global gets a value of its own: a fresh local,
            // havocked before the edge.
            let mut fresh = Vec::new();
            let op = op.map_exprs(&mut |x| {
                x.rewrite(&mut |node| match node {
                    Expr::Var(VarRef::Global(g)) if !tracked.contains(&g) => {
                        let global = &p.globals[g.index()];
                        let name = format!("untracked.{}.{}", global.name, f.locals.len());
                        let l = f.add_local(name, global.ty);
                        fresh.push(l);
                        Expr::local(l)
                    }
                    Expr::Load(ty, _) if !memory_tracked => {
                        let l = f.add_local(format!("untracked.load.{}", f.locals.len()), ty);
                        fresh.push(l);
                        Expr::local(l)
                    }
                    Expr::Valid(..) if !memory_tracked => {
                        let l = f.add_local(
                            format!("untracked.valid.{}", f.locals.len()),
                            qicc_ir::Ty::Bool,
                        );
                        fresh.push(l);
                        Expr::local(l)
                    }
                    other => other,
                })
            });
            let mut at = e.from;
            for l in fresh {
                let next = f.new_loc();
                f.add_edge(
                    at,
                    next,
                    Op::Havoc(
                        VarRef::Local(l),
                        HavocKind::Extern("untracked global".into()),
                    ),
                    e.span,
                );
                at = next;
            }
            f.add_edge(at, e.to, op, e.span);
        }
    }
    out
}
