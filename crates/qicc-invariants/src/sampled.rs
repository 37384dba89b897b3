//! Candidates from observed states (the DIG and Daikon idea, kept sound by Houdini).
//!
//! The prepared program runs on the interpreter (the reference semantics) with inputs drawn
//! around the constants the program itself mentions ([`ProgramValues`]: an input that must lie
//! in `10..=10000` mostly does), and the state at every visit of each loop head is recorded
//! (rebuilt from the run's steps: each step names the variable it wrote). From the states of
//! a head come
//! - **polynomial equalities** of degree 2 (3 where the monomials stay few) over the head's
//!   integer variables: a basis of the null space of the matrix of monomial values over the
//!   samples, computed exactly over the integers ([`null_space`]); each basis vector is an
//!   equality candidate, such as `k == i*m + j` at the inner head of a nested counting loop;
//! - **octagon bounds** `±x ± y <= c` for pairs of variables of one width, where `c` is the
//!   largest value the samples show and is small or a constant of the program (`k <= i`,
//!   `i + k <= 100`): bounds the samples happen to show but the program does not state are
//!   left out, they are rarely inductive.
//!
//! Samples only propose. Every candidate goes through Houdini with the others, which proves
//! or drops it in the IR's bit-precise semantics: an equality that holds over the integers
//! on the samples holds modulo 2^w on them too, and one that is no invariant costs a solver
//! check, never a wrong proof.

use qicc_analysis::{LoopInfo, Prepared};
use qicc_engine::Budget;
use qicc_interp::oracle::{AllocRequest, HavocBytesRequest, HavocRequest, Oracle, SplitMix64};
use qicc_interp::{Interpreter, RandomOracle, RunConfig, StepKind, StopCheck};
use qicc_ir::{BinOp, EdgeId, Expr, FuncId, HavocKind, LocalId, Op, Program, Ty, TypeEnv, VarRef};
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

/// Runs made at most, the steps each may take and all of them may take (a limit in steps,
/// not time, so that the samples, and the candidates, are the same on any machine), and a
/// time limit for programs whose steps are slow.
const RUNS: u64 = 48;
const MAX_STEPS: u64 = 50_000;
const TOTAL_STEPS: u64 = 500_000;
const TIME: Duration = Duration::from_millis(400);
/// Distinct states kept per head, and per head from one run.
const MAX_SAMPLES: usize = 400;
const PER_RUN: usize = 40;
/// Variables per head the families look at (those the loop changes first).
const MAX_VARS: usize = 6;
/// Monomials at most: degree 3 only where it stays under this.
const MAX_MONOMIALS: usize = 60;
/// Candidates of each family per head at most.
const MAX_EQUALITIES: usize = 8;
const MAX_BOUNDS: usize = 16;

/// The states seen at one loop head: the variables and one row of values per visit
/// (signed or unsigned as the variable is declared).
#[derive(Clone, Debug, Default)]
struct HeadSamples {
    vars: Vec<VarRef>,
    /// How many of `vars`, first, are basis variables (see `order_by_dependence`).
    basis: usize,
    width: u16,
    rows: Vec<Vec<i128>>,
}

/// The candidates the observed states propose, per loop of `prep` (parallel to its loops).
pub(crate) fn candidates(prep: &Prepared, budget: &Budget) -> Vec<Vec<Expr>> {
    let constants = program_constants(&prep.program);
    let samples = observe(prep, &constants, budget);
    prep.loops
        .iter()
        .zip(&samples)
        .map(|(l, s)| {
            let f = prep.program.function(l.func);
            let unsigned = |v: VarRef| crate::candidates::is_unsigned(&prep.program, f, v);
            let (mut out, grown) = equalities(s);
            out.extend(bounds(s, &constants, &unsigned, &grown));
            out
        })
        .collect()
}

