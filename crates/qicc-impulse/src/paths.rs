//! Path selection (paper, Sec. 3.5): loop paths `π` such that `π²` is feasible, found with
//! the distinguisher / shadow-distinguisher encoding of Fig. 3.
//!
//! The acyclic body of the loop is executed symbolically twice in a row. Every edge that
//! leaves a *branching* location (one with several body or closing edges) has one Boolean
//! *shadow distinguisher* `s_e`, shared by both copies: copy `c` may take the edge only if
//! `s_e` holds, and at most one `s_e` per location holds. Both copies are required to reach
//! a closing edge, so a model is one path `π` (read off the `s_e`) that is feasible twice in a
//! row from some state. The path is blocked (`¬⋀ s_e` over its branching edges) and the
//! solver asked again, up to a bound. The distinguishers `d_i` of the paper are the edge
//! guards of each copy; equating them with the shared `s_e` is the paper's
//! `assume(d_i = s_i)`.
//!
//! Selection only ranks candidates: memory and `valid` are over-approximated (see
//! [`crate::smt`]) and a solver timeout just ends the enumeration. Whether a path is really
//! accelerated is decided by the later steps, which are exact.

use crate::loops::LoopInfo;
use crate::smt::{sort_of, Encoder};
use qicc_ir::{EdgeId, Function, Loc, Op, Program, TypeEnv, VarRef};
use qicc_smt::{CheckMode, CheckResult, SmtSolver, Solver, TermId, TermStore};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// The symbolic state of one copy at one location.
#[derive(Clone)]
struct State {
    vars: HashMap<VarRef, TermId>,
    mem: TermId,
}

struct Ctx<'a> {
    program: &'a Program,
    func: &'a Function,
    lp: &'a LoopInfo,
    /// Eligible out-edges (body and closing) of each location.
    out: Vec<Vec<EdgeId>>,
    is_closing: Vec<bool>,
    sel: HashMap<EdgeId, TermId>,
}

/// Up to `max` loop paths (edge lists from the head back to it) with `π²` feasible, most
/// constrained first as the solver finds them. `Err` only when the solver failed on the very
/// first question.
pub(crate) fn select_paths(
    program: &Program,
    func: &Function,
    lp: &LoopInfo,
    max: usize,
    deadline: Option<Instant>,
) -> Result<Vec<Vec<EdgeId>>, String> {
    let n = func.num_locs as usize;
    let mut out = vec![Vec::new(); n];
    let mut is_closing = vec![false; func.edges.len()];
    for &e in lp.body.iter().chain(&lp.closing) {
        out[func.edge(e).from.index()].push(e);
    }
    for &e in &lp.closing {
        is_closing[e.index()] = true;
    }
    for o in &mut out {
        o.sort();
    }
    let mut store = TermStore::new();
    let mut sel = HashMap::new();
    let mut solver = crate::interrupt::solver(CheckMode::Incremental);
    for l in &lp.topo {
        let edges = &out[l.index()];
        if edges.len() < 2 {
            continue;
        }
        let terms: Vec<TermId> = edges
            .iter()
            .map(|e| store.symbol(&format!("s.e{}", e.0), qicc_smt::Sort::Bool))
            .collect();
        for (e, t) in edges.iter().zip(&terms) {
            sel.insert(*e, *t);
        }
        for i in 0..terms.len() {
            for j in i + 1..terms.len() {
                let both = store.and(terms[i], terms[j]);
                let not_both = store.not(both);
                solver.assert(&store, not_both);
            }
        }
    }
    let ctx = Ctx {
        program,
        func,
        lp,
        out,
        is_closing,
        sel,
    };
    let env = program.env(func);
    let init = initial_state(&ctx, &mut store, &env);
    let tt = store.tt();
    let (end1, st1) = run_copy(&ctx, &mut store, &env, 1, tt, init);
    let Some(st1) = st1 else {
        return Ok(Vec::new());
    };
    let (end2, _) = run_copy(&ctx, &mut store, &env, 2, end1, st1);
    let goal = store.and(end1, end2);
    solver.assert(&store, goal);
    let mut paths = Vec::new();
    while paths.len() < max {
        let remaining = deadline.map(|d| d.saturating_duration_since(Instant::now()));
        if remaining == Some(Duration::ZERO) {
            break;
        }
        let limit = remaining.map_or(PER_CHECK, |r| r.min(PER_CHECK));
        solver.set_timeout(Some(limit));
        match solver.check(&store, &[]) {
            CheckResult::Sat => {}
            CheckResult::Unsat => break,
            CheckResult::Unknown(why) => {
                if paths.is_empty() {
                    return Err(format!("path selection: solver answered unknown ({why})"));
                }
                break;
            }
        }
        let Some(path) = read_path(&ctx, &mut solver, &store) else {
            break;
        };
        let chosen: Vec<TermId> = path
            .iter()
            .filter_map(|e| ctx.sel.get(e).copied())
            .collect();
        if chosen.is_empty() {
            // The loop has a single path: nothing left to enumerate.
            paths.push(path);
            break;
        }
        let all = store.and_all(&chosen);
        let block = store.not(all);
        solver.assert(&store, block);
        paths.push(path);
    }
    Ok(paths)
}

