//! Candidate invariants of a loop head: conditions that may hold at every visit of the head,
//! for Houdini to check (a wrong candidate is dropped, never assumed).
//!
//! Every candidate is an IR condition in the IR's bit-precise semantics over the function's
//! variables and the loop's ghosts (`qicc_analysis::loop_cut`: the values at loop entry).
//! The families, each from what the program itself says:
//! - **guards and assertions**: the conditions of the `assume` edges of the loop and of the
//!   loops around it, split at `and`, the conditions of the assertions inside, and the
//!   non-strict form of each strict comparison (`i < n` gives `i <= n`, which holds at the
//!   head of a counting loop where `i < n` does not); and the conditions of the function's
//!   other assertions (not undefined-behaviour checks) that read a variable the loop changes
//!   (a postcondition);
//! - **interval facts** of `qicc-facts` at the head;
//! - **against the entry values**: `x0 <= x`, `x <= x0` (signed and unsigned) for each variable
//!   `x` the loop changes, with its ghost `x0`;
//! - **constant steps**: where every iteration adds the same constant `dx` to `x` (found by a
//!   pass over the loop body), for pairs `x`, `y` the linear relation `dy*x - dx*y ==
//!   dy*x0 - dx*y0` (it holds modulo 2^w, so overflow cannot break it), the step's residue
//!   `(x - x0) % dx == 0`; for a guard `x < e` where every step of `x` is positive, at most
//!   `d`, the bound `x < e + d` (also as `x == x0 || x < e + d`, which holds before the first
//!   iteration too);
//! - **parity and phases**: `x % 2 == r`, and `b || x % 2 == r` for each branch condition `b`
//!   of the loop body (a loop that steps by 1 while `b` and by 2 after);
//! - **phases**: for each branch condition `b` of the body, `b || v == v0`, `b || v == u`
//!   and `b || g` for each guard `g` in its non-strict form (what holds while the branch is
//!   not taken);
//! - **constants**: `v == c` for a constant the loop assigns, and `y == y0 || v == c` for
//!   each variable `y` that steps;
//! - **closed forms** (second stage, added by [`crate::prove`] from [`crate::closed`]):
//!   `x == f_x(j)` for Impulse's closed form `f_x` of a path of the loop, over the iterations
//!   done `j` (exact acceleration as invariants);
//! - **order**: `x <= y` and `y <= x` for a variable `x` the loop changes and any variable `y`
//!   of the same width the loop reads (signed or unsigned as the variables are declared);
//! - **sums of bounded terms** (the elements stage of [`crate::prove`], [`sums`]): where the
//!   loop adds a term with known constant bounds to a variable, the variable's bounds over
//!   the steps of a counter (`s - s0 <= 10*(i - i0)` for `s += a[i]` with `a[i] <= 10`).
//!
//! The list is cut at [`MAX_PER_LOOP`] candidates per loop, guards first. A candidate over a
//! local that is not live at the head (`LoopInfo::live_locals`: every path from the head
//! writes it before reading it) is left out: no check can use it.

use qicc_analysis::loops::topo_order;
use qicc_analysis::{FunctionGraph, LoopInfo, NaturalLoop};
use qicc_facts::Facts;
use qicc_ir::{BinOp, Expr, FuncId, Function, Op, Program, Ty, TypeEnv, UnOp, VarRef};
use std::collections::{BTreeMap, BTreeSet};

/// At most this many candidates per loop head.
pub const MAX_PER_LOOP: usize = 256;

/// The candidates of every loop, in two stages (each parallel to the loops): Houdini tries
/// `extra` (phases and constants, which multiply with the branches and variables) only when
/// `basic` does not prove every assertion; the closed forms ([`crate::closed`]) join the
/// second stage there.
pub struct Candidates {
    pub basic: Vec<Vec<Expr>>,
    pub extra: Vec<Vec<Expr>>,
    /// The variables with one constant step (variable, step, width) of each loop: what the
    /// closed forms ([`crate::closed`]) count iterations with.
    pub stepped: Vec<Vec<(VarRef, i128, u16)>>,
    /// How many of each loop's `basic` candidates, first, are the guards' and assertions'
    /// conditions (the program's own statements of what holds).
    pub stated: Vec<usize>,
}