/// The integer variables of each loop the families look at: those it changes, those the loops
/// around it change, then those it reads (live at the head), of the width most of them have
/// (not ghosts or the front-end's temporaries).
fn loop_vars(p: &Program, loops: &[LoopInfo], l: &LoopInfo) -> (Vec<VarRef>, usize, u16) {
    let f = p.function(l.func);
    let env = p.env(f);
    // A local the loop writes before it reads it (`j` at the head of `for (i..) for (j = 0..)`)
    // plays no part in the state of the head; the ghosts' copies are no reads (else `j` is
    // live at `for (i..)`'s head, and `k == i*j` a candidate beside `k == i*m`: a check the
    // solver needs `j == m` from two inequalities for, which it does not find in 20 s).
    let live = l.live_locals(f);
    let plain = |v: &VarRef| match v {
        VarRef::Local(x) => {
            let name = &f.local(*x).name;
            !qicc_analysis::loop_cut::is_ghost(f, *x)
                && !name.starts_with("tmp.")
                && name != "ret.val"
                && live.contains(x)
        }
        VarRef::Global(g) => !p.globals[g.index()].name.contains('.'),
    };
    let mut vars: Vec<VarRef> = l.ghosts.iter().map(|&(v, _)| v).filter(plain).collect();
    // And those the loops around it change (`i` of `k == i*m + j` at an inner loop's head).
    for o in loops
        .iter()
        .filter(|o| o.func == l.func && o.head != l.head && o.locs.binary_search(&l.head).is_ok())
    {
        for &(v, _) in &o.ghosts {
            if plain(&v) && !vars.contains(&v) {
                vars.push(v);
            }
        }
    }
    let mut read = BTreeSet::new();
    for e in f
        .edges
        .iter()
        .filter(|e| l.locs.binary_search(&e.from).is_ok())
    {
        e.op.exprs(&mut |x| read.extend(x.vars()));
    }
    let read: Vec<VarRef> = (read.into_iter())
        .filter(|v| plain(v) && !vars.contains(v))
        .collect();
    vars.extend(read);
    let width_of = |v: &VarRef| match env.var_ty(*v) {
        Ty::Int(w) if w <= 64 => Some(w),
        _ => None,
    };
    let mut count: HashMap<u16, usize> = HashMap::new();
    for w in vars.iter().filter_map(width_of) {
        *count.entry(w).or_default() += 1;
    }
    let Some(w) = count
        .iter()
        .max_by_key(|(w, n)| (**n, **w))
        .map(|(w, _)| *w)
    else {
        return (Vec::new(), 0, 0);
    };
    vars.retain(|v| width_of(v) == Some(w));
    vars.truncate(MAX_VARS);
    let basis = order_by_dependence(f, l, &mut vars);
    (vars, basis, w)
}

/// Puts first the variables the loop does not write, then those it writes, each after the
/// ones its new value is computed from (`z += 6; y += z; x += y`: `z`, `y`, `x`), ties in
/// the order given; how many come first that the loop does not write or computes from
/// themselves alone (the basis: `n`, `i`, `z`). [`equalities`] expresses the others through
/// them: Cohen's cube then gives `x == i*i*i`, where the order of declaration gave
/// `3*x + y == 1 + 2*i + i*y`, the same fact but a hard check for the solver (products of
/// two changing variables).
fn order_by_dependence(f: &qicc_ir::Function, l: &LoopInfo, vars: &mut [VarRef]) -> usize {
    let inside = |e: &qicc_ir::Edge| l.locs.binary_search(&e.from).is_ok();
    let mut reads: HashMap<VarRef, BTreeSet<VarRef>> = HashMap::new();
    // The step of a variable written only as `v := v + c`: a counter, the smaller the step
    // the more basic (`i` before `z` in Cohen's cube, so that `y` is written through `i`).
    let mut step: HashMap<VarRef, Option<u64>> = HashMap::new();
    for e in f.edges.iter().filter(|e| inside(e)) {
        if let Op::Assign(v, x) = &e.op {
            let r = reads.entry(*v).or_default();
            r.extend(x.vars().into_iter().filter(|u| u != v));
            let c = match x {
                Expr::Binary(BinOp::Add, a, b) if **a == Expr::Var(*v) => b.as_const(),
                _ => None,
            };
            let s = step.entry(*v).or_insert(c);
            if *s != c {
                *s = None;
            }
        }
    }
    // What each written variable depends on, transitively, among the variables written.
    let rank = |v: &VarRef| -> usize {
        let Some(direct) = reads.get(v) else {
            return 0;
        };
        let mut seen: BTreeSet<VarRef> = BTreeSet::new();
        let mut work: Vec<VarRef> = direct.iter().copied().collect();
        while let Some(u) = work.pop() {
            if u != *v && reads.contains_key(&u) && seen.insert(u) {
                work.extend(reads[&u].iter().copied());
            }
        }
        1 + seen.len()
    };
    let basis = vars.iter().filter(|v| rank(v) <= 1).count();
    vars.sort_by_cached_key(|v| {
        let s = step.get(v).copied().flatten();
        (rank(v), s.map_or(u64::MAX, |c| c.min(c.wrapping_neg())))
    });
    basis
}

