//! Closed forms of the variables a loop path updates (paper, Sec. 3.1).
//!
//! Only *recurrent* variables need one: those `π` assigns and whose pre-iteration value `π`
//! reads (in a condition, a store, or the update of any variable). Their closed form `f_x(j)`
//! — the value at the start of iteration `j`, with `f_x(0) = x` — is a [`Poly`] found by
//! 1. **syntactic matching** of eq. (1): the update is `x + δ` with `δ` free of `x`; `δ`'s
//!    polynomial (other closed forms substituted) is `a + b·j`, so `f_x(j) = x + a·j +
//!    b·C(j,2)`. Variables are solved in dependency order (a counter before the sum it feeds);
//! 2. the **constraint-based method** of eq. (2) for the rest, in the binomial basis
//!    `f_x = x + (Σ β_i·x_i + γ)·j + δ·C(j,2)` over the path's variables of `x`'s width: the
//!    coefficients follow from evaluating the update concretely at the points of Theorem 1
//!    (`j = 1` at the origin and at each unit vector, `j = 2` at the origin; the points with
//!    `j = 0` only restate `f(X, 0) = X`), which needs no division in this basis.
//!
//! Every closed form, however found, is then **proved by induction** (formula 4) with the
//! solver over bit-vectors: assuming the state at iteration `N ≤ 2^30` is given by the closed
//! forms, the path's conditions hold there and the linearization's side conditions hold at
//! `N`, one more iteration of `π` gives the closed forms at `N + 1`. A form that fails is
//! dropped (the variable becomes ⊥), together with every form whose proof assumed it.

use crate::build::{add, int, mul};
use crate::overflow::in_range;
use crate::poly::{Lin, Poly, RangeCond, J_TY, N_MAX};
use crate::smt::Encoder;
use crate::summary::Summary;
use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::{BinOp, Expr, MemoryLayout, TypeEnv, UnOp, VarRef};
use qicc_smt::{CheckMode, CheckResult, Solver, TermId, TermStore};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// How a closed form was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Syntactic,
    Constraint,
}

pub(crate) struct Forms {
    pub forms: HashMap<VarRef, Poly>,
    pub method: HashMap<VarRef, Method>,
    /// Side conditions the syntactic forms rely on (to be guarded on `[0, n−1]`).
    pub side: Vec<RangeCond>,
    /// Recurrent variables without a closed form, with the reason.
    pub failed: Vec<(VarRef, String)>,
}

pub(crate) struct Inputs<'a> {
    pub env: &'a dyn TypeEnv,
    pub layout: MemoryLayout,
    pub summary: &'a Summary,
    pub assigned: &'a [VarRef],
    pub recurrent: &'a [VarRef],
    pub loads_invariant: bool,
    /// The iteration variable used to state the induction step (an `i32` local).
    pub n: Expr,
    pub deadline: Option<Instant>,
}

pub(crate) fn closed_forms(inp: &Inputs) -> Forms {
    let mut forms: HashMap<VarRef, Poly> = HashMap::new();
    let mut method = HashMap::new();
    let mut side: Vec<(VarRef, RangeCond)> = Vec::new();
    let mut why: HashMap<VarRef, String> = HashMap::new();
    // 1. Syntactic matching, to a fixpoint (each round solves the variables whose
    //    increments only involve solved ones).
    loop {
        let mut progress = false;
        for &x in inp.recurrent {
            if forms.contains_key(&x) {
                continue;
            }
            let Some(update) = inp.summary.post_of(x) else {
                continue;
            };
            match syntactic(inp, x, update, &forms) {
                Ok((p, conds)) => {
                    forms.insert(x, p);
                    method.insert(x, Method::Syntactic);
                    side.extend(conds.into_iter().map(|c| (x, c)));
                    why.remove(&x);
                    progress = true;
                }
                Err(e) => {
                    why.insert(x, e);
                }
            }
        }
        if !progress {
            break;
        }
    }
    // 2. The constraint-based method for the rest.
    for &x in inp.recurrent {
        if forms.contains_key(&x) {
            continue;
        }
        if let Some(p) = constraint_based(inp, x) {
            forms.insert(x, p);
            method.insert(x, Method::Constraint);
        }
    }
    // 3. Induction proof of everything found; drop what fails and what depends on it. A
    //    form whose update reads a recurrent variable without a form cannot be proved (the
    //    proof would treat that variable as constant): drop those first.
    let mut pending: BTreeSet<VarRef> = inp
        .recurrent
        .iter()
        .filter(|v| !forms.contains_key(v))
        .copied()
        .collect();
    let mut first_round = true;
    loop {
        if !pending.is_empty() {
            let seed = std::mem::take(&mut pending);
            let dropped = dependents(inp, &forms, seed.clone());
            for v in &dropped {
                if forms.remove(v).is_some() {
                    let reason = match (method.remove(v), why.get(v)) {
                        _ if first_round || !seed.contains(v) => {
                            "its update reads a variable without a closed form".to_string()
                        }
                        (Some(Method::Constraint), Some(syn)) => {
                            format!("{syn}; the constraint-based candidate is not inductive")
                        }
                        _ => "the closed form is not provably inductive".to_string(),
                    };
                    why.insert(*v, reason);
                }
            }
            side.retain(|(v, _)| !dropped.contains(v));
        }
        if forms.is_empty() {
            break;
        }
        first_round = false;
        let conds: Vec<RangeCond> = side.iter().map(|(_, c)| c.clone()).collect();
        match prove(inp, &forms, &conds) {
            Ok(()) => break,
            Err(bad) => {
                pending = bad.into_iter().collect();
                if pending.is_empty() {
                    // The prover gave up: trust nothing.
                    pending = forms.keys().copied().collect();
                }
            }
        }
    }
    let failed = inp
        .recurrent
        .iter()
        .filter(|v| !forms.contains_key(v))
        .map(|v| {
            let reason = why
                .get(v)
                .cloned()
                .unwrap_or_else(|| "no closed form".to_string());
            (*v, reason)
        })
        .collect();
    Forms {
        forms,
        method,
        side: side.into_iter().map(|(_, c)| c).collect(),
        failed,
    }
}

