//! Call summaries: the default one (the mod-set, applied by `qicc-symex` when it leaves a
//! call open) strengthened by post-conditions that Houdini proves (Sec. 4.2 of the paper).
//!
//! Candidates are the paper's typestate predicates: for each global that the program only
//! ever compares with or assigns a few constants (its "typestate"), and for each function
//! that may change it or fail, `old(v) == c1 ⇒ v == c2` and `old(v) == c1 ⇒ ¬error`, and the
//! same without the pre-condition. Houdini (Flanagan & Leino) checks each function's
//! candidates on its body alone — run from an arbitrary entry state, its own calls open and
//! summarised by their callees' current candidates — drops those a model refutes, and repeats
//! until nothing changes; the survivors hold for every terminating call (assume-guarantee,
//! by induction on the call depth), so recursion needs no bound.
//!
//! Soundness rests on two rules: a function whose body the symbolic execution cannot cover
//! (a loop cut by the bound, an unsupported construct) keeps no candidate; and Houdini runs
//! to its fixpoint or not at all (a stop leaves only the default summaries).
//!
//! Beside Houdini's post-conditions, the interval facts of `qicc-facts` at each callee's exit
//! (over its return value and the globals it may change) strengthen every open call: they hold
//! in every execution from the program's entry, so every real call satisfies them and the
//! over-approximation keeps every real execution.
//!
//! This is the one place where proven summaries plug in: [`Summaries::constraints`] turns
//! them into constraints on an open call's symbols, whatever analysis proved them.

use qicc_engine::Budget;
use qicc_facts::Facts;
use qicc_ir::{BinOp, Expr, FuncId, GlobalId, ObjectId, Op, Program, Ty, VarRef};
use qicc_smt::ir::{encode_expr, sort_of, ExprView};
use qicc_smt::{CheckResult, SmtSolver, Solver, Sort, TermId, TermStore};
use qicc_symex::symex::run_alone;
use qicc_symex::{Bounds, FnInfo, MemModel, OpenCall, SymexError};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// More constants than this and a global is data, not a typestate.
const MAX_TYPESTATE_VALUES: usize = 4;
/// At most this many typestate globals get candidates.
const MAX_TYPESTATE_GLOBALS: usize = 8;

/// What a post-condition says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Post {
    /// The global has this value when the call returns.
    Equals(GlobalId, u64),
    /// The call reaches no `error` edge.
    NoError,
}

/// `pre ⇒ post`, with `pre` over the globals' values at the call (`None`: true).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub pre: Option<(GlobalId, u64)>,
    pub post: Post,
}

/// The proven post-conditions of every function (by function id).
#[derive(Clone, Debug, Default)]
pub struct Summaries {
    pub per_function: Vec<Vec<Candidate>>,
    /// Per function: the interval facts at its exit over its return value and the globals of
    /// its mod-set, as one condition (`None`: nothing known).
    pub exit_facts: Vec<Option<Expr>>,
}

impl Summaries {
    /// No post-condition beyond the default summary.
    pub fn none(p: &Program) -> Summaries {
        Summaries {
            per_function: vec![Vec::new(); p.functions.len()],
            exit_facts: vec![None; p.functions.len()],
        }
    }

    /// Adds the interval facts at each function's exit (see the module docs).
    pub fn with_exit_facts(mut self, p: &Program, info: &[FnInfo], facts: &Facts) -> Summaries {
        self.exit_facts = p
            .function_ids()
            .map(|f| {
                let func = p.function(f);
                let mut vars: Vec<VarRef> = func.ret.map(VarRef::Local).into_iter().collect();
                vars.extend(
                    info[f.index()]
                        .modset
                        .globals
                        .iter()
                        .map(|g| VarRef::Global(*g)),
                );
                facts.condition(p, f, func.exit, &vars)
            })
            .collect();
        self
    }

    /// How many functions have exit facts.
    pub fn exit_facts_count(&self) -> usize {
        self.exit_facts.iter().flatten().count()
    }

    /// How many post-conditions there are in all.
    pub fn len(&self) -> usize {
        self.per_function.iter().map(Vec::len).sum()
    }

