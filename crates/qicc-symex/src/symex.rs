//! Symbolic execution of the whole program up to an unwinding bound (CBMC's goto-symex
//! strategy on control-flow automata).
//!
//! Calls are inlined: each call runs the callee's automaton on its own work list and returns
//! the merge of every state that reached the callee's `exit`. Inside one call, pending states
//! wait at their location, keyed by their position in the unwound program —
//! `[rpo(header), count]` for each enclosing loop, outermost first, then `rpo(location)` —
//! and the smallest key is processed next, after merging every state with that key. So a
//! join point is processed once all its predecessors in the same iteration are, loop
//! iterations run in order, and code after a loop waits until the loop is done. Any order
//! would be *correct* (merging is only an optimisation); this one merges as much as a
//! structured program allows, and still works on irreducible automata.
//!
//! Bounds: a back-edge of a loop is taken at most `bound` times per entry into the loop
//! (counters reset when the loop is entered), a function may be active at most
//! `recursion + 1` times on the call stack. A path that would go further is *cut*: its guard
//! is recorded with the reason, and the verdict TRUE needs every cut guard unsatisfiable.
//!
//! Every branching is exclusive: when the enabled conditions of a location's edges are not
//! syntactically disjoint, a fresh choice variable picks the edge. This is what makes merged
//! values (`ite`) and model-guided path extraction sound on nondeterministic automata.

use crate::cfa::FnInfo;
use crate::encode::{const_of, sort_of, zero_of, Encoder};
use crate::error::SymexError;
use crate::evaluate::CallEvaluator;
use crate::memory::{const_value, MemModel};
use crate::state::{Guards, State};
use crate::trace::{InstId, StepId, StepKind, Target, Trace};
use qicc_engine::Budget;
use qicc_ir::{
    AssertionId, EdgeId, FuncId, Function, HavocKind, Loc, Op, Program, TypeEnv, VarRef,
};
use qicc_smt::{Sort, TermId, TermStore};
use std::collections::{BTreeMap, HashMap};

/// What one term costs, with its Z3 translation and the solver's work on it: 120 bytes in
/// the term store and about 1.6 KiB in all, measured on an array-heavy nested loop
/// (`bench/terms_memory.py`): 10⁷ terms were 1.17 GB resident before solving, 3·10⁵ terms
/// 0.5 GB while solving.
const BYTES_PER_TERM: u64 = 1024;

/// The terms a run may build: its share of the memory limit ([`Budget::memory_share`]);
/// without a limit, no cap (the user said so with `--memory-limit 0`).
fn max_terms(budget: &Budget) -> usize {
    budget.memory_share().map_or(usize::MAX, |b| {
        usize::try_from(b / BYTES_PER_TERM).unwrap_or(usize::MAX)
    })
}

/// The default deepening schedule: 1, 2, 3, 4, 6, 8, 12, 16, 24, ... (powers of two and
/// their midpoints). Geometric, so the total work over all bounds is a small constant factor
/// of the last bound's; ×1.5 rather than ×2 steps, so a loop needing N iterations is
/// unwound at most 1.5·N times (unwinding cost grows faster than linearly in the bound for
/// nested loops).
pub fn schedule(max: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut p = 1u64;
    loop {
        for k in [p, p + p / 2] {
            if k as u32 as u64 == k && (k as u32) < max && out.last() != Some(&(k as u32)) {
                out.push(k as u32);
            }
        }
        if p >= max as u64 {
            break;
        }
        p *= 2;
    }
    out.push(max.max(1));
    out.dedup();
    out
}

/// The unwinding bounds of one symbolic execution.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub default: u32,
    /// Per (function, loop index) overrides.
    pub loops: HashMap<(FuncId, u32), u32>,
}