/// `seed` and every variable with a form whose update (transitively) reads one of them.
fn dependents(
    inp: &Inputs,
    forms: &HashMap<VarRef, Poly>,
    seed: BTreeSet<VarRef>,
) -> BTreeSet<VarRef> {
    let mut out = seed;
    loop {
        let more: Vec<VarRef> = forms
            .keys()
            .filter(|v| !out.contains(v))
            .filter(|v| {
                inp.summary
                    .post_of(**v)
                    .is_some_and(|e| e.vars().iter().any(|r| out.contains(r)))
            })
            .copied()
            .collect();
        if more.is_empty() {
            return out;
        }
        out.extend(more);
    }
}

/// Splits `e` into signed summands.
fn summands(e: &Expr, positive: bool, out: &mut Vec<(bool, Expr)>) {
    match e {
        Expr::Binary(BinOp::Add, a, b) => {
            summands(a, positive, out);
            summands(b, positive, out);
        }
        Expr::Binary(BinOp::Sub, a, b) => {
            summands(a, positive, out);
            summands(b, !positive, out);
        }
        Expr::Unary(UnOp::Neg, a) => summands(a, !positive, out),
        other => out.push((positive, other.clone())),
    }
}

/// Eq. (1): `x := x + δ`.
fn syntactic(
    inp: &Inputs,
    x: VarRef,
    update: &Expr,
    forms: &HashMap<VarRef, Poly>,
) -> Result<(Poly, Vec<RangeCond>), String> {
    let ty = inp.env.var_ty(x);
    let mut parts = Vec::new();
    summands(update, true, &mut parts);
    let me = Expr::Var(x);
    let pos = parts.iter().position(|(s, e)| *s && *e == me);
    let Some(pos) = pos else {
        return Err("the update is not of the form x + δ".into());
    };
    parts.remove(pos);
    if parts.iter().any(|(_, e)| e.vars().contains(&x)) {
        return Err("the increment depends on the variable itself".into());
    }
    let mut delta = int(ty, 0);
    for (s, e) in parts {
        delta = if s {
            add(delta, e)
        } else {
            crate::build::sub(delta, e)
        };
    }
    let mut lin = Lin {
        env: inp.env,
        assigned: inp.assigned,
        forms,
        loads_invariant: inp.loads_invariant,
        side: Vec::new(),
    };
    let d = lin.lin(&delta)?;
    if d.degree() > 1 {
        return Err("the increment is quadratic (the closed form would be cubic)".into());
    }
    Ok((
        Poly {
            ty,
            c0: me,
            c1: d.c0,
            c2: d.c1,
        },
        lin.side,
    ))
}