    /// The constraints the summary of `oc`'s callee puts on the call's symbols.
    pub fn constraints(&self, p: &Program, s: &mut TermStore, oc: &OpenCall) -> Vec<TermId> {
        let cands = self
            .per_function
            .get(oc.callee.index())
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut out: Vec<TermId> = cands
            .iter()
            .filter_map(|c| instantiate(p, s, c, oc))
            .collect();
        if let Some(Some(fact)) = self.exit_facts.get(oc.callee.index()) {
            // `returns ⇒ fact(out)`: the fact holds where the callee's exit is reached.
            let t = encode_expr(s, &mut ExitView { p, oc }, fact);
            if t != s.tt() {
                out.push(s.implies(oc.returns, t));
            }
        }
        out
    }
}

/// Reads a condition at a callee's exit as the open call's outputs: its return value and the
/// globals after the call. Exit facts name nothing else (interval facts are comparisons of
/// variables with constants); anything else would read as an arbitrary value of its sort,
/// which only weakens the fact.
struct ExitView<'a> {
    p: &'a Program,
    oc: &'a OpenCall,
}

impl ExitView<'_> {
    fn arbitrary(&self, s: &mut TermStore, what: &str, sort: Sort) -> TermId {
        let n = s.len();
        s.symbol(
            &format!("exit-fact!{}!{what}!{n}", self.oc.callee.index()),
            sort,
        )
    }
}

impl ExprView for ExitView<'_> {
    fn var(&mut self, s: &mut TermStore, v: VarRef) -> TermId {
        let callee = self.p.function(self.oc.callee);
        let (t, ty) = match v {
            VarRef::Global(g) => (
                self.oc.out_globals().get(g.index()).copied(),
                self.p.global_ty(g),
            ),
            VarRef::Local(l) if callee.ret == Some(l) => (self.oc.ret(), callee.local(l).ty),
            VarRef::Local(l) => (None, callee.local(l).ty),
        };
        t.unwrap_or_else(|| self.arbitrary(s, "var", sort_of(ty)))
    }
    fn obj_addr(&mut self, s: &mut TermStore, _: ObjectId) -> TermId {
        let ty = self.p.pointer_ty();
        self.arbitrary(s, "addr", sort_of(ty))
    }
    fn load(&mut self, s: &mut TermStore, bytes: u16, _: TermId) -> TermId {
        self.arbitrary(s, "load", Sort::BitVec(bytes * 8))
    }
    fn valid(&mut self, s: &mut TermStore, _: qicc_ir::Access, _: u32, _: TermId) -> TermId {
        self.arbitrary(s, "valid", Sort::Bool)
    }
}

/// `c` over a call's symbols: `pre(in) ∧ returns ⇒ out_v = c2`, or `pre(in) ⇒ ¬fails`.
fn instantiate(p: &Program, s: &mut TermStore, c: &Candidate, oc: &OpenCall) -> Option<TermId> {
    let pre = match c.pre {
        Some((v, k)) => global_is(p, s, oc.in_globals(), v, k)?,
        None => s.tt(),
    };
    match c.post {
        Post::Equals(v, k) => {
            let returns = s.and(pre, oc.returns);
            let post = global_is(p, s, oc.out_globals(), v, k)?;
            Some(s.implies(returns, post))
        }
        Post::NoError => {
            let fails = oc.fails?;
            let ok = s.not(fails);
            Some(s.implies(pre, ok))
        }
    }
}

/// `values[v] == k` (`None` for a global that is not an int).
fn global_is(
    p: &Program,
    s: &mut TermStore,
    values: &[TermId],
    v: GlobalId,
    k: u64,
) -> Option<TermId> {
    let Ty::Int(w) = p.globals.get(v.index())?.ty else {
        return None;
    };
    let t = *values.get(v.index())?;
    let c = s.bv_const(w, k);
    Some(s.eq(t, c))
}