impl Bounds {
    pub fn loop_bound(&self, f: FuncId, l: u32) -> u32 {
        self.loops.get(&(f, l)).copied().unwrap_or(self.default)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutReason {
    Loop {
        func: FuncId,
        loop_id: u32,
        bound: u32,
    },
    Recursion {
        func: FuncId,
        bound: u32,
    },
    OutOfObjects,
    AllocTooLarge {
        func: FuncId,
        edge: EdgeId,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Cut {
    pub guard: TermId,
    pub reason: CutReason,
}

#[derive(Clone, Copy, Debug)]
pub struct ErrorHit {
    pub assertion: AssertionId,
    pub guard: TermId,
    /// No signed overflow happened before (see `State::clean`).
    pub clean: TermId,
}

impl Encoding {
    fn new(align: TermId, tracked: Option<Vec<TermId>>) -> Encoding {
        Encoding {
            errors: Vec::new(),
            cuts: Vec::new(),
            opens: Vec::new(),
            trace: Trace::default(),
            root: InstId(0),
            prelude: Vec::new(),
            align,
            uses_havoc_memory: false,
            steps: 0,
            evaluated_calls: 0,
            evaluated_steps: 0,
            tracked,
            n_untracked: 0,
            guards: Guards::default(),
            applied: Vec::new(),
            n_havoc: 0,
            n_choice: 0,
            n_memhavoc: 0,
        }
    }
}

/// How symex treats a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CallMode {
    /// Every call is inlined (a function active more than `bounds.default + 1` times on the
    /// call stack is cut): the BMC.
    Inline,
    /// Every call is left *open*: its effect is the callee's default summary (what its
    /// mod-set names becomes fresh symbols), whether it returns and whether it fails are
    /// Bool symbols, and [`inline_open`] can replace it by the callee's body later. Corral's
    /// stratified inlining.
    Open,
}

/// A call left open (see [`CallMode::Open`]): a dynamic call site, with everything needed to
/// block it, to summarise it and to inline it later.
#[derive(Clone, Debug)]
pub struct OpenCall {
    pub caller: FuncId,
    pub edge: EdgeId,
    pub callee: FuncId,
    /// The functions active when the call is made, outermost first (the caller last).
    pub stack: Vec<FuncId>,
    /// Parallel to `stack`: [`Symex`]'s relevance of each activation's continuation.
    cont: Vec<bool>,
    /// Whether anything after the callee's activation returns can reach an error.
    cont_callee: bool,
    /// The condition under which the call is made.
    pub guard: TermId,
    /// The callee's state at its entry (parameters bound; `from` is the call step).
    entry: State,
    /// The state after the call as the caller continues with it, but for the guard and the
    /// result: the callee's outputs as the summary leaves them (fresh symbols where the
    /// mod-set says).
    out: State,
    /// Bool symbol: the callee returns (false: it halts, blocks, fails or runs forever).
    pub returns: TermId,
    /// Bool symbol: the callee reaches an `error` edge (`None`: no error is reachable from
    /// its entry, so the summary needs no such possibility).
    pub fails: Option<TermId>,
    /// The callee's return value as the summary leaves it (a fresh symbol).
    ret: Option<TermId>,
    /// Trace: the callee's exit instance, whose one step returns to the caller.
    exit_inst: InstId,
    /// Whether the call has been inlined.
    pub inlined: bool,
}

impl OpenCall {
    /// The globals when the call is made.
    pub fn in_globals(&self) -> &[TermId] {
        &self.entry.globals
    }

    /// The globals after the call returns, as the summary leaves them.
    pub fn out_globals(&self) -> &[TermId] {
        &self.out.globals
    }

    /// The callee's return value as the summary leaves it (`None`: the callee has none).
    pub fn ret(&self) -> Option<TermId> {
        self.ret
    }

    /// Corral's cost of the call site: how many activations of the callee the call makes
    /// (the callee's occurrences on the stack, plus one).
    pub fn cost(&self) -> u32 {
        self.stack.iter().filter(|&&f| f == self.callee).count() as u32 + 1
    }
}

/// The record of a symbolic execution: what it found, and what it needs to go on (inlining
/// open calls later extends it).
pub struct Encoding {
    pub errors: Vec<ErrorHit>,
    pub cuts: Vec<Cut>,
    pub opens: Vec<OpenCall>,
    pub trace: Trace,
    /// The first instance (entry of the entry function).
    pub root: InstId,
    /// Values of the globals without initialiser, then of the entry function's parameters:
    /// the interpreter's havocs before the first edge, in its order.
    pub prelude: Vec<TermId>,
    /// Assumed by counterexample queries when memory was havocked (see `memory`).
    pub align: TermId,
    pub uses_havoc_memory: bool,
    pub steps: u64,
    /// Calls evaluated concretely, and their interpreter steps (a replay takes them too).
    pub evaluated_calls: u64,
    pub evaluated_steps: u64,
    /// With variable abstraction: the Bool constant `b_v` of each global, then the memory's
    /// (see `encode::Encoder::abstraction`); a query decides what is tracked by assuming them.
    pub tracked: Option<Vec<TermId>>,
    n_untracked: u64,
    guards: Guards,
    /// The `const`/`pure` applications encoded so far (`HavocKind::Applied`), for the
    /// functional-consistency constraints of later ones.
    applied: Vec<Application>,
    n_havoc: u64,
    n_choice: u64,
    n_memhavoc: u64,
}

/// One encoded result of a `const` or `pure` body-less function.
#[derive(Clone, Debug)]
struct Application {
    name: String,
    args: Vec<TermId>,
    /// For `pure`: the memory contents and the globals it was applied in. Equal terms mean
    /// equal states in every model (terms are hash-consed); different terms may still be equal,
    /// which only loses the constraint (sound: results are then independent).
    state: Option<(TermId, Vec<TermId>)>,
    result: TermId,
}

struct Symex<'a> {
    p: &'a Program,
    s: &'a mut TermStore,
    info: &'a [FnInfo],
    mm: &'a MemModel,
    bounds: &'a Bounds,
    budget: &'a Budget,
    calls: CallMode,
    /// Open calls with constant inputs are evaluated concretely (see `evaluate`).
    eval: Option<&'a CallEvaluator<'a>>,
    enc: &'a mut Encoding,
    call_stack: Vec<FuncId>,
    /// Parallel to `call_stack`: whether anything after the activation returns can still
    /// reach an error (see [`qicc_analysis::reach::Relevance`]).
    cont_stack: Vec<bool>,
    /// Where the execution is (function, location, the innermost loop's iteration): what
    /// the term limit's message names.
    at: Option<(FuncId, Loc, u32)>,
    max_terms: usize,
}

type Work = BTreeMap<Vec<u32>, (Loc, Vec<State>)>;

/// Symbolically executes `p` from its entry up to `bounds`, every call inlined.
pub fn run(
    p: &Program,
    s: &mut TermStore,
    info: &[FnInfo],
    mm: &MemModel,
    bounds: &Bounds,
    budget: &Budget,
) -> Result<Encoding, SymexError> {
    run_with(
        p,
        s,
        info,
        mm,
        bounds,
        budget,
        CallMode::Inline,
        false,
        None,
    )
}

/// Symbolically executes `p` from its entry up to `bounds`, calls treated as `calls` says;
/// with `abstraction`, every read of a global is parameterized by its Bool constant
/// (`Encoding::tracked`); with `eval`, open calls whose inputs are constants are evaluated
/// (see `evaluate`).
#[allow(clippy::too_many_arguments)]
pub fn run_with(
    p: &Program,
    s: &mut TermStore,
    info: &[FnInfo],
    mm: &MemModel,
    bounds: &Bounds,
    budget: &Budget,
    calls: CallMode,
    abstraction: bool,
    eval: Option<&CallEvaluator>,
) -> Result<Encoding, SymexError> {
    // Operations the term translation cannot encode make the answer unknown, not wrong.
    if let Some(why) = qicc_smt::ir::unsupported_in(p) {
        return Err(SymexError::Unsupported(why));
    }
    let align = s.symbol("replayable!", Sort::Bool);
    let tracked = abstraction.then(|| {
        let mut bs: Vec<TermId> = p
            .globals
            .iter()
            .map(|g| s.symbol(&format!("tracked!{}", g.name), Sort::Bool))
            .collect();
        bs.push(s.symbol("tracked!memory", Sort::Bool));
        bs
    });
    let first_obj = s.bv_const(mm.obj_w + 1, mm.statics as u64 + 1);
    let mut enc = Encoding::new(align, tracked);
    let mut x = Symex {
        p,
        s,
        info,
        mm,
        bounds,
        budget,
        calls,
        eval,
        enc: &mut enc,
        call_stack: Vec::new(),
        cont_stack: Vec::new(),
        at: None,
        max_terms: max_terms(budget),
    };
    let mut prelude = Vec::new();
    let mut globals = Vec::with_capacity(p.globals.len());
    for g in &p.globals {
        let t = match &g.init {
            Some(e) => {
                let (v, ty) = const_value(p, e).ok_or_else(|| {
                    SymexError::Unsupported(format!(
                        "global ${}: initialiser is not constant",
                        g.name
                    ))
                })?;
                const_of(x.s, ty, v)
            }
            None => {
                let t = x.s.symbol(&format!("global!{}", g.name), sort_of(g.ty));
                prelude.push(t);
                t
            }
        };
        globals.push(t);
    }
    let entry = p.entry;
    let f = p.function(entry);
    let mut locals: Vec<TermId> = f.locals.iter().map(|l| zero_of(x.s, l.ty)).collect();
    for prm in &f.params {
        let t = x.s.symbol(
            &format!("param!{}", f.local(*prm).name),
            sort_of(f.local(*prm).ty),
        );
        locals[prm.index()] = t;
        prelude.push(t);
    }
    let st = State {
        guard: x.s.tt(),
        locals,
        globals,
        mem: mm.init_mem,
        live: mm.init_live,
        size: mm.init_size,
        next_obj: first_obj,
        alloc_base: first_obj,
        clean: x.s.tt(),
        counters: vec![0; info[entry.index()].chain(f.entry).len()],
        from: Vec::new(),
    };
    x.call_stack.push(entry);
    x.cont_stack.push(false);
    x.run_function(entry, st, None)?;
    enc.prelude = prelude;
    Ok(enc)
}

/// What [`run_alone`] found at the function's exit.
pub struct Alone {
    /// The globals at entry (fresh symbols: any values).
    pub old_globals: Vec<TermId>,
    /// The merged exit: its guard and the globals there (`None`: no path returns).
    pub exit: Option<(TermId, Vec<TermId>)>,
}

/// Symbolically executes one activation of `fid` alone, from an arbitrary entry state (any
/// globals, parameters and memory), every call open: the VC of one procedure, as a
/// modular analysis (Houdini) checks it.
#[allow(clippy::too_many_arguments)]
pub fn run_alone(
    p: &Program,
    s: &mut TermStore,
    info: &[FnInfo],
    mm: &MemModel,
    bounds: &Bounds,
    budget: &Budget,
    fid: FuncId,
) -> Result<(Encoding, Alone), SymexError> {
    if let Some(why) = qicc_smt::ir::unsupported_in(p) {
        return Err(SymexError::Unsupported(why));
    }
    let align = s.symbol("replayable!", Sort::Bool);
    let first_obj = s.bv_const(mm.obj_w + 1, mm.statics as u64 + 1);
    let mut enc = Encoding::new(align, None);
    // The entry's memory is the first `havoc_memory` (the program's own get numbers after it).
    enc.uses_havoc_memory = true;
    enc.n_memhavoc = 1;
    let f = p.function(fid);
    let globals: Vec<TermId> = p
        .globals
        .iter()
        .map(|g| s.symbol(&format!("old!{}", g.name), sort_of(g.ty)))
        .collect();
    let mut locals: Vec<TermId> = f.locals.iter().map(|l| zero_of(s, l.ty)).collect();
    for prm in &f.params {
        let l = f.local(*prm);
        locals[prm.index()] = s.symbol(&format!("param!{}", l.name), sort_of(l.ty));
    }
    let (mem, live, size, next_obj) =
        mm.havoc(s, align, (mm.init_live, mm.init_size, first_obj), 0);
    let st = State {
        guard: s.tt(),
        locals,
        globals: globals.clone(),
        mem,
        live,
        size,
        next_obj,
        alloc_base: next_obj,
        clean: s.tt(),
        counters: vec![0; info[fid.index()].chain(f.entry).len()],
        from: Vec::new(),
    };
    let mut x = Symex {
        p,
        s,
        info,
        mm,
        bounds,
        budget,
        calls: CallMode::Open,
        eval: None,
        enc: &mut enc,
        // The exit matters whether or not an error is reachable after it.
        call_stack: vec![fid],
        cont_stack: vec![true],
        at: None,
        max_terms: max_terms(budget),
    };
    let exit = x.run_activation(fid, st)?.map(|st| (st.guard, st.globals));
    Ok((
        enc,
        Alone {
            old_globals: globals,
            exit,
        },
    ))
}

/// Replaces open call `id` of `enc` by the callee's body (its own calls are open again, as
/// new entries of `enc.opens`). Returns the constraints that tie the call's summary symbols to
/// the body: the caller asserts them (permanently), and from then on the summary is exact.
/// Nothing if the call was inlined already. `eval` as for [`run_with`].
#[allow(clippy::too_many_arguments)]
pub fn inline_open(
    p: &Program,
    s: &mut TermStore,
    info: &[FnInfo],
    mm: &MemModel,
    bounds: &Bounds,
    budget: &Budget,
    enc: &mut Encoding,
    id: usize,
    eval: Option<&CallEvaluator>,
) -> Result<Vec<TermId>, SymexError> {
    let Some(oc) = enc.opens.get(id).cloned() else {
        return Ok(Vec::new());
    };
    if oc.inlined {
        return Ok(Vec::new());
    }
    enc.opens[id].inlined = true;
    let mut call_stack = oc.stack.clone();
    call_stack.push(oc.callee);
    let mut cont_stack = oc.cont.clone();
    cont_stack.push(oc.cont_callee);
    let mut x = Symex {
        p,
        s,
        info,
        mm,
        bounds,
        budget,
        calls: CallMode::Open,
        eval,
        enc,
        call_stack,
        cont_stack,
        at: None,
        max_terms: max_terms(budget),
    };
    let exit = x.run_activation(oc.callee, oc.entry.clone())?;
    let s = x.s;
    let mut links = Vec::new();
    if let Some(fails) = oc.fails {
        // The body's errors are in the encoding now, each under its own guard; a path that
        // returns has not failed.
        links.push(s.not(fails));
    }
    match exit {
        None => {
            let ff = s.ff();
            links.push(s.eq(oc.returns, ff));
        }
        Some(exit) => {
            for st in &exit.from {
                x.enc.trace.set_target(*st, Target::Instance(oc.exit_inst));
            }
            links.push(s.eq(oc.returns, exit.guard));
            let g = oc.callee;
            let ret = p.function(g).ret;
            let mut pairs = vec![
                (oc.out.mem, exit.mem),
                (oc.out.live, exit.live),
                (oc.out.size, exit.size),
                (oc.out.next_obj, exit.next_obj),
                (oc.out.alloc_base, exit.alloc_base),
                (oc.out.clean, exit.clean),
            ];
            pairs.extend(
                oc.out
                    .globals
                    .iter()
                    .copied()
                    .zip(exit.globals.iter().copied()),
            );
            if let (Some(out), Some(r)) = (oc.ret, ret) {
                pairs.push((out, exit.locals[r.index()]));
            }
            for (out, val) in pairs {
                if out != val {
                    let eq = s.eq(out, val);
                    links.push(s.implies(exit.guard, eq));
                }
            }
        }
    }
    Ok(links)
}

impl Symex<'_> {
    fn tick(&mut self) -> Result<(), SymexError> {
        self.enc.steps += 1;
        if self.enc.steps.is_multiple_of(16) {
            if let Some(r) = self.budget.exhausted() {
                return Err(SymexError::Stopped(r));
            }
            if self.s.len() > self.max_terms {
                let at = self
                    .at
                    .map(|(fid, loc, _)| (fid, self.info[fid.index()].chain(loc).to_vec()));
                return Err(SymexError::TooLarge {
                    why: self.too_large(),
                    at,
                });
            }
        }
        Ok(())
    }

    /// Why the unwinding stops at the term limit: the bound, the terms, the memory they
    /// stand for, and the loop being unwound (the innermost one around where symex is).
    fn too_large(&self) -> String {
        let mib = |b: u64| b >> 20;
        let limit = self.budget.memory_mib.unwrap_or(0);
        let mut why = format!(
            "the unwinding at bound {} needs more than {} terms (about {} MiB with the \
             solver's copy: half the memory limit of {limit} MiB; --memory-limit raises it)",
            self.bounds.default,
            self.max_terms,
            mib(self.max_terms as u64 * BYTES_PER_TERM),
        );
        if let Some((fid, loc, iteration)) = self.at {
            let f = self.p.function(fid);
            let info = &self.info[fid.index()];
            match info.chain(loc).last() {
                Some(&l) => {
                    let lp = &info.loops()[l as usize];
                    why += &format!(
                        ", in the loop at {} ({}, iteration {} of {})",
                        self.p.span_str(lp.span),
                        f.name,
                        iteration + 1,
                        self.bounds.loop_bound(fid, l)
                    );
                }
                None => why += &format!(", in {}", f.name),
            }
        }
        why
    }

    /// The term of an IR expression in state `st`.
    fn ex(&mut self, st: &State, e: &qicc_ir::Expr) -> TermId {
        let abstraction = self
            .enc
            .tracked
            .as_deref()
            .map(|t| (t, &mut self.enc.n_untracked));
        Encoder {
            mm: self.mm,
            st,
            abstraction,
        }
        .expr(self.s, e)
    }

    fn push_pending(work: &mut Work, info: &FnInfo, loc: Loc, st: State) {
        let chain = info.chain(loc);
        let mut key = Vec::with_capacity(2 * chain.len() + 1);
        for (l, c) in chain.iter().zip(&st.counters) {
            key.push(info.rpo(info.loops()[*l as usize].header));
            key.push(*c);
        }
        key.push(info.rpo(loc));
        work.entry(key)
            .or_insert_with(|| (loc, Vec::new()))
            .1
            .push(st);
    }

    /// Runs one activation of `fid` from `st` (at its entry); the merged state at its exit,
    /// whose `from` is the return step (`None`: no path returns, or this is the entry
    /// function).
    fn run_function(
        &mut self,
        fid: FuncId,
        st: State,
        call: Option<(FuncId, EdgeId)>,
    ) -> Result<Option<State>, SymexError> {
        let Some(mut exit) = self.run_activation(fid, st)? else {
            return Ok(None);
        };
        let exit_loc = self.p.function(fid).exit;
        let inst = self.enc.trace.new_instance(fid, exit_loc, &exit.from);
        match call {
            Some((caller, edge)) => {
                let step =
                    self.enc
                        .trace
                        .new_step(inst, caller, edge, exit.guard, StepKind::Return);
                exit.from = vec![step];
                Ok(Some(exit))
            }
            None => Ok(None),
        }
    }

    /// Runs one activation of `fid` from `st`; the merged state at its exit, whose `from` are
    /// the steps into the exit (`None`: no path returns).
    fn run_activation(&mut self, fid: FuncId, st: State) -> Result<Option<State>, SymexError> {
        let f = self.p.function(fid);
        let info = &self.info[fid.index()];
        let mut work: Work = BTreeMap::new();
        let mut exits: Vec<State> = Vec::new();
        if !self.relevant(fid, f.entry) {
            return Ok(None);
        }
        Self::push_pending(&mut work, info, f.entry, st);
        while let Some((_, (loc, states))) = work.pop_first() {
            let iteration = states.first().and_then(|st| st.counters.last().copied());
            self.at = Some((fid, loc, iteration.unwrap_or(0)));
            self.tick()?;
            let merged = self.merge_all(states)?;
            self.process(fid, loc, merged, &mut work, &mut exits)?;
        }
        if exits.is_empty() {
            return Ok(None);
        }
        Ok(Some(self.merge_all(exits)?))
    }

    /// Merges the states waiting at one point, deepest guard first: states that left a
    /// loop in iterations k and k-1 share all but the last iteration's conditions, so each
    /// merge then only looks at a few conditions (in arrival order, every merge would walk
    /// back to the loop entry: quadratic in the iterations).
    fn merge_all(&mut self, mut states: Vec<State>) -> Result<State, SymexError> {
        if states.len() > 1 {
            let s = &*self.s;
            let guards = &mut self.enc.guards;
            let mut keyed: Vec<(u32, State)> = states
                .drain(..)
                .map(|st| (guards.depth(s, st.guard), st))
                .collect();
            keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
            states = keyed.into_iter().map(|(_, st)| st).collect();
        }
        let mut it = states.into_iter();
        let mut acc = it.next().expect("pending lists are never empty");
        for st in it {
            self.tick()?;
            acc = self.enc.guards.merge(self.s, acc, st);
        }
        Ok(acc)
    }

    /// Expands one merged state at `loc`: every enabled edge.
    fn process(
        &mut self,
        fid: FuncId,
        loc: Loc,
        st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let f = self.p.function(fid);
        let info = &self.info[fid.index()];
        let inst = self.enc.trace.new_instance(fid, loc, &st.from);
        let edges = info.succ(loc);
        let mut conds = Vec::with_capacity(edges.len());
        for &e in edges {
            let c = match &f.edge(e).op {
                Op::Assume(c) => self.ex(&st, c),
                _ => self.s.tt(),
            };
            conds.push((e, c));
        }
        let live: Vec<(EdgeId, TermId)> = conds
            .iter()
            .copied()
            .filter(|&(_, c)| c != self.s.ff())
            .collect();
        self.enc.trace.instances[inst.0 as usize].conds = conds;
        let choices = self.exclusive_choices(&live);
        for (k, &(e, c)) in live.iter().enumerate() {
            let c = self.s.and(c, choices[k]);
            let g = self.s.and(st.guard, c);
            if g == self.s.ff() {
                continue;
            }
            let mut next = st.clone();
            next.guard = g;
            next.from = Vec::new();
            self.exec_edge(fid, f, inst, e, next, work, exits)?;
        }
        Ok(())
    }

    /// Extra conditions that make the branches exclusive: all `true` if the edge conditions
    /// are pairwise disjoint already, otherwise "choice variable = k".
    fn exclusive_choices(&mut self, live: &[(EdgeId, TermId)]) -> Vec<TermId> {
        let n = live.len();
        let tt = self.s.tt();
        let mut disjoint = true;
        'pairs: for i in 0..n {
            for j in i + 1..n {
                if !self.s.disjoint(live[i].1, live[j].1) {
                    disjoint = false;
                    break 'pairs;
                }
            }
        }
        if disjoint {
            return vec![tt; n];
        }
        let id = self.enc.n_choice;
        self.enc.n_choice += 1;
        if n == 2 {
            let ch = self.s.symbol(&format!("choice!{id}"), Sort::Bool);
            let not = self.s.not(ch);
            return vec![ch, not];
        }
        let width = (usize::BITS - (n - 1).leading_zeros()).max(1) as u16;
        let ch = self.s.symbol(&format!("choice!{id}"), Sort::BitVec(width));
        (0..n)
            .map(|k| {
                let kk = self.s.bv_const(width, k as u64);
                self.s.eq(ch, kk)
            })
            .collect()
    }