/// The candidates of every loop of the prepared program `p` (parallel to `loops`).
/// `stop`: the caller's budget is exhausted (the portfolio stops this prover when another
/// engine has the answer): the loops not yet done get no candidates.
pub fn candidates(
    p: &Program,
    loops: &[LoopInfo],
    facts: &Facts,
    stop: &dyn Fn() -> bool,
) -> Candidates {
    let graphs: BTreeMap<FuncId, FunctionGraph> = loops
        .iter()
        .map(|l| l.func)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .map(|f| (f, FunctionGraph::new(p.function(f))))
        .collect();
    let mut out = Candidates {
        basic: Vec::new(),
        extra: Vec::new(),
        stepped: Vec::new(),
        stated: Vec::new(),
    };
    for l in loops {
        if stop() {
            out.basic.push(Vec::new());
            out.extra.push(Vec::new());
            out.stepped.push(Vec::new());
            out.stated.push(0);
            continue;
        }
        let g = &graphs[&l.func];
        let nl = g.natural_loops.iter().find(|n| n.head == l.head);
        let (basic, extra, stepped, stated) = of_loop(p, loops, l, nl, facts, stop);
        out.stated.push(stated.min(basic.len()));
        out.basic.push(basic);
        out.extra.push(extra);
        out.stepped.push(stepped);
    }
    out
}