/// Eq. (2) with coefficients from Theorem 1's evaluation points (binomial basis).
fn constraint_based(inp: &Inputs, x: VarRef) -> Option<Poly> {
    let ty = inp.env.var_ty(x);
    let w = ty.bits();
    let m = ty.mask();
    // The template's variables: everything of x's width the updates read, and the
    // recurrent variables of that width.
    let mut vars: BTreeSet<VarRef> = BTreeSet::new();
    let mut all_vars: BTreeSet<VarRef> = BTreeSet::new();
    for &r in inp.recurrent {
        all_vars.insert(r);
        if let Some(e) = inp.summary.post_of(r) {
            all_vars.extend(e.vars());
        }
    }
    for &v in &all_vars {
        if inp.env.var_ty(v) == ty {
            vars.insert(v);
        }
    }
    let step = |state: &HashMap<VarRef, u64>| -> Option<HashMap<VarRef, u64>> {
        let mut next = state.clone();
        for &r in inp.recurrent {
            let e = inp.summary.post_of(r)?;
            next.insert(r, eval_concrete(e, state, inp.env)?);
        }
        Some(next)
    };
    let origin: HashMap<VarRef, u64> = all_vars.iter().map(|v| (*v, 0)).collect();
    let s1 = step(&origin)?;
    let s2 = step(&s1)?;
    let gamma = *s1.get(&x)? & m;
    let delta = s2.get(&x)?.wrapping_sub(2u64.wrapping_mul(gamma)) & m;
    let mut c1 = int(ty, gamma);
    for &v in &vars {
        let mut unit = origin.clone();
        unit.insert(v, 1);
        let u = *step(&unit)?.get(&x)?;
        let alpha = (v == x) as u64;
        let beta = u.wrapping_sub(alpha).wrapping_sub(gamma) & m;
        if beta != 0 {
            c1 = add(c1, mul(int(ty, beta), Expr::Var(v)));
        }
    }
    let _ = w;
    Some(Poly {
        ty,
        c0: Expr::Var(x),
        c1,
        c2: int(ty, delta),
    })
}

/// Concrete value of an expression over a variable assignment (unlisted variables are 0);
/// `None` if it reads memory.
fn eval_concrete(e: &Expr, vals: &HashMap<VarRef, u64>, env: &dyn TypeEnv) -> Option<u64> {
    Some(match e {
        Expr::Const { value, .. } => *value,
        Expr::Var(v) => vals.get(v).copied().unwrap_or(0) & env.var_ty(*v).mask(),
        Expr::Unary(op, a) => eval_unop(*op, a.ty(env), eval_concrete(a, vals, env)?),
        Expr::Binary(op, a, b) => eval_binop(
            *op,
            a.ty(env),
            eval_concrete(a, vals, env)?,
            eval_concrete(b, vals, env)?,
        ),
        Expr::Cast(op, to, a) => eval_cast(*op, a.ty(env), *to, eval_concrete(a, vals, env)?),
        Expr::Ite(c, a, b) => {
            if eval_concrete(c, vals, env)? != 0 {
                eval_concrete(a, vals, env)?
            } else {
                eval_concrete(b, vals, env)?
            }
        }
        // Float updates get no closed form (issue 19: loops with float updates stay
        // unaccelerated until a closed form is known to be exact).
        Expr::ObjAddr(_) | Expr::Load(..) | Expr::Valid(..) | Expr::Fp(..) => return None,
    })
}

/// Time limit of one induction query.
const PROOF_LIMIT: Duration = Duration::from_secs(10);