/// The states at each loop head over some runs of the prepared program.
fn observe(prep: &Prepared, constants: &[i128], budget: &Budget) -> Vec<HeadSamples> {
    let p = &prep.program;
    let mut out: Vec<HeadSamples> = prep
        .loops
        .iter()
        .map(|l| {
            let (vars, basis, width) = loop_vars(p, &prep.loops, l);
            HeadSamples {
                vars,
                basis,
                width,
                rows: Vec::new(),
            }
        })
        .collect();
    let Ok(interp) = Interpreter::new(p) else {
        return out;
    };
    let heads: HashMap<(FuncId, qicc_ir::Loc), usize> = prep
        .loops
        .iter()
        .enumerate()
        .map(|(i, l)| ((l.func, l.head), i))
        .collect();
    let signed: Vec<Vec<bool>> = prep
        .loops
        .iter()
        .zip(&out)
        .map(|(l, s)| {
            let f = p.function(l.func);
            (s.vars.iter())
                .map(|&v| !crate::candidates::is_unsigned(p, f, v))
                .collect()
        })
        .collect();
    let mut seen: Vec<BTreeSet<Vec<i128>>> = vec![BTreeSet::new(); out.len()];
    let cap = Instant::now() + TIME;
    let deadline = budget.deadline.map_or(cap, |d| d.min(cap));
    let config = RunConfig {
        max_steps: MAX_STEPS,
        record_trace: true,
        deadline: Some(deadline),
        stop: Some(StopCheck::new(budget.stop_fn())),
        ..RunConfig::default()
    };
    let globals_init: HashMap<u32, u64> = (p.globals.iter().enumerate())
        .filter_map(|(i, g)| Some((i as u32, g.init.as_ref()?.as_const()?)))
        .collect();
    let mut steps = 0;
    for seed in 0..RUNS {
        if Instant::now() >= deadline || budget.exhausted().is_some() {
            break;
        }
        if out
            .iter()
            .all(|s| s.vars.is_empty() || s.rows.len() >= MAX_SAMPLES)
        {
            break;
        }
        if steps >= TOTAL_STEPS {
            break;
        }
        let mut oracle = ProgramValues::new(seed, constants);
        let run = interp.run(&mut oracle, &config);
        steps += run.step_count;
        let mut globals = globals_init.clone();
        let mut frames: Vec<HashMap<LocalId, u64>> = Vec::new();
        let mut depth = 0u32;
        let mut visits: Vec<Vec<Vec<i128>>> = vec![Vec::new(); out.len()];
        for step in &run.steps {
            let d = step.depth as usize;
            if step.depth > depth || frames.len() <= d {
                frames.resize_with(d + 1, HashMap::new);
                frames[d].clear();
            }
            frames.truncate(d + 1);
            depth = step.depth;
            let edge = p.function(step.func).edge(step.edge);
            // A value an uninitialised declaration gave is no state of interest (garbage in
            // `j` at the first visit of an outer loop's head hides `j == m` after it).
            let garbage =
                step.kind == StepKind::Edge && matches!(&edge.op, Op::Havoc(_, HavocKind::Uninit));
            match step.written {
                Some((VarRef::Local(x), _)) if garbage => {
                    frames[d].remove(&x);
                }
                Some((VarRef::Local(x), v)) => {
                    frames[d].insert(x, v);
                }
                Some((VarRef::Global(g), v)) => {
                    globals.insert(g.0, v);
                }
                None => {}
            }
            if step.kind != StepKind::Edge {
                continue;
            }
            let Some(&i) = heads.get(&(step.func, edge.to)) else {
                continue;
            };
            let s = &out[i];
            if s.vars.is_empty() || s.rows.len() >= MAX_SAMPLES {
                continue;
            }
            let row: Option<Vec<i128>> = (s.vars.iter().zip(&signed[i]))
                .map(|(v, &sg)| {
                    let raw = match v {
                        VarRef::Local(x) => frames[d].get(x).copied(),
                        VarRef::Global(g) => globals.get(&g.0).copied(),
                    }?;
                    Some(as_int(raw, s.width, sg))
                })
                .collect();
            if let Some(row) = row {
                visits[i].push(row);
            }
        }
        // At most `PER_RUN` visits of each head from one run, spread over the run: the first
        // visits alone would show one iteration of the outer loop only.
        for (i, v) in visits.iter_mut().enumerate() {
            let stride = v.len().div_ceil(PER_RUN).max(1);
            for row in v.drain(..).step_by(stride) {
                if out[i].rows.len() < MAX_SAMPLES && seen[i].insert(row.clone()) {
                    out[i].rows.push(row);
                }
            }
        }
    }
    out
}

/// `raw`'s low `w` bits as an integer, signed or not.
fn as_int(raw: u64, w: u16, signed: bool) -> i128 {
    let w = u32::from(w.min(64));
    let v = if w == 64 {
        raw
    } else {
        raw & ((1u64 << w) - 1)
    };
    if signed && w > 0 && v >> (w - 1) & 1 == 1 {
        v as i128 - (1i128 << w)
    } else {
        v as i128
    }
}

