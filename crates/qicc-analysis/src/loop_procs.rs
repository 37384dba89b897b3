//! Loops as tail-recursive procedures (Corral, Sec. 1: "we assume that loops are converted
//! to recursive procedures"), so that loops and recursion are one problem with one bound.
//!
//! Each natural loop of a function `f` with head `h`, innermost first, becomes a function
//! `f.loop.h` whose parameters are all of `f`'s locals and whose body is the loop's edges:
//! - an edge back into the head ends the iteration with `%k := call f.loop.h(locals…)` and
//!   returns (a tail call: nothing runs after it but the return);
//! - an edge that leaves the loop for `f`'s location `x` (its exit included) runs its
//!   operation, copies the locals the loop may change into result globals, sets the exit
//!   number `%k` and returns; `error` and `halt` edges stay what they are.
//!
//! In `f` the loop becomes `%k := call f.loop.h(locals…)` at `h`, the locals read back from
//! the result globals, and one `assume %k == i` edge per exit to its target.
//!
//! Invariant kept: the program makes the same nondeterministic requests in the same order
//! (havocs, allocations, choices among enabled edges: the edges keep their relative order, and
//! the new branches are deterministic), so a witness of the result replays on the input
//! program, which is what the driver's check does with every counterexample. Result globals
//! start at zero (a global without initialiser would be one more havoc).
//!
//! A loop is left as it is (the unwinding bounds it) when it is not a natural loop
//! (irreducible), or when an assertion has `error` edges both inside and outside it.

use crate::graph::FunctionGraph;
use crate::loops::NaturalLoop;
use qicc_ir::{
    BinOp, Edge, Expr, FuncId, Function, Global, GlobalId, Loc, LocalId, Op, Program, Span, Ty,
    VarRef,
};
use std::collections::{BTreeSet, HashMap};

/// `p` with every natural loop made a tail-recursive procedure, and how many loops were.
pub fn loops_to_procedures(p: &Program) -> (Program, usize) {
    let mut out = p.clone();
    let mut converted = 0;
    // Innermost loops first; each conversion can expose the next (an inner loop's body in
    // its own procedure, the outer loop then free of it). A loop that stays is never tried
    // again.
    let mut kept: BTreeSet<(u32, u32)> = BTreeSet::new();
    loop {
        let mut done_one = false;
        for fi in 0..out.functions.len() {
            let fid = FuncId(fi as u32);
            let graph = FunctionGraph::new(out.function(fid));
            let inner = graph
                .natural_loops
                .iter()
                .filter(|l| !kept.contains(&(fid.0, l.head.0)))
                .find(|l| {
                    !graph
                        .natural_loops
                        .iter()
                        .any(|o| o.head != l.head && l.locs.binary_search(&o.head).is_ok())
                })
                .cloned();
            let Some(l) = inner else { continue };
            if convert(&mut out, fid, &l) {
                converted += 1;
            } else {
                kept.insert((fid.0, l.head.0));
            }
            done_one = true;
            break;
        }
        if !done_one {
            return (out, converted);
        }
    }
}