fn of_loop(
    p: &Program,
    loops: &[LoopInfo],
    l: &LoopInfo,
    nl: Option<&NaturalLoop>,
    facts: &Facts,
    stop: &dyn Fn() -> bool,
) -> (Vec<Expr>, Vec<Expr>, Vec<(VarRef, i128, u16)>, usize) {
    let f = p.function(l.func);
    let env = p.env(f);
    let mut out = Cands::default();
    // Guards and assertions of this loop and the loops around it.
    let around: Vec<&LoopInfo> = loops
        .iter()
        .filter(|o| o.func == l.func && o.locs.binary_search(&l.head).is_ok())
        .collect();
    let in_some = |x| around.iter().any(|o| o.locs.binary_search(&x).is_ok());
    for e in f.edges.iter().filter(|e| in_some(e.from)) {
        if stop() {
            break;
        }
        if let Op::Assume(c) = &e.op {
            let asserted = f
                .edges
                .iter()
                .any(|x| x.from == e.to && matches!(x.op, Op::Error(_)));
            let c = if asserted { negate(c) } else { c.clone() };
            for part in conjuncts(&c) {
                if part.ty(&env) == Ty::Bool {
                    out.push(weaken(&part));
                    out.push(part);
                }
            }
        }
    }
    // The assertions elsewhere in the function over a variable the loop changes: a
    // postcondition is often an invariant, or one together with others (`k <= 100` beside
    // `k <= i` when `i < 100` guards the loop).
    for e in f.edges.iter().filter(|e| !in_some(e.from)) {
        if stop() {
            break;
        }
        let Op::Assume(c) = &e.op else { continue };
        // The program's own assertions, not the undefined-behaviour checks.
        let asserted = f.edges.iter().any(|x| {
            x.from == e.to
                && matches!(x.op, Op::Error(a)
                    if p.assertions.get(a.index()).is_some_and(|a| a.kind.is_property()))
        });
        if !asserted || !c.vars().iter().any(|v| l.modifies(*v)) {
            continue;
        }
        for part in conjuncts(&negate(c)) {
            if part.ty(&env) == Ty::Bool {
                out.push(weaken(&part));
                out.push(part);
            }
        }
    }
    let stated = out.list.len();
    // Interval facts at the head.
    let vars = int_vars(p, f);
    if let Some(c) = facts.condition(p, l.func, l.head, &vars) {
        for part in conjuncts(&c) {
            out.push(part);
        }
    }
    // Against the entry values, and constant steps.
    let steps = nl.map(|nl| steps(p, f, loops, l, nl)).unwrap_or_default();
    for &(v, g) in &l.ghosts {
        let (x, x0) = (Expr::Var(v), Expr::local(g));
        for le in [BinOp::Sle, BinOp::Ule] {
            out.push(Expr::binary(le, x0.clone(), x.clone()));
            out.push(Expr::binary(le, x.clone(), x0.clone()));
        }
    }
    let single = |v: VarRef| -> Option<i128> {
        let s = steps.get(&v)?;
        (s.len() == 1).then(|| s.iter().next().copied()).flatten()
    };
    let stepped: Vec<(VarRef, i128, u16)> = l
        .ghosts
        .iter()
        .filter_map(|&(v, _)| {
            let d = single(v)?;
            let Ty::Int(w) = env.var_ty(v) else {
                return None;
            };
            (d != 0).then_some((v, d, w))
        })
        .collect();
    for (i, &(x, dx, w)) in stepped.iter().enumerate() {
        let x0 = l.ghost_of(x).map(Expr::local);
        let Some(x0) = x0 else { continue };
        let diff = Expr::binary(BinOp::Sub, Expr::Var(x), x0.clone());
        if dx.unsigned_abs() > 1 {
            out.push(Expr::binary(
                BinOp::Eq,
                residue(diff, dx.unsigned_abs() as u64, w),
                Expr::int(w, 0),
            ));
        }
        for &(y, dy, wy) in &stepped[i + 1..] {
            if wy != w {
                continue;
            }
            let Some(y0) = l.ghost_of(y).map(Expr::local) else {
                continue;
            };
            let g = gcd(dx.unsigned_abs(), dy.unsigned_abs()) as i128;
            let (a, b) = (dy / g, dx / g);
            let lin = |xv: Expr, yv: Expr| {
                Expr::binary(
                    BinOp::Sub,
                    Expr::binary(BinOp::Mul, Expr::int(w, a as u64), xv),
                    Expr::binary(BinOp::Mul, Expr::int(w, b as u64), yv),
                )
            };
            out.push(Expr::binary(
                BinOp::Eq,
                lin(Expr::Var(x), Expr::Var(y)),
                lin(x0.clone(), y0),
            ));
        }
    }
    // A guard `x < e` with every step of x up by at most d: x < e + d (and before the first
    // iteration x is where it started, whatever `e` is).
    for &(x, _) in &l.ghosts {
        let Some(s) = steps.get(&x) else { continue };
        let (Some(&lo), Some(&hi)) = (s.iter().next(), s.iter().next_back()) else {
            continue;
        };
        let (Ty::Int(w), Some(x0)) = (env.var_ty(x), l.ghost_of(x).map(Expr::local)) else {
            continue;
        };
        if lo <= 0 {
            continue;
        }
        for g in out.guards.clone() {
            if let Expr::Binary(op @ (BinOp::Slt | BinOp::Ult | BinOp::Sle | BinOp::Ule), a, b) = &g
            {
                if **a == Expr::Var(x) {
                    let bound = Expr::binary(BinOp::Add, (**b).clone(), Expr::int(w, hi as u64));
                    let below = Expr::binary(*op, Expr::Var(x), bound);
                    let started = Expr::binary(BinOp::Eq, Expr::Var(x), x0.clone());
                    out.push(Expr::binary(BinOp::Or, started, below.clone()));
                    out.push(below);
                }
            }
        }
    }
    // Parity of each variable the loop changes, alone and in each phase a branch of the loop
    // body selects (`b || x % 2 == 0`: once the branch is no longer taken, x keeps its parity).
    let branches = branch_conditions(f, l, &env);
    for &(x, _) in &l.ghosts {
        let Ty::Int(w) = env.var_ty(x) else { continue };
        for r in [0, 1] {
            let parity = Expr::binary(BinOp::Eq, residue(Expr::Var(x), 2, w), Expr::int(w, r));
            out.push(parity.clone());
            for b in &branches {
                out.push(Expr::binary(BinOp::Or, b.clone(), parity.clone()));
            }
        }
    }
    let read = read_vars(f, l);
    // Order between a variable the loop changes and one it reads.
    for &(v, _) in &l.ghosts {
        for &u in &read {
            if u == v || env.var_ty(u) != env.var_ty(v) {
                continue;
            }
            let le = if is_unsigned(p, f, v) || is_unsigned(p, f, u) {
                BinOp::Ule
            } else {
                BinOp::Sle
            };
            out.push(Expr::binary(le, Expr::Var(v), Expr::Var(u)));
            out.push(Expr::binary(le, Expr::Var(u), Expr::Var(v)));
        }
    }
    // The families above are the first stage; those below are tried only when they are not
    // enough (`Candidates::extra`).
    out.list.truncate(MAX_PER_LOOP);
    let basic = std::mem::take(&mut out.list);
    // Phases: what a branch of the body keeps while it is not taken (`b || v == v0`,
    // `b || v == u`), and the guards' bounds within it.
    let or = |a: &Expr, b: Expr| Expr::binary(BinOp::Or, a.clone(), b);
    for b in &branches {
        if stop() {
            break;
        }
        for g in out.guards.clone() {
            out.push(or(b, weaken(&g)));
        }
        for &(v, g0) in &l.ghosts {
            out.push(or(
                b,
                Expr::binary(BinOp::Eq, Expr::Var(v), Expr::local(g0)),
            ));
            for &u in read
                .iter()
                .filter(|&&u| u != v && env.var_ty(u) == env.var_ty(v))
            {
                out.push(or(b, Expr::binary(BinOp::Eq, Expr::Var(v), Expr::Var(u))));
            }
        }
    }
    // Constants the loop assigns: `v == c`, and `y == y0 || v == c` for a variable `y` that
    // steps (once an iteration has run, v was assigned).
    for (v, c) in constant_assignments(f, l) {
        out.push(Expr::binary(BinOp::Eq, Expr::Var(v), c.clone()));
        for &(y, _, _) in &stepped {
            if let Some(y0) = l.ghost_of(y) {
                let unchanged = Expr::binary(BinOp::Eq, Expr::Var(y), Expr::local(y0));
                out.push(Expr::binary(
                    BinOp::Or,
                    unchanged,
                    Expr::binary(BinOp::Eq, Expr::Var(v), c.clone()),
                ));
            }
        }
    }
    out.list.truncate(MAX_PER_LOOP);
    // Only conditions over what the head's future reads: a local that every path from the
    // head writes before it reads (`n`, `i`, `k` at the head of a loop around
    // `n = nondet(); ...; for (i = 0..)`) plays no part in any check, and a condition over it
    // is a solver round to drop (a nested product inside two loops: 23 such rounds, 1 s).
    let live = l.live_locals(f);
    let used = |e: &Expr| {
        e.vars().iter().all(|v| match v {
            VarRef::Local(x) => is_ghost(f, *v) || live.contains(x),
            VarRef::Global(_) => true,
        })
    };
    let stated = basic[..stated.min(basic.len())]
        .iter()
        .filter(|e| used(e))
        .count();
    let mut basic = basic;
    basic.retain(used);
    out.list.retain(used);
    (basic, out.list, stepped, stated)
}