/// The integer constants the program's edges mention, with their neighbours and 0, 1.
pub(crate) fn program_constants(p: &Program) -> Vec<i128> {
    let mut out = BTreeSet::from([0i128, 1]);
    for f in &p.functions {
        for e in &f.edges {
            e.op.exprs(&mut |x| {
                x.visit(&mut |y| {
                    if let Expr::Const {
                        ty: Ty::Int(w @ 2..=64),
                        value,
                    } = y
                    {
                        let v = as_int(*value, *w, true);
                        if v.unsigned_abs() < 1 << 40 {
                            out.insert(v);
                        }
                    }
                })
            });
        }
    }
    out.into_iter().collect()
}

/// Inputs around the program's constants: a value between two neighbouring constants, one
/// next to a constant, or a small number; everything else as [`RandomOracle`] answers it.
pub(crate) struct ProgramValues<'c> {
    rng: SplitMix64,
    constants: &'c [i128],
    other: RandomOracle,
}

impl<'c> ProgramValues<'c> {
    pub(crate) fn new(seed: u64, constants: &'c [i128]) -> ProgramValues<'c> {
        ProgramValues {
            rng: SplitMix64::new(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) ^ 0xC0FFEE),
            constants,
            other: RandomOracle::new(seed),
        }
    }

    fn int(&mut self) -> i128 {
        let r = self.rng.next_u64();
        let c = self.constants;
        let pick = |k: u64| c[(k % c.len() as u64) as usize];
        match r % 8 {
            0..=3 if c.len() >= 2 => {
                let i = (self.rng.next_u64() % (c.len() as u64 - 1)) as usize;
                let (lo, hi) = (c[i], c[i + 1]);
                lo + (self.rng.next_u64() as i128).rem_euclid(hi - lo + 1)
            }
            4 | 5 => pick(self.rng.next_u64()) + (self.rng.next_u64() % 3) as i128 - 1,
            _ => (self.rng.next_u64() % 17) as i128,
        }
    }
}

impl Oracle for ProgramValues<'_> {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        match (req.kind, req.ty) {
            (HavocKind::Nondet(_), Ty::Int(_)) => self.int() as u64,
            _ => self.other.havoc(req),
        }
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.other.uninit_byte(addr)
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        self.other.havoc_bytes(req)
    }

    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        self.other.alloc_id(req)
    }

    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        self.other.choose(func, enabled)
    }
}

/// The monomials of degree 1..=`d` over `n` variables (as index lists), the constant first
/// (the empty list).
fn monomials(n: usize, d: usize) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new()];
    let mut last = vec![Vec::new()];
    for _ in 0..d {
        let mut next = Vec::new();
        for m in &last {
            let from = m.last().copied().unwrap_or(0);
            for i in from..n {
                let mut m = m.clone();
                m.push(i);
                next.push(m);
            }
        }
        out.extend(next.iter().cloned());
        last = next;
    }
    out
}