/// Time limit of one selection query.
const PER_CHECK: Duration = Duration::from_secs(10);

/// Fresh symbols for every variable the loop reads or writes, and for memory.
fn initial_state(ctx: &Ctx, store: &mut TermStore, env: &dyn TypeEnv) -> State {
    let mut vars = BTreeSet::new();
    for &e in ctx.lp.body.iter().chain(&ctx.lp.closing) {
        let op = &ctx.func.edge(e).op;
        op.exprs(&mut |x| vars.extend(x.vars()));
        if let Some(d) = op.def() {
            vars.insert(d);
        }
    }
    let enc = Encoder::new(store, ctx.program.layout, "c0.");
    let mut map = HashMap::new();
    for v in vars {
        let name = match v {
            VarRef::Local(l) => format!("c0.l{}", l.0),
            VarRef::Global(g) => format!("c0.g{}", g.0),
        };
        map.insert(v, store.symbol(&name, sort_of(env.var_ty(v))));
    }
    State {
        vars: map,
        mem: enc.mem,
    }
}

fn merge(store: &mut TermStore, incoming: &[(TermId, State)]) -> Option<(TermId, State)> {
    let (first_guard, first) = incoming.first()?;
    let mut reach = *first_guard;
    let mut st = first.clone();
    for (g, s) in &incoming[1..] {
        reach = store.or(reach, *g);
        for (v, t) in st.vars.iter_mut() {
            if let Some(&other) = s.vars.get(v) {
                *t = store.ite(*g, other, *t);
            }
        }
        st.mem = store.ite(*g, s.mem, st.mem);
    }
    Some((reach, st))
}

/// Runs one copy of the body from the head; returns the guard of reaching a closing edge and
/// the merged state there.
fn run_copy(
    ctx: &Ctx,
    store: &mut TermStore,
    env: &dyn TypeEnv,
    copy: u32,
    start_guard: TermId,
    start: State,
) -> (TermId, Option<State>) {
    let n = ctx.func.num_locs as usize;
    let mut incoming: Vec<Vec<(TermId, State)>> = vec![Vec::new(); n];
    incoming[ctx.lp.head.index()].push((start_guard, start));
    let mut ends: Vec<(TermId, State)> = Vec::new();
    let mut enc = Encoder::new(store, ctx.program.layout, &format!("c{copy}."));
    for &l in &ctx.lp.topo {
        let list = std::mem::take(&mut incoming[l.index()]);
        let Some((reach, st)) = merge(store, &list) else {
            continue;
        };
        for &e in &ctx.out[l.index()] {
            let edge = ctx.func.edge(e);
            enc.vars = st.vars.clone();
            enc.mem = st.mem;
            let mut guard = reach;
            if let Some(&s) = ctx.sel.get(&e) {
                guard = store.and(guard, s);
            }
            let mut next = st.clone();
            match &edge.op {
                Op::Assume(c) => {
                    let c = enc.encode(store, c, env);
                    guard = store.and(guard, c);
                }
                Op::Assign(v, x) => {
                    let t = enc.encode(store, x, env);
                    next.vars.insert(*v, t);
                }
                Op::Havoc(v, _) => {
                    let t = store.symbol(&format!("c{copy}.h{}", e.0), sort_of(env.var_ty(*v)));
                    next.vars.insert(*v, t);
                }
                Op::Store { ty, addr, value } => {
                    let a = enc.encode(store, addr, env);
                    let v = enc.encode(store, value, env);
                    let mut mem = st.mem;
                    for i in 0..(ty.bits() / 8) {
                        let at = store.add_const(a, i as u64);
                        let byte = store.extract(8 * i + 7, 8 * i, v);
                        mem = store.store(mem, at, byte);
                    }
                    next.mem = mem;
                }
                _ => {}
            }
            if store.as_bool_const(guard) == Some(false) {
                continue;
            }
            if ctx.is_closing[e.index()] {
                ends.push((guard, next));
            } else {
                incoming[edge.to.index()].push((guard, next));
            }
        }
    }
    match merge(store, &ends) {
        Some((g, s)) => (g, Some(s)),
        None => (store.ff(), None),
    }
}

/// The path the model selects: from the head, the only eligible edge or the selected one.
fn read_path(ctx: &Ctx, solver: &mut SmtSolver, store: &TermStore) -> Option<Vec<EdgeId>> {
    let mut path = Vec::new();
    let mut at: Loc = ctx.lp.head;
    for _ in 0..=ctx.func.num_locs {
        let edges = &ctx.out[at.index()];
        let e = if edges.len() == 1 {
            edges[0]
        } else {
            *edges.iter().find(|e| {
                ctx.sel
                    .get(e)
                    .and_then(|t| solver.value(store, *t))
                    .is_some_and(|v| v.as_u64() == 1)
            })?
        };
        path.push(e);
        if ctx.is_closing[e.index()] {
            return Some(path);
        }
        at = ctx.func.edge(e).to;
    }
    None
}