/// Formula (4) for all forms at once. `Err(vars)`: the forms of `vars` are not inductive
/// (empty: the solver could not decide).
fn prove(
    inp: &Inputs,
    forms: &HashMap<VarRef, Poly>,
    side: &[RangeCond],
) -> Result<(), Vec<VarRef>> {
    let mut store = TermStore::new();
    let mut pre = Encoder::new(&mut store, inp.layout, "p.");
    let n = inp.n.clone();
    let mut hyp: Vec<TermId> = Vec::new();
    let bound = crate::build::bin(BinOp::Ule, n.clone(), int(J_TY, N_MAX));
    hyp.push(pre.encode(&mut store, &bound, inp.env));
    // The state at iteration N. `C(N, 2)` is a free symbol T, and `C(N + 1, 2) = T + N`:
    // proving the step for every T proves it for T = C(N, 2), and it keeps the two sides
    // of each claim sums of the same products, which bit-vector solvers handle easily
    // (unlike equivalences of different multiplications).
    let n_term = pre.encode(&mut store, &n, inp.env);
    let t_term = store.symbol("p.choose2", qicc_smt::Sort::BitVec(64));
    let mut at_n: HashMap<VarRef, TermId> = HashMap::new();
    let mut at_next: HashMap<VarRef, TermId> = HashMap::new();
    let mut keys: Vec<VarRef> = forms.keys().copied().collect();
    keys.sort();
    for v in &keys {
        let (now, next) = encode_step(&mut store, &mut pre, inp.env, &forms[v], n_term, t_term);
        at_n.insert(*v, now);
        at_next.insert(*v, next);
    }
    let mut state = Encoder::new(&mut store, inp.layout, "p.");
    state.mem = pre.mem;
    state.vars = pre.vars.clone();
    for (v, t) in &at_n {
        state.vars.insert(*v, *t);
    }
    // Variables nobody encoded yet must be the same symbols in both encoders.
    let mut all: BTreeSet<VarRef> = BTreeSet::new();
    for e in inp
        .summary
        .atoms
        .iter()
        .chain(inp.summary.post.iter().map(|(_, e)| e))
    {
        all.extend(e.vars());
    }
    for v in all {
        if let std::collections::hash_map::Entry::Vacant(slot) = state.vars.entry(v) {
            slot.insert(pre.var(&mut store, v, inp.env));
        }
    }
    // Conditions reading a variable without a form would be stated about a wrong value:
    // leave them out (a weaker hypothesis keeps the proof sound).
    let unknown: Vec<VarRef> = inp
        .recurrent
        .iter()
        .filter(|v| !forms.contains_key(v))
        .copied()
        .collect();
    for a in &inp.summary.atoms {
        if !crate::build::reads_any(a, &unknown) {
            hyp.push(state.encode(&mut store, a, inp.env));
        }
    }
    for c in side {
        let g = in_range(&c.poly, c.interp, &n);
        hyp.push(pre.encode(&mut store, &g, inp.env));
    }
    let mut claims = Vec::new();
    for v in &keys {
        let Some(update) = inp.summary.post_of(*v) else {
            continue;
        };
        let lhs = state.encode(&mut store, update, inp.env);
        let rhs = at_next[v];
        claims.push((*v, store.eq(lhs, rhs)));
    }
    let all_claims: Vec<TermId> = claims.iter().map(|(_, c)| *c).collect();
    let goal = store.and_all(&all_claims);
    let negated = store.not(goal);
    let mut solver = crate::interrupt::solver(CheckMode::FreshPerCheck);
    let remaining = inp
        .deadline
        .map(|d| d.saturating_duration_since(Instant::now()));
    solver.set_timeout(Some(remaining.map_or(PROOF_LIMIT, |r| r.min(PROOF_LIMIT))));
    for h in &hyp {
        solver.assert(&store, *h);
    }
    solver.assert(&store, negated);
    match solver.check(&store, &[]) {
        CheckResult::Unsat => Ok(()),
        CheckResult::Sat => {
            let bad: Vec<VarRef> = claims
                .iter()
                .filter(|(_, c)| solver.value(&store, *c).is_some_and(|v| v.as_u64() == 0))
                .map(|(v, _)| *v)
                .collect();
            Err(bad)
        }
        CheckResult::Unknown(_) => Err(Vec::new()),
    }
}

/// A polynomial at `N` and at `N + 1` as terms, with `C(N, 2)` the symbol `t` (64 bits).
fn encode_step(
    store: &mut TermStore,
    pre: &mut Encoder,
    env: &dyn TypeEnv,
    p: &Poly,
    n: TermId,
    t: TermId,
) -> (TermId, TermId) {
    let w = p.ty.bits();
    let nw = match w.cmp(&J_TY.bits()) {
        std::cmp::Ordering::Less => store.extract(w - 1, 0, n),
        std::cmp::Ordering::Equal => n,
        std::cmp::Ordering::Greater => store.zero_ext(w - J_TY.bits(), n),
    };
    let tw = if w == 64 {
        t
    } else {
        store.extract(w - 1, 0, t)
    };
    let c0 = pre.encode(store, &p.c0, env);
    let c1 = pre.encode(store, &p.c1, env);
    let c2 = pre.encode(store, &p.c2, env);
    let c1n = store.bv_bin(qicc_smt::BvBinOp::Mul, c1, nw);
    let c2t = store.bv_bin(qicc_smt::BvBinOp::Mul, c2, tw);
    let c2n = store.bv_bin(qicc_smt::BvBinOp::Mul, c2, nw);
    let now = store.add(c0, c1n);
    let now = store.add(now, c2t);
    let next = store.add(now, c1);
    let next = store.add(next, c2n);
    (now, next)
}

/// `x`'s closed form at `j`, as text for reports.
pub(crate) fn describe(p: &Poly, show: &dyn Fn(&Expr) -> String) -> String {
    let mut s = show(&p.c0);
    if p.degree() >= 1 {
        s.push_str(&format!(" + ({})·j", show(&p.c1)));
    }
    if p.degree() == 2 {
        s.push_str(&format!(" + ({})·j(j-1)/2", show(&p.c2)));
    }
    s
}