/// Converts loop `l` of `fid`; `false` (nothing changed) when it must stay.
fn convert(p: &mut Program, fid: FuncId, l: &NaturalLoop) -> bool {
    let f = p.function(fid).clone();
    let in_loop = |x: Loc| l.locs.binary_search(&x).is_ok();
    let loop_edges: BTreeSet<usize> = f
        .edges
        .iter()
        .enumerate()
        .filter(|(_, e)| in_loop(e.from))
        .map(|(i, _)| i)
        .collect();
    // Assertions whose error edges would be split between two functions.
    let mut inside = BTreeSet::new();
    let mut outside = BTreeSet::new();
    for (i, e) in f.edges.iter().enumerate() {
        if let Op::Error(a) = e.op {
            if loop_edges.contains(&i) {
                inside.insert(a);
            } else {
                outside.insert(a);
            }
        }
    }
    if inside.intersection(&outside).next().is_some() {
        return false;
    }
    let proc_name = format!("{}.loop.L{}", f.name, l.head.0);
    let proc_id = FuncId(p.functions.len() as u32);
    // Locals the loop may change, read back after the call.
    let changed: Vec<LocalId> = loop_edges
        .iter()
        .filter_map(|&i| match f.edges[i].op.def() {
            Some(VarRef::Local(x)) => Some(x),
            _ => None,
        })
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let results: HashMap<LocalId, GlobalId> = changed
        .iter()
        .map(|&x| {
            let local = f.local(x);
            let g = p.add_global(Global {
                name: format!("{proc_name}.{}", local.name),
                ty: local.ty,
                unsigned: local.unsigned,
                init: Some(Expr::konst(local.ty, 0)),
                span: f.span,
            });
            (x, g)
        })
        .collect();
    let exit_ty = Ty::Int(32);
    let all_locals: Vec<Expr> = (0..f.locals.len() as u32)
        .map(|i| Expr::local(LocalId(i)))
        .collect();

    // The procedure: f's locals (all parameters) and the exit number.
    let mut g = Function::new(proc_name, f.span);
    g.locals = f.locals.clone();
    g.params = (0..f.locals.len() as u32).map(LocalId).collect();
    let k = g.add_local(format!("loop.exit.{}", l.head.0), exit_ty);
    g.ret = Some(k);
    let mut map: HashMap<Loc, Loc> = HashMap::new();
    map.insert(l.head, g.entry);
    for &x in &l.locs {
        if x != l.head {
            let n = g.new_loc();
            map.insert(x, n);
        }
    }
    let mut exits: Vec<Loc> = Vec::new();
    for &i in &loop_edges {
        let e = &f.edges[i];
        let from = map[&e.from];
        match &e.op {
            Op::Error(_) => {
                g.add_edge(from, g.err, e.op.clone(), e.span);
            }
            Op::Halt(_) => {
                g.add_edge(from, g.halt, e.op.clone(), e.span);
            }
            _ if e.to == l.head => {
                let t = g.new_loc();
                g.add_edge(from, t, e.op.clone(), e.span);
                let call = Op::Call {
                    dst: Some(VarRef::Local(k)),
                    callee: proc_id,
                    args: all_locals.clone(),
                };
                g.add_edge(t, g.exit, call, e.span);
            }
            _ if in_loop(e.to) => {
                g.add_edge(from, map[&e.to], e.op.clone(), e.span);
            }
            _ => {
                let idx = exits.iter().position(|&x| x == e.to).unwrap_or_else(|| {
                    exits.push(e.to);
                    exits.len() - 1
                });
                let mut at = g.new_loc();
                g.add_edge(from, at, e.op.clone(), e.span);
                for &x in &changed {
                    let next = g.new_loc();
                    let op = Op::Assign(VarRef::Global(results[&x]), Expr::local(x));
                    g.add_edge(at, next, op, e.span);
                    at = next;
                }
                let op = Op::Assign(VarRef::Local(k), Expr::konst(exit_ty, idx as u64));
                g.add_edge(at, g.exit, op, e.span);
            }
        }
    }
    for a in &inside {
        if let Some(asr) = p.assertions.get_mut(a.index()) {
            asr.func = proc_id;
        }
    }
    p.add_function(g);

    // The function: the loop's edges out, the call in.
    let fm = p.function_mut(fid);
    let old: Vec<Edge> = std::mem::take(&mut fm.edges);
    for (i, e) in old.into_iter().enumerate() {
        if !loop_edges.contains(&i) {
            fm.edges.push(e);
        }
    }
    let kf = fm.add_local(format!("loop.exit.{}", l.head.0), exit_ty);
    let span = fm.span;
    let mut at = fm.new_loc();
    fm.add_edge(
        l.head,
        at,
        Op::Call {
            dst: Some(VarRef::Local(kf)),
            callee: proc_id,
            args: all_locals,
        },
        span,
    );
    for &x in &changed {
        let next = fm.new_loc();
        fm.add_edge(
            at,
            next,
            Op::Assign(VarRef::Local(x), Expr::global(results[&x])),
            span,
        );
        at = next;
    }
    for (idx, &x) in exits.iter().enumerate() {
        let cond = Expr::binary(BinOp::Eq, Expr::local(kf), Expr::konst(exit_ty, idx as u64));
        fm.add_edge(at, x, Op::Assume(cond), Span::UNKNOWN);
    }
    true
}
