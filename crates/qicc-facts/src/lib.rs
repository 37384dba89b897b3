//! Sound invariants ("facts") of a qicc IR program, by abstract interpretation with intervals.
//!
//! The Qicc paper's future work (Sec. 6) is to "insert additional facts into loop bodies as
//! assumptions", e.g. variables that stay constant. This crate computes such facts: for every
//! location of every function, an interval of the signed and of the unsigned value of each
//! scalar variable that holds in *every* execution reaching that location. An extracted region
//! may assume the facts of its head right after its entry havocs: since they hold at every
//! visit of the head in the original program, the extracted region still covers every suffix
//! the paper's Theorem 1 needs, so proofs stay sound.
//!
//! Invariant kept: facts over-approximate reachable states. The analysis is interprocedural
//! and context-insensitive: a function is analysed from the join of the states all its call
//! sites pass in (the program's entry function also from the initial state: locals 0, globals
//! initialised), and a call takes the callee's summary — its return value and the values at
//! its exit of the globals it may write — joined over all calls. So a fact at a location holds
//! in every calling context, which is what extraction needs (a node is extracted the same way
//! in every context). Memory is not tracked. Loops are handled by widening (with thresholds)
//! at the headers of the loop nesting forest of `qicc_analysis::graph` (the targets of
//! retreating edges in its reverse post-order: they cut every cycle, reducible or not), then a
//! few narrowing rounds; recursion by widening the entry states and summaries after a few
//! rounds.
//!
//! [`stack`] adds facts about the addresses of stack objects (live, distinct), which the
//! intervals cannot express.

pub mod domain;
pub mod stack;
pub mod transfer;

use domain::Val;
use qicc_analysis::FunctionGraph;
use qicc_ir::{BinOp, Expr, FuncId, Function, Loc, Op, Program, Ty, TypeEnv, VarRef};
use std::collections::BTreeSet;
use transfer::{join_states, transfer, Slots, State};

/// The facts of a whole program.
pub struct Facts {
    /// Per function, per location: the abstract state (`None`: unreachable).
    states: Vec<Vec<State>>,
    num_locals: Vec<usize>,
}

/// Rounds of descending iteration after the widening fixpoint.
const NARROWING_ROUNDS: usize = 3;
/// Joins at a widening point before widening starts (gives constant-bounded loops a chance).
const WIDEN_DELAY: u32 = 3;

impl Facts {
    pub fn analyze(program: &Program) -> Facts {
        let flows: Vec<FunctionGraph> = program.functions.iter().map(FunctionGraph::new).collect();
        Facts::analyze_with(program, &flows.iter().collect::<Vec<_>>())
    }

    /// [`Facts::analyze`] with the control-flow analysis of every function (by function id)
    /// that the caller has computed already.
    pub fn analyze_with(program: &Program, flows: &[&FunctionGraph]) -> Facts {
        let states = interprocedural(program, flows, &|| false)
            .expect("an analysis that is never stopped finishes");
        let num_locals = program.functions.iter().map(|f| f.locals.len()).collect();
        Facts { states, num_locals }
    }

    /// [`Facts::analyze`], given up (`None`) as soon as `stop` says so: the analysis is
    /// linear in locations × variables per pass, which on a program with hundreds of globals
    /// is a second, and an engine that no longer needs its answer must not wait for it.
    pub fn analyze_until(program: &Program, stop: &dyn Fn() -> bool) -> Option<Facts> {
        let flows: Vec<FunctionGraph> = program.functions.iter().map(FunctionGraph::new).collect();
        let flows: Vec<&FunctionGraph> = flows.iter().collect();
        let states = interprocedural(program, &flows, stop)?;
        let num_locals = program.functions.iter().map(|f| f.locals.len()).collect();
        Some(Facts { states, num_locals })
    }

    /// The value of `v` at `loc` of `func` (`None`: unreachable location or untracked).
    pub fn value(&self, func: FuncId, loc: Loc, v: VarRef) -> Option<Val> {
        let st = self.states.get(func.index())?.get(loc.index())?.as_ref()?;
        let slots = Slots {
            num_locals: self.num_locals[func.index()],
        };
        st.get(slots.index(v)).copied().flatten()
    }