    fn set_var(st: &mut State, v: VarRef, t: TermId) {
        match v {
            VarRef::Local(l) => st.locals[l.index()] = t,
            VarRef::Global(g) => st.globals[g.index()] = t,
        }
    }

    fn cut(&mut self, step: crate::trace::StepId, guard: TermId, reason: CutReason) {
        self.enc
            .trace
            .set_target(step, Target::Cut(self.enc.cuts.len()));
        self.enc.cuts.push(Cut { guard, reason });
    }

    /// Functional consistency of a `const`/`pure` result `sym` (Ackermann's reduction): for
    /// each earlier application of `name` in the same state (`pure`), equal arguments give
    /// equal results. The constraints join the path's guard.
    fn apply(
        &mut self,
        st: &mut State,
        name: &str,
        args: &[qicc_ir::Expr],
        reads_memory: bool,
        sym: TermId,
    ) {
        let args: Vec<TermId> = args.iter().map(|a| self.ex(st, a)).collect();
        let state = reads_memory.then(|| (st.mem, st.globals.clone()));
        for i in 0..self.enc.applied.len() {
            let app = &self.enc.applied[i];
            if app.name != name || app.state != state || app.args.len() != args.len() {
                continue;
            }
            let (earlier, result) = (app.args.clone(), app.result);
            let eqs: Vec<TermId> = earlier
                .iter()
                .zip(&args)
                .map(|(&a, &b)| self.s.eq(a, b))
                .collect();
            let same_args = self.s.and_all(&eqs);
            let same_result = self.s.eq(result, sym);
            let axiom = self.s.implies(same_args, same_result);
            st.guard = self.s.and(st.guard, axiom);
        }
        self.enc.applied.push(Application {
            name: name.to_string(),
            args,
            state,
            result: sym,
        });
    }