/// The polynomial equalities the samples satisfy (see the module docs), lowest degree first.
/// A relation of degree `d + 1` that is only a lower one times a variable (`k*(k - i*m)`
/// beside `k - i*m`) is left out: it says nothing new and is harder for the solver.
/// The equality candidates of a head, and the variables they give as a polynomial of degree
/// 2 or more of the basis (`x == i*i*i`: see [`bounds`]).
fn equalities(s: &HeadSamples) -> (Vec<Expr>, Vec<VarRef>) {
    if s.vars.is_empty() || s.rows.is_empty() {
        return (Vec::new(), Vec::new());
    }
    // A variable with one value in every sample gives `v == c` and nothing else: left out
    // of the monomials (it would only multiply the relations: `v*x == c*x` for every `x`).
    let w = s.width;
    let mut out = Vec::new();
    let mut varying = Vec::new();
    for (i, &v) in s.vars.iter().enumerate() {
        let c = s.rows[0][i];
        if s.rows.iter().all(|r| r[i] == c) {
            out.push(Expr::binary(
                BinOp::Eq,
                Expr::Var(v),
                Expr::int(w, c as u64),
            ));
        } else {
            varying.push(i);
        }
    }
    let s = &HeadSamples {
        vars: varying.iter().map(|&i| s.vars[i]).collect(),
        basis: varying.iter().filter(|&&i| i < s.basis).count(),
        width: w,
        rows: (s.rows.iter())
            .map(|r| varying.iter().map(|&i| r[i]).collect())
            .collect(),
    };
    let n = s.vars.len();
    if n == 0 {
        return (out, Vec::new());
    }
    let degree_within = |k: usize| {
        if monomials(k, 3).len() <= MAX_MONOMIALS {
            3
        } else {
            2
        }
    };
    let top = degree_within(n);
    // The closed forms over the basis reach degree 3 where the basis alone keeps the
    // monomials few (`x == i*i*i` inside another loop, whose variables make `n` too many
    // for degree 3 over all of them).
    let basis = s.basis.min(n);
    let top_basis = degree_within(basis);
    // The relations kept, each as (coefficient, monomial) pairs, and the span of what they
    // say up to degree `span`: each times every monomial that keeps it within `span`. A
    // relation in that span says nothing new (`k*(k - i*m)` beside `k - i*m`; Cohen's
    // `i*y == i + 3*i*i + 3*x` beside `x == i*i*i` and `y == 3*i*i + 3*i + 1`) and is a harder
    // check for the solver.
    let span = top.max(top_basis);
    let all = monomials(n, span);
    let index: HashMap<&Vec<usize>, usize> = all.iter().enumerate().map(|(i, m)| (m, i)).collect();
    let mut kept: Vec<Vec<(i128, Vec<usize>)>> = Vec::new();
    let mut known = Echelon::default();
    let mut keep = |r: Vec<(i128, Vec<usize>)>| {
        let degree = r.iter().map(|(_, m)| m.len()).max().unwrap_or(0);
        // The relation itself first (`monomials` begins with the empty one).
        let mut multiples = monomials(n, span - degree.min(span)).into_iter().map(|x| {
            let mut v = vec![0u64; all.len()];
            for (c, m) in &r {
                let mut m = m.clone();
                m.extend(&x);
                m.sort_unstable();
                if let Some(&i) = index.get(&m) {
                    v[i] = to_field(*c);
                }
            }
            v
        });
        if multiples.next().is_some_and(|v| known.insert(v)) {
            multiples.for_each(|v| {
                known.insert(v);
            });
            kept.push(r);
        }
    };
    let matrix_of = |monos: &[Vec<usize>]| -> Vec<Vec<i128>> {
        (s.rows.iter())
            .filter_map(|row| {
                (monos.iter())
                    .map(|m| m.iter().try_fold(1i128, |acc, &i| acc.checked_mul(row[i])))
                    .collect::<Option<Vec<i128>>>()
            })
            .filter(|r| r.iter().all(|x| x.unsigned_abs() < 1 << 62))
            .collect()
    };
    let pairs = |v: &[i128], monos: &[Vec<usize>]| -> Vec<(i128, Vec<usize>)> {
        (v.iter().zip(monos))
            .filter(|(c, _)| **c != 0)
            .map(|(c, m)| (*c, m.clone()))
            .collect()
    };
    // Each variable computed from others as a polynomial of the basis variables (the first
    // `basis`: those the loop does not write or steps from themselves alone) where the samples
    // show one: `y == 3*i*i + 3*i + 1`, `x == i*i*i` in Cohen's cube.
    let mut closed = vec![false; n];
    let mut grown = Vec::new();
    if basis > 0 {
        for v in basis..n {
            let mut monos = monomials(basis, top_basis);
            monos.push(vec![v]);
            if s.rows.len() < monos.len() + 4 {
                break;
            }
            let relation = (null_space(&matrix_of(&monos), monos.len()).into_iter())
                .find(|r| r.last().is_some_and(|c| *c != 0));
            if let Some(r) = relation {
                let degree = (r.iter().zip(&monos))
                    .filter(|(c, _)| **c != 0)
                    .map(|(_, m)| m.len())
                    .max();
                if degree >= Some(2) {
                    grown.push(s.vars[v]);
                }
                keep(pairs(&r, &monos));
                closed[v] = true;
            }
        }
    }
    // Then every relation of the other variables, lowest degree first: a variable with a
    // closed form adds nothing a substitution does not give (and its relations beyond the
    // degree the span reaches, `y*y == 1 + 6*i*y + 9*i*x - 3*i*i`, are hard checks).
    for d in 1..=top {
        // By the last variable they contain, then by degree: a null-space vector then gives a
        // monomial through those of the variables before its last one (see
        // `order_by_dependence`).
        let mut monos: Vec<Vec<usize>> = (monomials(n, d).into_iter())
            .filter(|m| m.iter().all(|&v| !closed[v]))
            .collect();
        monos.sort_by_key(|m| (m.last().copied(), m.len()));
        // Enough samples to pin the relations down, else a relation is a mere accident of
        // few points.
        if s.rows.len() < monos.len() + 4 {
            break;
        }
        for v in null_space(&matrix_of(&monos), monos.len()) {
            keep(pairs(&v, &monos));
        }
    }
    let term = |m: &[usize]| -> Expr {
        let mut it = m.iter().map(|&i| Expr::Var(s.vars[i]));
        match it.next() {
            None => Expr::int(w, 1),
            Some(first) => it.fold(first, |a, b| Expr::binary(BinOp::Mul, a, b)),
        }
    };
    let side = |coefs: &[(i128, &Vec<usize>)]| -> Expr {
        let mut e: Option<Expr> = None;
        for &(c, m) in coefs {
            let t = if m.is_empty() {
                Expr::int(w, c as u64)
            } else if c == 1 {
                term(m)
            } else {
                Expr::binary(BinOp::Mul, Expr::int(w, c as u64), term(m))
            };
            e = Some(match e {
                None => t,
                Some(a) => Expr::binary(BinOp::Add, a, t),
            });
        }
        e.unwrap_or_else(|| Expr::int(w, 0))
    };
    for r in kept.iter().take(MAX_EQUALITIES) {
        // Positive terms on one side, negative ones on the other: `k == i*m + j`.
        let mut lhs: Vec<(i128, &Vec<usize>)> = Vec::new();
        let mut rhs: Vec<(i128, &Vec<usize>)> = Vec::new();
        for (c, m) in r {
            if *c > 0 {
                lhs.push((*c, m));
            } else {
                rhs.push((-*c, m));
            }
        }
        if lhs.iter().chain(&rhs).all(|(_, m)| m.is_empty()) {
            continue;
        }
        // The side with fewer terms first, a lone variable most often.
        if rhs.len() < lhs.len() {
            std::mem::swap(&mut lhs, &mut rhs);
        }
        out.push(Expr::binary(BinOp::Eq, side(&lhs), side(&rhs)));
    }
    (out, grown)
}