/// Candidates without repetition, in the order found; `guards` are the comparisons among
/// them (for the bound family).
#[derive(Default)]
struct Cands {
    list: Vec<Expr>,
    /// The candidates so far, by value (hashing an expression is far cheaper than printing
    /// it: the printed keys took over a second on a block cipher's loops).
    seen: std::collections::HashSet<Expr>,
    guards: Vec<Expr>,
}

impl Cands {
    fn push(&mut self, e: Expr) {
        if matches!(e, Expr::Const { .. }) {
            return;
        }
        if self.seen.insert(e.clone()) {
            if matches!(
                e,
                Expr::Binary(BinOp::Slt | BinOp::Ult | BinOp::Sle | BinOp::Ule, ..)
            ) {
                self.guards.push(e.clone());
            }
            self.list.push(e);
        }
    }
}

/// The conjuncts of a condition.
fn conjuncts(e: &Expr) -> Vec<Expr> {
    match e {
        Expr::Binary(BinOp::And, a, b) if matches!(**a, Expr::Binary(..) | Expr::Unary(..)) => {
            let mut v = conjuncts(a);
            v.extend(conjuncts(b));
            v
        }
        _ => vec![e.clone()],
    }
}

/// `¬e`, with a negated comparison turned around.
pub(crate) fn negate(e: &Expr) -> Expr {
    match e {
        Expr::Unary(UnOp::Not, a) => (**a).clone(),
        Expr::Binary(op, a, b) => {
            let (a, b) = ((**a).clone(), (**b).clone());
            match op {
                BinOp::Eq => Expr::binary(BinOp::Ne, a, b),
                BinOp::Ne => Expr::binary(BinOp::Eq, a, b),
                BinOp::Slt => Expr::binary(BinOp::Sle, b, a),
                BinOp::Sle => Expr::binary(BinOp::Slt, b, a),
                BinOp::Ult => Expr::binary(BinOp::Ule, b, a),
                BinOp::Ule => Expr::binary(BinOp::Ult, b, a),
                _ => Expr::unary(UnOp::Not, e.clone()),
            }
        }
        _ => Expr::unary(UnOp::Not, e.clone()),
    }
}