    /// Takes edge `e` in state `st` (whose guard already includes the edge's condition).
    #[allow(clippy::too_many_arguments)]
    fn exec_edge(
        &mut self,
        fid: FuncId,
        f: &Function,
        inst: InstId,
        e: EdgeId,
        mut st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let edge = f.edge(e);
        let mm = self.mm;
        let mut kind = StepKind::Plain;
        match &edge.op {
            Op::Skip | Op::Assume(_) => {}
            Op::NoWrap(c) => {
                let c = self.ex(&st, c);
                st.clean = self.s.and(st.clean, c);
            }
            Op::Assign(v, x) => {
                let t = self.ex(&st, x);
                Self::set_var(&mut st, *v, t);
            }
            Op::Havoc(v, how) => {
                let ty = self.p.env(f).var_ty(*v);
                let sym = self
                    .s
                    .symbol(&format!("nondet!{}", self.enc.n_havoc), sort_of(ty));
                self.enc.n_havoc += 1;
                kind = StepKind::Havoc(sym);
                if let HavocKind::Applied {
                    name,
                    args,
                    reads_memory,
                } = how
                {
                    self.apply(&mut st, name, args, *reads_memory, sym);
                }
                Self::set_var(&mut st, *v, sym);
            }
            Op::HavocBytes { dst, len } => {
                let d = self.ex(&st, dst);
                let n = self.ex(&st, len);
                // Fresh bytes at every execution: an array symbol of its own.
                let bytes = self.s.symbol(
                    &format!("bytes!{}", self.enc.n_havoc),
                    Sort::Array {
                        index: mm.ptr_w,
                        elem: 8,
                    },
                );
                self.enc.n_havoc += 1;
                st.mem = mm.copy_in(self.s, st.mem, d, bytes, n);
                kind = StepKind::HavocBytes {
                    bytes,
                    dst: d,
                    len: n,
                };
            }
            Op::Store { addr, value, .. } => {
                let a = self.ex(&st, addr);
                let v = self.ex(&st, value);
                st.mem = mm.store(self.s, st.mem, a, v);
            }
            Op::Alloc {
                dst,
                size,
                kind: alloc_kind,
            } => {
                // Out of object numbers: the model cannot go on. When the allocations since
                // the start (or since `havoc_memory`) alone use up the numbers, that is a cut
                // (never a proof). When only an arbitrary number from `havoc_memory` is too
                // high, the path is dropped: the same allocations from a lower number are
                // still explored, and an execution that reaches the region's head with a
                // number that high runs out of numbers in the program itself (unsupported).
                let max = self.s.bv_const(mm.obj_w + 1, mm.max_objects);
                let exhausted = self.s.ult(max, st.next_obj);
                if exhausted != self.s.ff() {
                    let since = self.s.sub(st.next_obj, st.alloc_base);
                    let room = self
                        .s
                        .bv_const(mm.obj_w + 1, mm.max_objects - mm.statics as u64 - 1);
                    let own = self.s.ult(room, since);
                    let g = self.s.and(st.guard, own);
                    if g != self.s.ff() {
                        let step = self.enc.trace.new_step(inst, fid, e, g, kind);
                        self.cut(step, g, CutReason::OutOfObjects);
                    }
                    let fits = self.s.not(exhausted);
                    st.guard = self.s.and(st.guard, fits);
                    if st.guard == self.s.ff() {
                        return Ok(());
                    }
                }
                let size = self.ex(&st, size);
                let max = self.s.bv_const(mm.ptr_w, mm.max_object_size);
                let too_big = self.s.ult(max, size);
                if too_big != self.s.ff() {
                    let g = self.s.and(st.guard, too_big);
                    let step = self.enc.trace.new_step(inst, fid, e, g, kind);
                    self.cut(step, g, CutReason::AllocTooLarge { func: fid, edge: e });
                    let fits = self.s.not(too_big);
                    st.guard = self.s.and(st.guard, fits);
                    if st.guard == self.s.ff() {
                        return Ok(());
                    }
                }
                let nt = self.s.extract(mm.obj_w - 1, 0, st.next_obj);
                st.next_obj = self.s.add_const(st.next_obj, 1);
                let live = match alloc_kind {
                    qicc_ir::AllocKind::Heap => crate::memory::LIVE_HEAP,
                    _ => crate::memory::LIVE,
                };
                let live = self.s.bv_const(crate::memory::LIVE_W, live);
                st.live = self.s.store(st.live, nt, live);
                st.size = self.s.store(st.size, nt, size);
                let addr = mm.base_of(self.s, nt);
                Self::set_var(&mut st, *dst, addr);
                kind = StepKind::Alloc(nt);
            }
            Op::Free(x) => {
                let a = self.ex(&st, x);
                let o = mm.obj_of(self.s, a);
                let zero = self.s.bv_const(crate::memory::LIVE_W, 0);
                st.live = self.s.store(st.live, o, zero);
            }
            Op::MemCopy { dst, src, len } => {
                let d = self.ex(&st, dst);
                let sr = self.ex(&st, src);
                let n = self.ex(&st, len);
                st.mem = mm.memcpy(self.s, st.mem, d, sr, n);
            }
            Op::MemSet { dst, byte, len } => {
                let d = self.ex(&st, dst);
                let b = self.ex(&st, byte);
                let n = self.ex(&st, len);
                st.mem = mm.memset(self.s, st.mem, d, b, n);
            }
            Op::HavocMemory => {
                let (m, l, z, n) = mm.havoc(
                    self.s,
                    self.enc.align,
                    (st.live, st.size, st.next_obj),
                    self.enc.n_memhavoc,
                );
                self.enc.n_memhavoc += 1;
                self.enc.uses_havoc_memory = true;
                st.mem = m;
                st.live = l;
                st.size = z;
                st.next_obj = n;
                st.alloc_base = n;
            }
            Op::HavocContents => {
                st.mem = mm.havoc_contents(self.s, self.enc.align, self.enc.n_memhavoc);
                self.enc.n_memhavoc += 1;
                self.enc.uses_havoc_memory = true;
            }
            Op::Call { dst, callee, args } => {
                return self.call(fid, f, inst, e, st, *dst, *callee, args, work, exits);
            }
            Op::Error(a) => {
                let step = self.enc.trace.new_step(inst, fid, e, st.guard, kind);
                self.enc.trace.set_target(step, Target::Error(*a));
                self.enc.errors.push(ErrorHit {
                    assertion: *a,
                    guard: st.guard,
                    clean: st.clean,
                });
                return Ok(());
            }
            Op::Halt(_) => {
                let step = self.enc.trace.new_step(inst, fid, e, st.guard, kind);
                self.enc.trace.set_target(step, Target::Halt);
                return Ok(());
            }
        }
        let step = self.enc.trace.new_step(inst, fid, e, st.guard, kind);
        st.from = vec![step];
        self.goto(fid, edge.from, edge.to, st, work, exits);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        fid: FuncId,
        f: &Function,
        inst: InstId,
        e: EdgeId,
        st: State,
        dst: Option<VarRef>,
        callee: FuncId,
        args: &[qicc_ir::Expr],
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let edge = f.edge(e);
        let argv: Vec<TermId> = args.iter().map(|a| self.ex(&st, a)).collect();
        let step = self
            .enc
            .trace
            .new_step(inst, fid, e, st.guard, StepKind::Plain);
        let active = self.call_stack.iter().filter(|&&g| g == callee).count() as u32;
        if self.calls == CallMode::Inline && active > self.bounds.default {
            let bound = self.bounds.default;
            self.cut(
                step,
                st.guard,
                CutReason::Recursion {
                    func: callee,
                    bound,
                },
            );
            return Ok(());
        }
        if self.calls == CallMode::Open {
            if let Some(cont) = self.evaluate(callee, &argv, &st, dst, step) {
                self.goto(fid, edge.from, edge.to, cont, work, exits);
                return Ok(());
            }
        }
        let g = self.p.function(callee);
        let mut locals: Vec<TermId> = g.locals.iter().map(|l| zero_of(self.s, l.ty)).collect();
        for (prm, a) in g.params.iter().zip(argv) {
            locals[prm.index()] = a;
        }
        let entry_state = State {
            guard: st.guard,
            locals,
            globals: st.globals.clone(),
            mem: st.mem,
            live: st.live,
            size: st.size,
            next_obj: st.next_obj,
            alloc_base: st.alloc_base,
            clean: st.clean,
            counters: vec![0; self.info[callee.index()].chain(g.entry).len()],
            from: vec![step],
        };
        let after = edge.to;
        let cont_here = self.cont_stack.last().copied().unwrap_or(false);
        let info = &self.info[fid.index()];
        let cont_callee =
            info.err_from[after.index()] || (info.exit_from[after.index()] && cont_here);
        if self.calls == CallMode::Open {
            let cont = self.open_call(fid, e, step, st, entry_state, callee, dst, cont_callee);
            self.goto(fid, edge.from, edge.to, cont, work, exits);
            return Ok(());
        }
        self.call_stack.push(callee);
        self.cont_stack.push(cont_callee);
        let exit = self.run_function(callee, entry_state, Some((fid, e)));
        self.call_stack.pop();
        self.cont_stack.pop();
        let Some(exit) = exit? else {
            return Ok(());
        };
        let ret = g.ret.map(|r| exit.locals[r.index()]);
        let mut cont = st;
        cont.guard = exit.guard;
        cont.globals = exit.globals;
        cont.mem = exit.mem;
        cont.live = exit.live;
        cont.size = exit.size;
        cont.next_obj = exit.next_obj;
        cont.alloc_base = exit.alloc_base;
        cont.clean = exit.clean;
        cont.from = exit.from;
        if let (Some(d), Some(r)) = (dst, ret) {
            Self::set_var(&mut cont, d, r);
        }
        self.goto(fid, edge.from, edge.to, cont, work, exits);
        Ok(())
    }