/// Vectors modulo [`P`] in reduced echelon form: whether a new one is independent of those
/// inserted so far.
#[derive(Default)]
struct Echelon {
    /// (pivot column, row with 1 there and 0 at the pivots of the rows before it).
    rows: Vec<(usize, Vec<u64>)>,
}

impl Echelon {
    /// Inserts `v`; false when it is in the span of the rows already there.
    fn insert(&mut self, mut v: Vec<u64>) -> bool {
        for (c, row) in &self.rows {
            let k = v[*c];
            if k != 0 {
                for (x, r) in v.iter_mut().zip(row) {
                    *x = sub(*x, mul(k, *r));
                }
            }
        }
        let Some(c) = v.iter().position(|&x| x != 0) else {
            return false;
        };
        let inv = inverse(v[c]);
        for x in v.iter_mut() {
            *x = mul(*x, inv);
        }
        self.rows.push((c, v));
        true
    }
}

/// A basis of `{x : M x = 0}` for the `cols`-column integer matrix `m`, each vector integral
/// with coprime entries, each checked exactly against every row. The elimination runs in the
/// field of integers modulo the prime 2^61 - 1 (fraction-free elimination over the integers
/// overflows on a few hundred samples), and each basis vector's entries are read back as
/// fractions of small numerators and denominators (rational reconstruction); a vector that
/// cannot be read back, or is not exactly a relation of the rows, is left out.
pub(crate) fn null_space(m: &[Vec<i128>], cols: usize) -> Vec<Vec<i128>> {
    let mut a: Vec<Vec<u64>> = m
        .iter()
        .map(|r| r.iter().map(|&x| to_field(x)).collect())
        .collect();
    let mut pivots: Vec<usize> = Vec::new(); // the pivot column of row i
    for c in 0..cols {
        let r = pivots.len();
        let Some(p) = (r..a.len()).find(|&i| a[i][c] != 0) else {
            continue;
        };
        a.swap(r, p);
        let inv = inverse(a[r][c]);
        for x in a[r].iter_mut() {
            *x = mul(*x, inv);
        }
        for i in 0..a.len() {
            let k = a[i][c];
            if i == r || k == 0 {
                continue;
            }
            for j in 0..cols {
                a[i][j] = sub(a[i][j], mul(k, a[r][j]));
            }
        }
        pivots.push(c);
        if pivots.len() == a.len() {
            break;
        }
    }
    let mut basis = Vec::new();
    for f in (0..cols).filter(|c| !pivots.contains(c)) {
        // x_f = 1 and x_c = -row[f] for each pivot row; then as integers.
        let mut v = vec![0u64; cols];
        v[f] = 1;
        for (row, &c) in pivots.iter().enumerate() {
            v[c] = sub(0, a[row][f]);
        }
        let Some(v) = to_integers(&v) else { continue };
        let exact = m.iter().all(|row| {
            row.iter()
                .zip(&v)
                .try_fold(0i128, |acc, (x, c)| acc.checked_add(x.checked_mul(*c)?))
                == Some(0)
        });
        if exact {
            basis.push(v);
        }
    }
    basis
}

/// The prime modulus of [`null_space`]'s field.
const P: u64 = (1 << 61) - 1;

fn to_field(x: i128) -> u64 {
    x.rem_euclid(P as i128) as u64
}

fn mul(a: u64, b: u64) -> u64 {
    ((a as u128 * b as u128) % P as u128) as u64
}

fn sub(a: u64, b: u64) -> u64 {
    (a + P - b) % P
}

fn inverse(a: u64) -> u64 {
    // a^(P-2) by squaring (Fermat).
    let (mut base, mut e, mut r) = (a, P - 2, 1u64);
    while e > 0 {
        if e & 1 == 1 {
            r = mul(r, base);
        }
        base = mul(base, base);
        e >>= 1;
    }
    r
}