/// The non-strict form of a strict comparison (and `!=` as it is).
fn weaken(e: &Expr) -> Expr {
    match e {
        Expr::Binary(BinOp::Slt, a, b) => Expr::binary(BinOp::Sle, (**a).clone(), (**b).clone()),
        Expr::Binary(BinOp::Ult, a, b) => Expr::binary(BinOp::Ule, (**a).clone(), (**b).clone()),
        _ => e.clone(),
    }
}

/// `x % k` (unsigned), as a bit mask when `k` is a power of two: the same value, and far
/// cheaper for the solver than a division.
pub(crate) fn residue(x: Expr, k: u64, w: u16) -> Expr {
    if k.is_power_of_two() {
        Expr::binary(BinOp::And, x, Expr::int(w, k - 1))
    } else {
        Expr::binary(BinOp::URem, x, Expr::int(w, k))
    }
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a.max(1)
    } else {
        gcd(b, a % b)
    }
}

/// Every integer local of `f` and every integer global of `p`.
fn int_vars(p: &Program, f: &Function) -> Vec<VarRef> {
    let mut v: Vec<VarRef> = (0..f.locals.len())
        .filter(|&i| matches!(f.locals[i].ty, Ty::Int(_)))
        .map(|i| VarRef::Local(qicc_ir::LocalId(i as u32)))
        .collect();
    v.extend(
        (0..p.globals.len())
            .filter(|&i| matches!(p.globals[i].ty, Ty::Int(_)))
            .map(|i| VarRef::Global(qicc_ir::GlobalId(i as u32))),
    );
    v
}

/// The branch conditions of the loop's body: its `assume` edges that do not leave the head and
/// stay in the loop (both sides of a branch are edges of their own), at most four.
fn branch_conditions(f: &Function, l: &LoopInfo, env: &dyn TypeEnv) -> Vec<Expr> {
    let inside = |x| l.locs.binary_search(&x).is_ok();
    let mut out = Vec::new();
    for e in &f.edges {
        if e.from == l.head || !inside(e.from) || !inside(e.to) {
            continue;
        }
        if let Op::Assume(c) = &e.op {
            if c.ty(env) == Ty::Bool && !out.contains(c) {
                out.push(c.clone());
            }
        }
    }
    out.truncate(4);
    out
}

/// The variables the loop assigns a constant somewhere, with the constant.
fn constant_assignments(f: &Function, l: &LoopInfo) -> Vec<(VarRef, Expr)> {
    let mut out: Vec<(VarRef, Expr)> = Vec::new();
    for e in f
        .edges
        .iter()
        .filter(|e| l.locs.binary_search(&e.from).is_ok())
    {
        if let Op::Assign(v, c @ Expr::Const { .. }) = &e.op {
            if !out.iter().any(|(x, k)| x == v && k == c) {
                out.push((*v, c.clone()));
            }
        }
    }
    out.truncate(8);
    out
}

/// The integer variables some edge of the loop reads.
fn read_vars(f: &Function, l: &LoopInfo) -> Vec<VarRef> {
    let mut out = BTreeSet::new();
    for e in f
        .edges
        .iter()
        .filter(|e| l.locs.binary_search(&e.from).is_ok())
    {
        e.op.exprs(&mut |x| out.extend(x.vars()));
    }
    out.into_iter()
        .filter(|v| match v {
            VarRef::Local(x) => matches!(f.local(*x).ty, Ty::Int(_)) && !is_ghost(f, *v),
            VarRef::Global(_) => true,
        })
        .collect()
}

fn is_ghost(f: &Function, v: VarRef) -> bool {
    matches!(v, VarRef::Local(x) if qicc_analysis::loop_cut::is_ghost(f, x))
}

pub(crate) fn is_unsigned(p: &Program, f: &Function, v: VarRef) -> bool {
    match v {
        VarRef::Local(x) => f.local(x).unsigned,
        VarRef::Global(g) => p.globals[g.index()].unsigned,
    }
}

/// At most this many different steps of one variable are told apart.
const MAX_STEPS: usize = 4;