    /// The state after the call of `callee` from `st` (at the call step `step`) when it can be
    /// evaluated concretely (see `evaluate`): the callee's results as constants.
    fn evaluate(
        &mut self,
        callee: FuncId,
        argv: &[TermId],
        st: &State,
        dst: Option<VarRef>,
        step: StepId,
    ) -> Option<State> {
        let ev = self.eval?;
        let modset = &self.info[callee.index()].modset;
        let s = &*self.s;
        let konst = |t: TermId| {
            s.as_bv_const(t)
                .or_else(|| s.as_bool_const(t).map(u64::from))
        };
        let args: Vec<Option<u64>> = argv.iter().map(|&a| konst(a)).collect();
        let global = |g: qicc_ir::GlobalId| st.globals.get(g.index()).and_then(|&t| konst(t));
        let done = ev.evaluate(callee, modset, &args, &global, self.budget)?;
        self.enc.evaluated_calls += 1;
        self.enc.evaluated_steps += done.steps;
        let mut cont = st.clone();
        for (g, v) in done.globals {
            cont.globals[g.index()] = const_of(self.s, self.p.globals[g.index()].ty, v);
        }
        let g = self.p.function(callee);
        if let (Some(d), Some(r), Some(v)) = (dst, g.ret, done.ret) {
            let c = const_of(self.s, g.local(r).ty, v);
            Self::set_var(&mut cont, d, c);
        }
        cont.from = vec![step];
        Some(cont)
    }