    pub fn is_reachable(&self, func: FuncId, loc: Loc) -> bool {
        self.states
            .get(func.index())
            .and_then(|s| s.get(loc.index()))
            .is_some_and(|s| s.is_some())
    }

    /// The facts at `loc` about `vars` as one IR condition (`None` when there is nothing to say).
    /// An unreachable location gives `false`.
    pub fn condition(
        &self,
        program: &Program,
        func: FuncId,
        loc: Loc,
        vars: &[VarRef],
    ) -> Option<Expr> {
        if !self.is_reachable(func, loc) {
            return Some(Expr::bool(false));
        }
        let f = program.function(func);
        let env = program.env(f);
        let mut parts = Vec::new();
        for &v in vars {
            let Some(val) = self.value(func, loc, v) else {
                continue;
            };
            let Ty::Int(w) = env.var_ty(v) else { continue };
            parts.extend(constraints(Expr::Var(v), w, &val));
        }
        parts
            .into_iter()
            .reduce(|a, b| Expr::binary(BinOp::And, a, b))
    }
}

/// Comparisons that describe `val` for an expression of width `w`.
fn constraints(x: Expr, w: u16, val: &Val) -> Vec<Expr> {
    let mut out = Vec::new();
    let c = |v: i128| Expr::int(w, v as u64);
    if let Some(k) = val.u.singleton() {
        out.push(Expr::binary(BinOp::Eq, x, c(k)));
        return out;
    }
    let (sf, uf) = (domain::signed_full(w), domain::unsigned_full(w));
    if val.s.lo > sf.lo {
        out.push(Expr::binary(BinOp::Sle, c(val.s.lo), x.clone()));
    }
    if val.s.hi < sf.hi {
        out.push(Expr::binary(BinOp::Sle, x.clone(), c(val.s.hi)));
    }
    // The unsigned view only adds something when the signed view does not imply it.
    // Within one half of the signed range the unsigned view is the signed one shifted.
    let implied_u = val.s.lo >= 0 || val.s.hi < 0;
    if !implied_u {
        if val.u.lo > uf.lo {
            out.push(Expr::binary(BinOp::Ule, c(val.u.lo), x.clone()));
        }
        if val.u.hi < uf.hi {
            out.push(Expr::binary(BinOp::Ule, x, c(val.u.hi)));
        }
    }
    out
}

/// For each function, the globals it may write, itself or through calls.
fn global_writes(program: &Program) -> Vec<BTreeSet<VarRef>> {
    let mut w: Vec<BTreeSet<VarRef>> = program
        .functions
        .iter()
        .map(|f| {
            f.edges
                .iter()
                .filter_map(|e| e.op.def())
                .filter(|v| matches!(v, VarRef::Global(_)))
                .collect()
        })
        .collect();
    loop {
        let mut changed = false;
        for (i, f) in program.functions.iter().enumerate() {
            for c in f.callees() {
                let add: Vec<VarRef> = w[c.index()].iter().copied().collect();
                for v in add {
                    changed |= w[i].insert(v);
                }
            }
        }
        if !changed {
            return w;
        }
    }
}

/// What a call of a function can return: the return value and the globals at `exit`, joined
/// over every call (`None`: no call has returned yet / can return).
#[derive(Clone, Debug, PartialEq)]
struct Summary {
    ret: Option<Val>,
    globals: Vec<Option<Val>>,
}

/// Rounds of the interprocedural fixpoint after which entry states and summaries are widened.
const INTERPROC_WIDEN_DELAY: u32 = 3;