/// The typestate globals and their values: int globals that the program only ever assigns
/// constants, compares with constants, or leaves alone, with at most a few distinct constants
/// (the initial value included).
fn typestates(p: &Program) -> BTreeMap<GlobalId, BTreeSet<u64>> {
    let mut values: BTreeMap<GlobalId, BTreeSet<u64>> = BTreeMap::new();
    let mut data: BTreeSet<GlobalId> = BTreeSet::new();
    for (i, g) in p.globals.iter().enumerate() {
        let id = GlobalId(i as u32);
        if !matches!(g.ty, Ty::Int(_)) {
            data.insert(id);
            continue;
        }
        let init = g.init.as_ref().map_or(Some(0), Expr::as_const);
        match init {
            Some(k) => {
                values.entry(id).or_default().insert(k);
            }
            None => {
                data.insert(id);
            }
        }
    }
    let note = |e: &Expr, values: &mut BTreeMap<GlobalId, BTreeSet<u64>>| {
        e.visit(&mut |x| {
            if let Expr::Binary(BinOp::Eq | BinOp::Ne, a, b) = x {
                for (v, k) in [(a, b), (b, a)] {
                    if let (Expr::Var(VarRef::Global(g)), Some(k)) = (&**v, k.as_const()) {
                        values.entry(*g).or_default().insert(k);
                    }
                }
            }
        });
    };
    for f in &p.functions {
        for e in &f.edges {
            if let Some(VarRef::Global(g)) = e.op.def() {
                match &e.op {
                    Op::Assign(_, x) if x.as_const().is_some() => {
                        if let Some(k) = x.as_const() {
                            values.entry(g).or_default().insert(k);
                        }
                    }
                    _ => {
                        data.insert(g);
                    }
                }
            }
            e.op.exprs(&mut |x| note(x, &mut values));
        }
    }
    values
        .into_iter()
        .filter(|(g, ks)| !data.contains(g) && ks.len() <= MAX_TYPESTATE_VALUES)
        .take(MAX_TYPESTATE_GLOBALS)
        .collect()
}

/// The candidates of every function: for the typestate globals it may change, their values
/// after the call; for a function that may fail, its not failing; each under every
/// typestate pre-condition and none.
fn candidates(p: &Program, info: &[FnInfo]) -> Vec<Vec<Candidate>> {
    let ts = typestates(p);
    let mut pres: Vec<Option<(GlobalId, u64)>> = vec![None];
    for (g, ks) in &ts {
        pres.extend(ks.iter().map(|k| Some((*g, *k))));
    }
    p.functions
        .iter()
        .enumerate()
        .map(|(i, f)| {
            if FuncId(i as u32) == p.entry {
                return Vec::new();
            }
            let fi = &info[i];
            let mut posts = Vec::new();
            for (g, ks) in &ts {
                if fi.modset.globals.contains(g) {
                    posts.extend(ks.iter().map(|k| Post::Equals(*g, *k)));
                }
            }
            if fi.err_from[f.entry.index()] {
                posts.push(Post::NoError);
            }
            let mut out = Vec::new();
            for pre in &pres {
                for post in &posts {
                    out.push(Candidate {
                        pre: *pre,
                        post: *post,
                    });
                }
            }
            out
        })
        .collect()
}

/// What Houdini did.
#[derive(Debug, Default)]
pub struct HoudiniStats {
    pub candidates: usize,
    pub proven: usize,
    pub queries: u64,
}

/// Houdini over the typestate candidates: the largest subset that proves itself (see the
/// module docs). `Err` when it could not finish (then no summary may be used).
#[allow(clippy::too_many_arguments)]
pub fn houdini(
    p: &Program,
    s: &mut TermStore,
    solver: &mut SmtSolver,
    info: &[FnInfo],
    mm: &MemModel,
    budget: &Budget,
    stats: &mut HoudiniStats,
) -> Result<Summaries, String> {
    let mut cands = candidates(p, info);
    stats.candidates = cands.iter().map(Vec::len).sum();
    if stats.candidates == 0 {
        return Ok(Summaries::none(p));
    }
    // Loops are unwound once: a function whose loop is cut keeps nothing.
    let bounds = Bounds {
        default: 1,
        loops: HashMap::new(),
    };
    let mut changed = true;
    while changed {
        changed = false;
        for fi in 0..p.functions.len() {
            if cands[fi].is_empty() {
                continue;
            }
            if let Some(stop) = budget.exhausted() {
                return Err(stop.describe().to_string());
            }
            solver.push();
            let r = check_function(
                p, s, solver, info, mm, budget, &bounds, &mut cands, fi, stats,
            );
            solver.pop();
            changed |= r?;
        }
    }
    stats.proven = cands.iter().map(Vec::len).sum();
    Ok(Summaries {
        per_function: cands,
        exit_facts: Vec::new(),
    })
}