/// The constants an iteration may add to each variable the loop changes: one per path from
/// the head back to it, where each path adds a constant (a variable changed inside an inner
/// loop, by a call or by anything but `x := x ± c` has none).
pub(crate) fn steps(
    p: &Program,
    f: &Function,
    loops: &[LoopInfo],
    l: &LoopInfo,
    nl: &NaturalLoop,
) -> BTreeMap<VarRef, BTreeSet<i128>> {
    let env = p.env(f);
    let inner = inner_loops(loops, l);
    let in_inner = |x| inner.iter().any(|o| o.locs.binary_search(&x).is_ok());
    let mods = qicc_analysis::mod_sets(p);
    let Some(order) = topo_order(f, l.head, &nl.body) else {
        return BTreeMap::new();
    };
    // Per variable, the offsets from its head value along the paths so far (`None`: not a
    // constant on some path).
    type Offsets = BTreeMap<VarRef, Option<BTreeSet<i128>>>;
    let start: Offsets = l
        .ghosts
        .iter()
        .map(|&(v, _)| (v, Some(BTreeSet::from([0]))))
        .collect();
    let mut at: BTreeMap<qicc_ir::Loc, Offsets> = BTreeMap::new();
    at.insert(l.head, start);
    let join = |a: &mut Offsets, b: &Offsets| {
        for (v, o) in a.iter_mut() {
            *o = match (o.take(), b.get(v).cloned().flatten()) {
                (Some(mut x), Some(y)) => {
                    x.extend(y);
                    (x.len() <= MAX_STEPS).then_some(x)
                }
                _ => None,
            };
        }
    };
    let transfer = |st: &Offsets, e: &qicc_ir::Edge| -> Offsets {
        let mut st = st.clone();
        let unknown_all = in_inner(e.from);
        for (v, o) in st.iter_mut() {
            if unknown_all && l.modifies(*v) && inner.iter().any(|i| i.modifies(*v)) {
                *o = None;
            }
        }
        if let Op::Call { callee, .. } = &e.op {
            for g in &mods[callee.index()].globals {
                if let Some(o) = st.get_mut(&VarRef::Global(*g)) {
                    *o = None;
                }
            }
        }
        if let Some(v) = e.op.def() {
            if let Some(o) = st.get(&v).cloned() {
                let new = match (&e.op, o) {
                    (Op::Assign(_, x), Some(o)) => {
                        step_of(x, v, &env).map(|c| o.iter().map(|k| k + c).collect())
                    }
                    _ => None,
                };
                st.insert(v, new);
            }
        }
        st
    };
    let mut result: Option<Offsets> = None;
    for &loc in &order {
        let Some(st) = at.get(&loc).cloned() else {
            continue;
        };
        for &eid in nl.body.iter().chain(&nl.closing) {
            let e = f.edge(eid);
            if e.from != loc {
                continue;
            }
            let next = transfer(&st, e);
            if nl.closing.contains(&eid) {
                match &mut result {
                    None => result = Some(next),
                    Some(r) => join(r, &next),
                }
            } else {
                match at.get_mut(&e.to) {
                    None => {
                        at.insert(e.to, next);
                    }
                    Some(a) => join(a, &next),
                }
            }
        }
    }
    result
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(v, o)| Some((v, o?)))
        .collect()
}

/// `c` when `x` is `v + c` or `v - c` (constants read as signed at `v`'s width).
fn step_of(x: &Expr, v: VarRef, env: &dyn qicc_ir::TypeEnv) -> Option<i128> {
    let Ty::Int(w) = env.var_ty(v) else {
        return None;
    };
    let signed = |k: u64| -> i128 {
        let k = k as i128;
        if w < 128 && k >= 1i128 << (w - 1) {
            k - (1i128 << w)
        } else {
            k
        }
    };
    match x {
        Expr::Var(u) if *u == v => Some(0),
        Expr::Binary(BinOp::Add, a, b) => match (&**a, &**b) {
            (Expr::Var(u), k) | (k, Expr::Var(u)) if *u == v => k.as_const().map(signed),
            _ => None,
        },
        Expr::Binary(BinOp::Sub, a, b) => match (&**a, &**b) {
            (Expr::Var(u), k) if *u == v => k.as_const().map(|k| -signed(k)),
            _ => None,
        },
        _ => None,
    }
}

/// The loops inside `l` (its head excluded).
fn inner_loops<'a>(loops: &'a [LoopInfo], l: &LoopInfo) -> Vec<&'a LoopInfo> {
    loops
        .iter()
        .filter(|o| o.func == l.func && o.head != l.head && l.locs.binary_search(&o.head).is_ok())
        .collect()
}