/// The whole-program fixpoint: every function is analysed from the join of the states its
/// call sites pass in (the program's entry additionally from the initial state); a call takes
/// the callee's summary (its return value and, for the globals it may write, their values at
/// its exit). Context-insensitive, so a fact holds in every calling context.
/// `None` once `stop` says so (checked at every location of every pass).
fn interprocedural(
    program: &Program,
    flows: &[&FunctionGraph],
    stop: &dyn Fn() -> bool,
) -> Option<Vec<Vec<State>>> {
    let writes = global_writes(program);
    let nf = program.functions.len();
    let ng = program.globals.len();
    let mut entries: Vec<State> = vec![None; nf];
    let mut summaries: Vec<Option<Summary>> = vec![None; nf];
    let mut entry_updates = vec![0u32; nf];
    let mut summary_updates = vec![0u32; nf];
    let mut results: Vec<Vec<State>> = program
        .functions
        .iter()
        .map(|f| vec![None; f.num_locs as usize])
        .collect();
    let thresholds: Vec<Vec<i128>> = program.functions.iter().map(thresholds).collect();

    // The initial state of the program's entry function.
    if let Some(f) = program.functions.get(program.entry.index()) {
        let mut init = local_start(f);
        init.extend(program.globals.iter().map(|g| match (&g.init, g.ty) {
            (Some(Expr::Const { value, .. }), Ty::Int(w)) => Some(Val::constant(w, *value)),
            _ => None,
        }));
        entries[program.entry.index()] = Some(init);
    }

    loop {
        let mut changed = false;
        for fid in program.function_ids() {
            let Some(entry) = entries[fid.index()].clone() else {
                continue;
            };
            let f = program.function(fid);
            let slots = Slots {
                num_locals: f.locals.len(),
            };
            let call_post = |op: &Op, st: &[Option<Val>]| -> State {
                let Op::Call { dst, callee, .. } = op else {
                    return Some(st.to_vec());
                };
                let sum = summaries.get(callee.index())?.as_ref()?;
                let mut out = st.to_vec();
                for v in writes.get(callee.index()).into_iter().flatten() {
                    if let VarRef::Global(g) = v {
                        out[slots.index(*v)] = sum.globals.get(g.index()).copied().flatten();
                    }
                }
                if let Some(d) = dst {
                    out[slots.index(*d)] = sum.ret;
                }
                Some(out)
            };
            let states = analyze_function(
                program,
                f,
                flows[fid.index()],
                entry,
                &thresholds[fid.index()],
                &call_post,
                stop,
            )?;

            // This function's summary.
            if let Some(exit) = &states[f.exit.index()] {
                let new = Summary {
                    ret: f.ret.and_then(|r| exit[slots.index(VarRef::Local(r))]),
                    globals: (0..ng).map(|g| exit[f.locals.len() + g]).collect(),
                };
                let old = &summaries[fid.index()];
                let merged = match old {
                    None => new,
                    Some(o) => {
                        summary_updates[fid.index()] += 1;
                        let widen = summary_updates[fid.index()] > INTERPROC_WIDEN_DELAY;
                        let th = &thresholds[fid.index()];
                        let comb = |a: Option<Val>, b: Option<Val>| match (a, b) {
                            (Some(x), Some(y)) if widen => widen_slot(Some(x), Some(x.join(y)), th),
                            (Some(x), Some(y)) => Some(x.join(y)),
                            _ => None,
                        };
                        Summary {
                            ret: comb(o.ret, new.ret),
                            globals: o
                                .globals
                                .iter()
                                .zip(&new.globals)
                                .map(|(a, b)| comb(*a, *b))
                                .collect(),
                        }
                    }
                };
                if old.as_ref() != Some(&merged) {
                    summaries[fid.index()] = Some(merged);
                    changed = true;
                }
            }

            // What this function's call sites pass to their callees.
            for e in &f.edges {
                let Op::Call { callee, args, .. } = &e.op else {
                    continue;
                };
                let Some(st) = &states[e.from.index()] else {
                    continue;
                };
                let env = program.env(f);
                let g = program.function(*callee);
                let mut incoming = local_start(g);
                for (p, a) in g.params.iter().zip(args) {
                    incoming[p.index()] = transfer::eval(a, st, &slots, &env);
                }
                incoming.extend((0..ng).map(|i| st[f.locals.len() + i]));
                let old = entries[callee.index()].clone();
                let new = accumulate(
                    &old,
                    Some(incoming),
                    &mut entry_updates[callee.index()],
                    INTERPROC_WIDEN_DELAY,
                    &thresholds[callee.index()],
                );
                if new != old {
                    entries[callee.index()] = new;
                    changed = true;
                }
            }
            results[fid.index()] = states;
        }
        if !changed {
            return Some(results);
        }
    }
}

/// Locals on entry to a function: parameters unknown (set by the caller), the rest 0.
fn local_start(f: &Function) -> Vec<Option<Val>> {
    f.locals
        .iter()
        .enumerate()
        .map(|(i, l)| match l.ty {
            Ty::Int(w) if !f.params.iter().any(|p| p.index() == i) => Some(Val::constant(w, 0)),
            _ => None,
        })
        .collect()
}