/// Checks function `fi`'s candidates once, dropping the refuted ones; whether any was dropped.
#[allow(clippy::too_many_arguments)]
fn check_function(
    p: &Program,
    s: &mut TermStore,
    solver: &mut SmtSolver,
    info: &[FnInfo],
    mm: &MemModel,
    budget: &Budget,
    bounds: &Bounds,
    cands: &mut [Vec<Candidate>],
    fi: usize,
    stats: &mut HoudiniStats,
) -> Result<bool, String> {
    let fid = FuncId(fi as u32);
    let (enc, alone) = match run_alone(p, s, info, mm, bounds, budget, fid) {
        Ok(x) => x,
        Err(SymexError::Stopped(r)) => return Err(r.describe().to_string()),
        Err(SymexError::Unsupported(_) | SymexError::TooLarge { .. }) => {
            cands[fi].clear();
            return Ok(true);
        }
    };
    if !enc.cuts.is_empty() {
        cands[fi].clear();
        return Ok(true);
    }
    // The callees as their current candidates say (assume-guarantee).
    let current = Summaries {
        per_function: cands.to_vec(),
        exit_facts: Vec::new(),
    };
    for oc in &enc.opens {
        for c in current.constraints(p, s, oc) {
            solver.assert(s, c);
        }
    }
    // How each candidate can fail: a returning path that ends elsewhere, or an error.
    let mut errors: Vec<TermId> = enc.errors.iter().map(|h| h.guard).collect();
    for oc in &enc.opens {
        if let Some(f) = oc.fails {
            errors.push(s.and(oc.guard, f));
        }
    }
    let error = s.or_all(&errors);
    let mut refute: Vec<Option<TermId>> = Vec::new();
    for c in &cands[fi] {
        let pre = match c.pre {
            Some((v, k)) => global_is(p, s, &alone.old_globals, v, k),
            None => Some(s.tt()),
        };
        let t = pre.and_then(|pre| match c.post {
            Post::Equals(v, k) => match &alone.exit {
                None => Some(s.ff()),
                Some((guard, globals)) => {
                    let post = global_is(p, s, globals, v, k)?;
                    let not = s.not(post);
                    let bad = s.and(*guard, not);
                    Some(s.and(pre, bad))
                }
            },
            Post::NoError => Some(s.and(pre, error)),
        });
        refute.push(t);
    }
    // A candidate that cannot even be stated is dropped.
    let mut dropped = false;
    let mut keep: Vec<bool> = refute.iter().map(Option::is_some).collect();
    dropped |= keep.iter().any(|k| !k);
    loop {
        let live: Vec<TermId> = refute
            .iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .filter_map(|(t, _)| *t)
            .collect();
        let any = s.or_all(&live);
        if any == s.ff() {
            break;
        }
        stats.queries += 1;
        match solver.check(s, &[any]) {
            CheckResult::Unsat => break,
            CheckResult::Unknown(why) => {
                return Err(match budget.exhausted() {
                    Some(r) => r.describe().to_string(),
                    None => format!("solver gave no answer ({why})"),
                })
            }
            CheckResult::Sat => {
                let mut progress = false;
                for (k, t) in refute.iter().enumerate() {
                    if let (true, Some(t)) = (keep[k], t) {
                        if solver.value(s, *t).map(|v| v.as_u64()) == Some(1) {
                            keep[k] = false;
                            progress = true;
                        }
                    }
                }
                if !progress {
                    return Err("internal error: Houdini's model refutes no candidate".into());
                }
                dropped = true;
            }
        }
    }
    if dropped {
        let mut k = keep.into_iter();
        cands[fi].retain(|_| k.next().unwrap_or(false));
    }
    Ok(dropped)
}