/// **Sums of bounded terms**: where loop `l` adds a term `e` to a variable `s` (`s := s + e`,
/// outside the loops inside it) and the conditions `known` at its head bound `e` by
/// constants (`lo <= e`, `e <= hi`: the element bounds [`crate::cells::instances`] gives at
/// the elements the loop reads), for each variable `v` with one constant step `d`
/// (`stepped`): `|d|*(s - s0) <= hi*n` and `lo*n <= |d|*(s - s0)`, over the steps `v` took
/// (`n = v - v0`, or `v0 - v` stepping down). Also with 0 in place of a bound of the other
/// sign: a path that adds nothing. Houdini proves or drops each, in the bit-precise
/// semantics (a sum that can wrap is no invariant there, and goes).
pub fn sums(
    p: &Program,
    loops: &[LoopInfo],
    l: &LoopInfo,
    stepped: &[(VarRef, i128, u16)],
    known: &[Expr],
) -> Vec<Expr> {
    let f = p.function(l.func);
    let env = p.env(f);
    let inner = inner_loops(loops, l);
    let here = |x| {
        l.locs.binary_search(&x).is_ok() && !inner.iter().any(|o| o.locs.binary_search(&x).is_ok())
    };
    let mut out = Vec::new();
    for e in f.edges.iter().filter(|e| here(e.from)) {
        let Op::Assign(s, Expr::Binary(BinOp::Add, a, b)) = &e.op else {
            continue;
        };
        let term = match (&**a, &**b) {
            (Expr::Var(x), t) | (t, Expr::Var(x)) if x == s => t,
            _ => continue,
        };
        let (Ty::Int(w), Some(s0)) = (env.var_ty(*s), l.ghost_of(*s)) else {
            continue;
        };
        if term.as_const().is_some() || is_unsigned(p, f, *s) {
            continue;
        }
        let (lo, hi) = constant_bounds(term, known, w);
        let done = Expr::binary(BinOp::Sub, Expr::Var(*s), Expr::local(s0));
        for &(v, d, wv) in stepped {
            let Some(v0) = l.ghost_of(v) else { continue };
            if v == *s || wv != w {
                continue;
            }
            let n = if d > 0 {
                Expr::binary(BinOp::Sub, Expr::Var(v), Expr::local(v0))
            } else {
                Expr::binary(BinOp::Sub, Expr::local(v0), Expr::Var(v))
            };
            let scaled = Expr::binary(
                BinOp::Mul,
                Expr::int(w, d.unsigned_abs() as u64),
                done.clone(),
            );
            let times = |c: i128| Expr::binary(BinOp::Mul, Expr::int(w, c as u64), n.clone());
            let mut push = |c: Expr| {
                if !out.contains(&c) {
                    out.push(c);
                }
            };
            if let Some(hi) = hi {
                for c in [hi, hi.max(0)] {
                    push(Expr::binary(BinOp::Sle, scaled.clone(), times(c)));
                }
            }
            if let Some(lo) = lo {
                for c in [lo, lo.min(0)] {
                    push(Expr::binary(BinOp::Sle, times(c), scaled.clone()));
                }
            }
        }
    }
    out
}

/// The tightest constant bounds (signed, width `w`) that the comparisons in `known` put on
/// `e`: a fact that is a comparison of `e` with a constant, or one guarded by a condition
/// not over `e` (`!(0 <= i < 50) || e <= 10`; the candidates built on the bound are checked,
/// so the guard need not be known to hold).
fn constant_bounds(e: &Expr, known: &[Expr], w: u16) -> (Option<i128>, Option<i128>) {
    let (mut lo, mut hi): (Option<i128>, Option<i128>) = (None, None);
    let signed = |c: &Expr| {
        c.as_const()
            .map(|v| qicc_ir::semantics::to_signed(v, w) as i128)
    };
    let mentions = |x: &Expr| {
        let mut found = false;
        x.visit(&mut |y| found |= y == e);
        found
    };
    for k in known {
        let fact = match k {
            Expr::Binary(BinOp::Or, g, v)
                if matches!(&**g, Expr::Unary(UnOp::Not, _)) && !mentions(g) =>
            {
                &**v
            }
            _ => k,
        };
        let Expr::Binary(op @ (BinOp::Sle | BinOp::Slt), a, b) = fact else {
            continue;
        };
        let strict = i128::from(*op == BinOp::Slt);
        if **b == *e {
            if let Some(c) = signed(a) {
                lo = Some(lo.map_or(c + strict, |l| l.max(c + strict)));
            }
        } else if **a == *e {
            if let Some(c) = signed(b) {
                hi = Some(hi.map_or(c - strict, |h| h.min(c - strict)));
            }
        }
    }
    (lo, hi)
}