/// One function from a given entry state (intraprocedural: widening, then narrowing).
fn analyze_function(
    program: &Program,
    f: &Function,
    flow: &FunctionGraph,
    init: Vec<Option<Val>>,
    thresholds: &[i128],
    call_post: &dyn Fn(&Op, &[Option<Val>]) -> State,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<State>> {
    let env = program.env(f);
    let slots = Slots {
        num_locals: f.locals.len(),
    };
    let n = f.num_locs as usize;
    let rpo = &flow.rpo;
    let post_of = |states: &[State], e: &qicc_ir::Edge| -> State {
        transfer(
            &states[e.from.index()],
            &e.op,
            &slots,
            &env as &dyn TypeEnv,
            call_post,
        )
    };
    let preds = flow.pred_lists();

    let mut states: Vec<State> = vec![None; n];
    states[f.entry.index()] = Some(init.clone());
    let mut visits = vec![0u32; n];
    // Ascending phase: iterate in reverse post-order until nothing changes.
    loop {
        let mut changed = false;
        for &l in rpo {
            if stop() {
                return None;
            }
            let mut new: State = if l == f.entry {
                Some(init.clone())
            } else {
                None
            };
            for &e in &preds[l.index()] {
                new = join_states(new, post_of(&states, f.edge(e)));
            }
            let old = &states[l.index()];
            let new = if flow.forest.is_header(l) {
                accumulate(old, new, &mut visits[l.index()], WIDEN_DELAY, thresholds)
            } else {
                match (old, new) {
                    (Some(o), Some(nw)) => join_states(Some(o.clone()), Some(nw)),
                    (_, nw) => nw.or_else(|| old.clone()),
                }
            };
            if &new != old {
                states[l.index()] = new;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    // Descending phase: recompute from predecessors; starting from a post-fixpoint this stays
    // above the least fixpoint, so every round is sound.
    for _ in 0..NARROWING_ROUNDS {
        for &l in rpo {
            if stop() {
                return None;
            }
            let mut new: State = if l == f.entry {
                Some(init.clone())
            } else {
                None
            };
            for &e in &preds[l.index()] {
                new = join_states(new, post_of(&states, f.edge(e)));
            }
            states[l.index()] = new;
        }
    }
    Some(states)
}

/// Widening thresholds of a function: every constant it compares against, one off on either
/// side, in both the signed and the unsigned reading, and 0.
fn thresholds(f: &Function) -> Vec<i128> {
    let mut out = BTreeSet::new();
    out.insert(0i128);
    for e in &f.edges {
        e.op.exprs(&mut |x| {
            x.visit(&mut |sub| {
                if let Expr::Binary(op, a, b) = sub {
                    if op.is_comparison() {
                        for side in [a, b] {
                            if let Expr::Const {
                                ty: Ty::Int(w),
                                value,
                            } = side.as_ref()
                            {
                                let u = *value as i128;
                                let s = qicc_ir::semantics::to_signed(*value, *w) as i128;
                                for v in [u, s] {
                                    out.extend([v - 1, v, v + 1]);
                                }
                            }
                        }
                    }
                }
            })
        });
    }
    out.into_iter().collect()
}

/// Joins `new` into `old`; once `count` (incremented per join of two reachable states)
/// exceeds `delay`, the join is widened with the thresholds.
fn accumulate(old: &State, new: State, count: &mut u32, delay: u32, thresholds: &[i128]) -> State {
    match (old, new) {
        (Some(o), Some(n)) => {
            *count += 1;
            let joined = join_states(Some(o.clone()), Some(n)).expect("both reachable");
            if *count > delay {
                Some(
                    o.iter()
                        .zip(joined)
                        .map(|(a, b)| widen_slot(*a, b, thresholds))
                        .collect(),
                )
            } else {
                Some(joined)
            }
        }
        (o, n) => n.or_else(|| o.clone()),
    }
}

fn widen_slot(old: Option<Val>, new: Option<Val>, thresholds: &[i128]) -> Option<Val> {
    match (old, new) {
        (Some(o), Some(n)) => {
            let w = o.widen(n, thresholds);
            (!w.is_top()).then_some(w)
        }
        _ => None,
    }
}