    /// Leaves the call `caller --e-->` of `callee` open (see [`OpenCall`]): records it, and
    /// returns the state the caller continues in, the callee's default summary applied.
    #[allow(clippy::too_many_arguments)]
    fn open_call(
        &mut self,
        caller: FuncId,
        e: EdgeId,
        call_step: StepId,
        st: State,
        entry: State,
        callee: FuncId,
        dst: Option<VarRef>,
        cont_callee: bool,
    ) -> State {
        let id = self.enc.opens.len();
        let g = self.p.function(callee);
        let ginfo = &self.info[callee.index()];
        let m = &ginfo.modset;
        let s = &mut *self.s;
        let fresh = |s: &mut TermStore, what: &str, sort: Sort| {
            s.symbol(&format!("open!{id}!{what}"), sort)
        };
        let returns = if ginfo.exit_from[g.entry.index()] {
            fresh(s, "returns", Sort::Bool)
        } else {
            s.ff()
        };
        let fails = ginfo.err_from[g.entry.index()].then(|| fresh(s, "fails", Sort::Bool));
        // The summary: what the mod-set names is arbitrary, the rest as before the call.
        let mut out = st.clone();
        for gl in &m.globals {
            let ty = self.p.globals[gl.index()].ty;
            out.globals[gl.index()] = fresh(
                s,
                &format!("${}", self.p.globals[gl.index()].name),
                sort_of(ty),
            );
        }
        let bytes = Sort::Array {
            index: self.mm.ptr_w,
            elem: 8,
        };
        let objects = |elem| Sort::Array {
            index: self.mm.obj_w,
            elem,
        };
        if m.memory {
            out.mem = fresh(s, "mem", bytes);
        }
        if m.objects {
            out.live = fresh(s, "live", objects(crate::memory::LIVE_W));
            out.size = fresh(s, "size", objects(self.mm.ptr_w));
            out.next_obj = fresh(s, "next_obj", Sort::BitVec(self.mm.obj_w + 1));
        }
        if m.havoc_memory {
            out.alloc_base = fresh(s, "alloc_base", Sort::BitVec(self.mm.obj_w + 1));
        }
        let clean = fresh(s, "clean", Sort::Bool);
        out.clean = s.and(st.clean, clean);
        let ret = g.ret.map(|r| {
            let ty = g.local(r).ty;
            fresh(s, "ret", sort_of(ty))
        });
        let mut guard = st.guard;
        if let Some(f) = fails {
            let ok = s.not(f);
            guard = s.and(guard, ok);
        }
        guard = s.and(guard, returns);
        let exit_inst = self.enc.trace.new_instance(callee, g.exit, &[]);
        let ret_step = self
            .enc
            .trace
            .new_step(exit_inst, caller, e, guard, StepKind::Return);
        self.enc.trace.set_target(call_step, Target::Open(id));
        self.enc.opens.push(OpenCall {
            caller,
            edge: e,
            callee,
            stack: self.call_stack.clone(),
            cont: self.cont_stack.clone(),
            cont_callee,
            guard: st.guard,
            entry,
            out: out.clone(),
            returns,
            fails,
            ret,
            exit_inst,
            inlined: false,
        });
        let mut cont = out;
        cont.guard = guard;
        cont.from = vec![ret_step];
        if let (Some(d), Some(r)) = (dst, ret) {
            Self::set_var(&mut cont, d, r);
        }
        cont
    }