/// The fraction `n/d` with |n|, d below 2^30 that `x` is modulo P, if any (the extended
/// Euclidean algorithm stopped half-way).
fn fraction(x: u64) -> Option<(i128, i128)> {
    let bound: i128 = 1 << 30;
    let (mut r0, mut r1) = (P as i128, x as i128);
    let (mut t0, mut t1) = (0i128, 1i128);
    while r1 >= bound {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (t0, t1) = (t1, t0 - q * t1);
    }
    if t1 == 0 || t1.abs() >= bound {
        return None;
    }
    Some(if t1 < 0 { (-r1, -t1) } else { (r1, t1) })
}

/// The field vector `v` as an integer vector with coprime entries, first non-zero positive.
fn to_integers(v: &[u64]) -> Option<Vec<i128>> {
    let fr: Vec<(i128, i128)> = v.iter().map(|&x| fraction(x)).collect::<Option<_>>()?;
    let mut l: i128 = 1;
    for &(_, d) in &fr {
        l = (l / gcd(l, d)).checked_mul(d)?;
    }
    let mut out: Vec<i128> = fr
        .iter()
        .map(|&(n, d)| n.checked_mul(l / d))
        .collect::<Option<_>>()?;
    normalize(&mut out);
    Some(out)
}

/// Divides `v` by the gcd of its entries and makes its first non-zero entry positive.
fn normalize(v: &mut [i128]) {
    let g = v.iter().fold(0, |g, &x| gcd(g, x));
    let sign = v.iter().find(|x| **x != 0).map_or(1, |x| x.signum());
    if g > 1 || sign < 0 {
        for x in v.iter_mut() {
            *x = *x / g.max(1) * sign;
        }
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The octagon candidates of a head. Variables in `grown` (a polynomial of degree 2 or more of
/// others) are left out: a bound on `x == i*i*i` holds only where the product does not wrap,
/// which the solver shows by bit-blasting the multipliers over the interval facts, too slowly
/// for a check (Cohen's cube: `1 <= x + y` undecided in 1 s, beside `x == i*i*i` proven in
/// 0.5 s), and the bounds the program states of them come from the program text's families.
fn bounds(
    s: &HeadSamples,
    constants: &[i128],
    unsigned: &dyn Fn(VarRef) -> bool,
    grown: &[VarRef],
) -> Vec<Expr> {
    let mut out = Vec::new();
    let w = s.width;
    if s.rows.len() < 2 {
        return out;
    }
    let max_of = |f: &dyn Fn(&[i128]) -> i128| s.rows.iter().map(|r| f(r)).max();
    let plain = |i: usize| !grown.contains(&s.vars[i]);
    // Each variable's largest and smallest sample: a bound met at a corner of that box
    // (`10 <= n + i` where `n` is at least 10 and `i` at least 0) says nothing the bounds of
    // the two variables alone do not say, which the program text's families propose; asked
    // anyway, it costs the solver a check (a nested product's sampled stage: 16 such
    // candidates of its 18, 40 ms each).
    let hi: Vec<i128> = (0..s.vars.len())
        .map(|i| max_of(&|r| r[i]).unwrap_or(0))
        .collect();
    let lo: Vec<i128> = (0..s.vars.len())
        .map(|i| -max_of(&|r| -r[i]).unwrap_or(0))
        .collect();
    for i in (0..s.vars.len()).filter(|&i| plain(i)) {
        for j in (i + 1..s.vars.len()).filter(|&j| plain(j)) {
            let (x, y) = (Expr::Var(s.vars[i]), Expr::Var(s.vars[j]));
            let (ux, uy) = (unsigned(s.vars[i]), unsigned(s.vars[j]));
            // Differences: x - y <= c as a comparison of x with y (no subtraction to wrap)
            // when c is -1, 0 or 1.
            for (a, b, ea, eb, u) in [(i, j, &x, &y, ux || uy), (j, i, &y, &x, ux || uy)] {
                let Some(c) = max_of(&|r| r[a] - r[b]).filter(|&c| c != hi[a] - lo[b]) else {
                    continue;
                };
                let (le, lt) = if u {
                    (BinOp::Ule, BinOp::Ult)
                } else {
                    (BinOp::Sle, BinOp::Slt)
                };
                match c {
                    -1 => out.push(Expr::binary(lt, ea.clone(), eb.clone())),
                    0 => out.push(Expr::binary(le, ea.clone(), eb.clone())),
                    1 => out.push(Expr::binary(
                        le,
                        ea.clone(),
                        Expr::binary(BinOp::Add, eb.clone(), Expr::int(w, 1)),
                    )),
                    _ => {}
                }
            }
            // Sums: x + y <= c and -x - y <= c where c is a constant of the program.
            if ux || uy {
                continue;
            }
            let sum = Expr::binary(BinOp::Add, x.clone(), y.clone());
            if let Some(c) = max_of(&|r| r[i] + r[j]).filter(|&c| c != hi[i] + hi[j]) {
                if constants.contains(&c) || constants.contains(&(c - 1)) {
                    out.push(Expr::binary(
                        BinOp::Sle,
                        sum.clone(),
                        Expr::int(w, c as u64),
                    ));
                }
            }
            if let Some(c) = max_of(&|r| -r[i] - r[j]).filter(|&c| c != -lo[i] - lo[j]) {
                if constants.contains(&-c) {
                    out.push(Expr::binary(BinOp::Sle, Expr::int(w, (-c) as u64), sum));
                }
            }
            if out.len() >= MAX_BOUNDS {
                return out;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn eval(v: &[i128], row: &[i128], monos: &[Vec<usize>]) -> i128 {
        v.iter()
            .zip(monos)
            .map(|(c, m)| c * m.iter().map(|&i| row[i]).product::<i128>())
            .sum()
    }

    /// Cohen's cube at its head over `n`, `i`, `z` (the basis: `z` steps by itself), `y`
    /// and `x`: each of `y` and `x` comes out alone against a polynomial of `i`, and no
    /// candidate mixes the two (the same samples satisfy `i*y == i + 3*i*i + 3*x`).
    #[test]
    fn variables_computed_from_others_get_closed_forms_over_the_basis() {
        let var = |k: u32| VarRef::Local(LocalId(k));
        let (n, i, z, y, x) = (var(0), var(1), var(2), var(3), var(4));
        let mut rows = Vec::new();
        for top in [3i128, 7, 12, 20] {
            for k in 0..=top {
                rows.push(vec![top, k, 6 * k + 6, 3 * k * k + 3 * k + 1, k * k * k]);
            }
        }
        let s = HeadSamples {
            vars: vec![n, i, z, y, x],
            basis: 3,
            width: 32,
            rows,
        };
        let (cands, grown) = equalities(&s);
        // `y` and `x` are of degree 2 and 3 in `i`; `z` is linear.
        assert_eq!(grown, vec![y, x]);
        let reads = |e: &Expr, v: VarRef| e.vars().contains(&v);
        let alone = |v: VarRef| {
            cands.iter().any(|e| match e {
                Expr::Binary(BinOp::Eq, a, b) => {
                    let only_i = |e: &Expr| e.vars().iter().all(|u| *u == i);
                    (**a == Expr::Var(v) && only_i(b)) || (**b == Expr::Var(v) && only_i(a))
                }
                _ => false,
            })
        };
        assert!(alone(x) && alone(y), "{cands:?}");
        assert!(
            !cands.iter().any(|e| reads(e, x) && reads(e, y)),
            "{cands:?}"
        );
    }

    #[test]
    fn null_space_finds_the_product_relation() {
        // k == i*m + j over samples of a nested counting loop.
        let mut rows = Vec::new();
        for m in [3i128, 5, 7] {
            for i in 0..4 {
                for j in 0..m {
                    rows.push(vec![i * m + j, i, j, m]);
                }
            }
        }
        let monos = monomials(4, 2);
        let matrix: Vec<Vec<i128>> = rows
            .iter()
            .map(|r| {
                monos
                    .iter()
                    .map(|m| m.iter().map(|&i| r[i]).product())
                    .collect()
            })
            .collect();
        let basis = null_space(&matrix, monos.len());
        assert_eq!(basis.len(), 1, "{basis:?}");
        for r in &rows {
            assert_eq!(eval(&basis[0], r, &monos), 0);
        }
        // k - i*m - j: the monomials k, i*m, j have non-zero coefficients.
        let nz: Vec<&Vec<usize>> = (basis[0].iter().zip(&monos))
            .filter(|(c, _)| **c != 0)
            .map(|(_, m)| m)
            .collect();
        assert_eq!(nz, vec![&vec![0], &vec![2], &vec![1, 3]]);
    }

    #[test]
    fn null_space_of_independent_columns_is_empty() {
        let m = vec![vec![1, 0], vec![0, 1], vec![1, 1]];
        assert_eq!(null_space(&m, 2), Vec::<Vec<i128>>::new());
        // Two proportional columns: one relation, 2*x0 - x1 == 0.
        let m = vec![vec![1, 2], vec![3, 6], vec![-2, -4]];
        assert_eq!(null_space(&m, 2), vec![vec![2, -1]]);
    }

    #[test]
    fn values_are_read_at_their_width_and_signedness() {
        assert_eq!(as_int(0xffff_ffff, 32, true), -1);
        assert_eq!(as_int(0xffff_ffff, 32, false), 0xffff_ffff);
        assert_eq!(as_int(0x1_0000_0005, 32, true), 5);
    }
}