    /// Whether a state at `loc` of the current activation of `fid` can still reach an error.
    fn relevant(&self, fid: FuncId, loc: Loc) -> bool {
        let info = &self.info[fid.index()];
        let cont = self.cont_stack.last().copied().unwrap_or(false);
        info.err_from[loc.index()] || (info.exit_from[loc.index()] && cont)
    }

    /// Moves a state along an edge `from -> to` of `fid`: loop counters, bound, work list.
    fn goto(
        &mut self,
        fid: FuncId,
        from: Loc,
        to: Loc,
        mut st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) {
        let f = self.p.function(fid);
        if !self.relevant(fid, to) {
            // No error is reachable from here, now or after returning: the path can end.
            return;
        }
        if to == f.exit {
            st.counters.clear();
            exits.push(st);
            return;
        }
        let info = &self.info[fid.index()];
        let common = info.common_loops(from, to).min(st.counters.len());
        let mut counters = st.counters[..common].to_vec();
        if let Some(l) = info.back_edge_loop(from, to) {
            if let Some(c) = counters.last_mut() {
                *c += 1;
                let bound = self.bounds.loop_bound(fid, l);
                if *c > bound {
                    let reason = CutReason::Loop {
                        func: fid,
                        loop_id: l,
                        bound,
                    };
                    for s in st.from.clone() {
                        self.cut(s, st.guard, reason);
                    }
                    return;
                }
            }
        }
        counters.resize(info.chain(to).len(), 0);
        st.counters = counters;
        Self::push_pending(work, info, to, st);
    }
}

#[cfg(test)]
mod tests {
    use super::schedule;

    #[test]
    fn deepening_schedule() {
        assert_eq!(
            schedule(1024),
            vec![1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024]
        );
        assert_eq!(schedule(10), vec![1, 2, 3, 4, 6, 8, 10]);
        assert_eq!(schedule(1), vec![1]);
        assert_eq!(schedule(0), vec![1]);
        assert_eq!(schedule(5), vec![1, 2, 3, 4, 5]);
    }
}
