//! The stratified-inlining loop (Fig. 2) and its queries.
//!
//! Per recursion bound r, inside one solver frame: the symbolic execution with every call
//! open, one *block literal* per open call (`block ⇒ ¬guard`, asserted), then the loop of
//! query type 1 (all block literals assumed) and query type 2 (block literals of the calls of
//! cost > r assumed, the others' `fails` symbols as errors). Inlining asserts the constraints
//! that tie a summary to the body; the VC grows on the solver stack and every query is a new
//! set of assumptions over it.

use crate::refine::hierarchical;
use crate::summary::{houdini, HoudiniStats, Summaries};
use crate::CorralOptions;
use qicc_engine::{Budget, EngineResult, Stats, StopReason};
use qicc_facts::Facts;
use qicc_ir::{FuncId, Op, Program};
use qicc_smt::{CheckMode, CheckResult, InterruptHandle, Solver, Sort, TermId};
use qicc_symex::replay::first_open_call;
use qicc_symex::symex::{inline_open, run_with};
use qicc_symex::{
    schedule, Bounds, CallEvaluator, CallMode, CutReason, Encoding, FnInfo, Solving,
    SolvingOptions, SymexError,
};
use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// How one bound ended.
enum Round {
    /// A replayed violation (the first one is the answer).
    Violation,
    /// Safe for every bound.
    Proof,
    /// Not decided at this bound: why.
    Open(String),
}

pub(crate) struct Engine<'a> {
    p: &'a Program,
    opts: &'a CorralOptions,
    budget: &'a Budget,
    q: Solving<'a>,
    info: Vec<FnInfo>,
    stats: Stats,
    /// Proven post-conditions, applied to every open call.
    summaries: Summaries,
    /// Variable abstraction (`opts.abstraction`): the variables tracked so far (they stay
    /// tracked across bounds).
    tracked: BTreeSet<usize>,
    /// Evaluates open calls whose inputs are constants (`qicc_symex::evaluate`).
    eval: Option<CallEvaluator<'a>>,
}

impl<'a> Engine<'a> {
    pub fn new(
        p: &'a Program,
        opts: &'a CorralOptions,
        budget: &'a Budget,
        slot: &Mutex<Option<InterruptHandle>>,
        stop: Arc<AtomicBool>,
    ) -> Result<Engine<'a>, String> {
        // Incremental: the VC stays on the solver stack and grows as calls are inlined; each
        // query is a set of assumptions over it.
        let q = Solving::new(
            p,
            budget,
            SolvingOptions {
                mode: CheckMode::Incremental,
                check_timeout: opts.check_timeout,
                progress: opts.progress.as_ref(),
                dump: None,
            },
            slot,
            stop,
        )?;
        let info = FnInfo::of_program(p);
        let stats = Stats {
            static_inlining_calls: static_inlining_calls(p),
            calls_inlined: Some(0),
            calls_evaluated: Some(0),
            ..Stats::default()
        };
        Ok(Engine {
            p,
            opts,
            budget,
            q,
            info,
            stats,
            summaries: Summaries::none(p),
            tracked: BTreeSet::new(),
            eval: CallEvaluator::new(p),
        })
    }

    pub fn run(mut self) -> EngineResult {
        if self.opts.abstraction {
            self.stats.variables_tracked = Some(0);
        }
        self.summarise();
        let mut last = String::new();
        for r in schedule(self.opts.max_bound) {
            if let Some(stop) = self.budget.exhausted() {
                return self.give_up(stop.describe().to_string(), r, &last);
            }
            self.stats.recursion_bound = Some(r);
            self.q.solver.push();
            let round = qicc_smt::catch_stop(|| self.round(r))
                .unwrap_or_else(|_| Err(self.stop_reason().describe().to_string()));
            self.q.solver.pop();
            match round {
                Ok(Round::Violation) => return self.answer(None),
                Ok(Round::Proof) => return self.proven(),
                Ok(Round::Open(why)) => last = why,
                Err(why) => return self.give_up(why, r, &last),
            }
        }
        if last.is_empty() {
            last = "no bound was tried".into();
        }
        self.unknown(last)
    }

    /// Houdini's summaries (see `summary`); without them when it cannot finish.
    fn summarise(&mut self) {
        self.q
            .progress("summaries: Houdini over typestate candidates…");
        let mut hs = HoudiniStats::default();
        let t0 = Instant::now();
        let r = qicc_smt::catch_stop(|| {
            houdini(
                self.p,
                &mut self.q.s,
                &mut self.q.solver,
                &self.info,
                &self.q.mm,
                self.budget,
                &mut hs,
            )
        });
        self.q.solver_ms += t0.elapsed().as_millis() as u64;
        self.q.solver_calls += hs.queries;
        self.stats.summary_candidates = Some(hs.candidates as u64);
        match r {
            Ok(Ok(sums)) => {
                self.stats.summaries_proven = Some(sums.len() as u64);
                self.q.progress(&format!(
                    "summaries: {} of {} candidates proven",
                    sums.len(),
                    hs.candidates
                ));
                self.summaries = sums;
            }
            Ok(Err(why)) => self.q.progress(&format!("summaries: none ({why})")),
            Err(_) => self.q.progress("summaries: none (stopped)"),
        }
        if self.budget.exhausted().is_none() {
            let flows: Vec<_> = self.info.iter().map(|i| &i.flow).collect();
            let facts = Facts::analyze_with(self.p, &flows);
            let sums = std::mem::take(&mut self.summaries);
            self.summaries = sums.with_exit_facts(self.p, &self.info, &facts);
            self.stats.exit_facts = Some(self.summaries.exit_facts_count() as u64);
        }
    }

    /// Why a model could not be followed: the budget, when it ran out meanwhile (the
    /// watcher interrupts Z3, and an interrupted context evaluates nothing), else an internal
    /// error.
    fn model_error(&self, e: impl std::fmt::Display) -> String {
        match self.budget.exhausted() {
            Some(stop) => stop.describe().to_string(),
            None => format!("internal error: {e}"),
        }
    }

    fn stop_reason(&self) -> StopReason {
        self.budget.exhausted().unwrap_or(StopReason::Timeout)
    }

    /// Stratified inlining at bound `r` (Fig. 2, the loop at line 4). `Err`: no answer (the
    /// budget, the solver, or something the encoding does not support).
    fn round(&mut self, r: u32) -> Result<Round, String> {
        self.q.progress(&format!(
            "bound {r}: symbolic execution of the entry function…"
        ));
        let bounds = Bounds {
            default: r,
            loops: HashMap::new(),
        };
        let mut enc = match run_with(
            self.p,
            &mut self.q.s,
            &self.info,
            &self.q.mm,
            &bounds,
            self.budget,
            CallMode::Open,
            self.opts.abstraction,
            self.eval.as_ref(),
        ) {
            Ok(enc) => enc,
            Err(SymexError::Stopped(r)) => {
                return Err(format!("{} during symbolic execution", r.describe()))
            }
            Err(e @ (SymexError::Unsupported(_) | SymexError::TooLarge { .. })) => {
                return Err(e.to_string())
            }
        };
        Stats::add(&mut self.stats.calls_evaluated, enc.evaluated_calls);
        let mut block: Vec<TermId> = Vec::new();
        self.add_block_literals(&enc, &mut block);
        loop {
            Stats::add(&mut self.stats.inlining_iterations, 1);
            if let Some(stop) = self.budget.exhausted() {
                return Err(stop.describe().to_string());
            }
            let open: Vec<usize> = (0..enc.opens.len())
                .filter(|&i| !enc.opens[i].inlined)
                .collect();
            self.stats.calls_open = Some(open.len() as u64);
            // Query type 1: every open call blocked; a model is a real execution.
            if self.type1(&enc, &open, &block, r)? {
                return Ok(Round::Violation);
            }
            // Query type 2: calls below the bound summarised (a summarised call may fail),
            // the others blocked.
            let (summarised, blocked): (Vec<usize>, Vec<usize>) =
                open.iter().partition(|&&i| enc.opens[i].cost() <= r);
            let mut goals = self.q.open_hits(&enc, false);
            for &i in &summarised {
                if let Some(f) = enc.opens[i].fails {
                    goals.push(self.q.s.and(enc.opens[i].guard, f));
                }
            }
            let blocks: Vec<TermId> = blocked.iter().map(|&i| block[i]).collect();
            let mut abstract_blocks = blocks.clone();
            abstract_blocks.extend(self.psi(&enc, false));
            if !self.sat_with(
                &goals,
                &abstract_blocks,
                "error reachable through summaries",
                r,
            )? {
                return self.settle(&enc, &blocked, r);
            }
            // Inline the first open call on the model's path: every call a real execution
            // makes before it fails must be inlined for query type 1 to see it, and this one
            // comes first (the paper inlines every open call on the path; one at a time keeps
            // the program small when most of them are not needed).
            let first = {
                let (solver, store) = (&mut self.q.solver, &self.q.s);
                first_open_call(&enc, &mut |t| solver.value(store, t).map(|v| v.as_u64()))
            }
            .map_err(|e| self.model_error(e))?;
            let Some(first) = first else {
                // The path reaches an error through inlined code only, and query type 1 found
                // no property violation: an undefined-behaviour check, if the abstraction
                // did not make it up.
                let concrete = self.with_psi(&enc, &blocks, true);
                if !self.sat_with(
                    &goals,
                    &concrete,
                    "error reachable (every global tracked)",
                    r,
                )? {
                    let core = self.q.solver.unsat_core();
                    let goal = self.q.s.or_all(&goals);
                    let mut base = vec![goal];
                    base.extend_from_slice(&blocks);
                    self.refine(&enc, &base, core, r)?;
                    continue;
                }
                // The concrete model is a new one: its path may run through an open call.
                let again = {
                    let (solver, store) = (&mut self.q.solver, &self.q.s);
                    first_open_call(&enc, &mut |t| solver.value(store, t).map(|v| v.as_u64()))
                }
                .map_err(|e| self.model_error(e))?;
                if let Some(i) = again.filter(|i| !blocked.contains(i)) {
                    self.inline(&mut enc, &bounds, i)?;
                    self.add_block_literals(&enc, &mut block);
                    continue;
                }
                let hit = enc
                    .errors
                    .iter()
                    .find(|h| {
                        !self.q.found.done.contains(&h.assertion)
                            && self.q.value(h.guard) == Some(1)
                    })
                    .map(|h| h.assertion);
                match hit {
                    Some(a) if !self.q.is_property(a) => self.q.found.ub_reachable(self.p, a),
                    Some(a) => {
                        // Query type 1 missed it (it also asks for a replayable memory
                        // state): the replay decides, as for every counterexample.
                        if self
                            .q
                            .replay_hit(&enc, a, &concrete, &format!("bound {r}"))?
                        {
                            return Ok(Round::Violation);
                        }
                    }
                    None => {
                        return Err(
                            "internal error: the model reaches no error and no open call".into(),
                        )
                    }
                }
                continue;
            };
            if blocked.contains(&first) {
                return Err("internal error: a model of query type 2 calls a blocked call".into());
            }
            let on_path = vec![first];
            self.q.progress(&format!(
                "bound {r}: inlining {} of {} open calls",
                on_path.len(),
                open.len()
            ));
            for i in on_path {
                self.inline(&mut enc, &bounds, i)?;
            }
            self.add_block_literals(&enc, &mut block);
        }
    }

    /// Inlines open call `i` and ties its summary to the body on the solver stack.
    fn inline(&mut self, enc: &mut Encoding, bounds: &Bounds, i: usize) -> Result<(), String> {
        let evaluated = enc.evaluated_calls;
        let links = inline_open(
            self.p,
            &mut self.q.s,
            &self.info,
            &self.q.mm,
            bounds,
            self.budget,
            enc,
            i,
            self.eval.as_ref(),
        )
        .map_err(|e| match e {
            SymexError::Stopped(r) => format!("{} during inlining", r.describe()),
            e => e.to_string(),
        })?;
        Stats::add(&mut self.stats.calls_inlined, 1);
        Stats::add(
            &mut self.stats.calls_evaluated,
            enc.evaluated_calls - evaluated,
        );
        for l in links {
            self.q.solver.assert(&self.q.s, l);
        }
        Ok(())
    }

    /// What the abstraction may leave untracked: every global, then the memory as a whole.
    fn abstracted_vars(&self) -> usize {
        self.p.globals.len() + 1
    }

    /// The assumptions that track exactly the variables in `tracked` (nothing without
    /// abstraction).
    fn psi_of(&mut self, enc: &Encoding, tracked: &BTreeSet<usize>) -> Vec<TermId> {
        let Some(bs) = &enc.tracked else {
            return Vec::new();
        };
        bs.iter()
            .enumerate()
            .map(|(v, &b)| {
                if tracked.contains(&v) {
                    b
                } else {
                    self.q.s.not(b)
                }
            })
            .collect()
    }

    /// The assumptions of the current abstraction, or (`all`) of tracking every global.
    fn psi(&mut self, enc: &Encoding, all: bool) -> Vec<TermId> {
        let tracked = if all {
            (0..self.abstracted_vars()).collect()
        } else {
            self.tracked.clone()
        };
        self.psi_of(enc, &tracked)
    }

    /// `base` followed by [`Engine::psi`].
    fn with_psi(&mut self, enc: &Encoding, base: &[TermId], all: bool) -> Vec<TermId> {
        let mut a = base.to_vec();
        a.extend(self.psi(enc, all));
        a
    }

    /// Hierarchical refinement (Alg. 2): the query `base` is satisfiable with the current
    /// variables tracked and unsatisfiable with all of them (`core`: that check's unsat core,
    /// if the solver gave one); track a minimal set more that makes it unsatisfiable, found by
    /// assumptions over the one parameterized VC.
    fn refine(
        &mut self,
        enc: &Encoding,
        base: &[TermId],
        core: Option<Vec<TermId>>,
        r: u32,
    ) -> Result<(), String> {
        let t0 = Instant::now();
        let before = self.tracked.len();
        let tracked = self.tracked.clone();
        let mut queries = 0u64;
        // The unsat core of the concrete query (the caller's last check) names the variables
        // that can matter: the search runs over those (tracking all of them is enough).
        let bs = enc.tracked.clone().unwrap_or_default();
        let universe: BTreeSet<usize> = match core {
            Some(core) => (0..self.abstracted_vars())
                .filter(|v| tracked.contains(v) || core.contains(&bs[*v]))
                .collect(),
            None => (0..self.abstracted_vars()).collect(),
        };
        let found = hierarchical(&tracked, &BTreeSet::new(), &universe, &mut |t| {
            queries += 1;
            let mut a = base.to_vec();
            a.extend(self.psi_of(enc, t));
            match self.q.check(&a, &format!("bound {r}"), "refinement") {
                CheckResult::Unsat => Ok(true),
                CheckResult::Sat => Ok(false),
                CheckResult::Unknown(why) => Err(self.q.no_answer(why)),
            }
        })?;
        self.tracked = found;
        Stats::add(&mut self.stats.refinements, 1);
        Stats::add(&mut self.stats.refinement_queries, queries);
        Stats::add(
            &mut self.stats.refinement_ms,
            t0.elapsed().as_millis() as u64,
        );
        self.stats.variables_tracked = Some(self.tracked.len() as u64);
        self.q.progress(&format!(
            "bound {r}: refinement tracks {} more global(s) ({queries} queries)",
            self.tracked.len() - before
        ));
        Ok(())
    }

    /// Is one of `goals` reachable with `blocks` assumed? `Err`: no answer.
    fn sat_with(
        &mut self,
        goals: &[TermId],
        blocks: &[TermId],
        what: &str,
        r: u32,
    ) -> Result<bool, String> {
        let goal = self.q.s.or_all(goals);
        if goal == self.q.s.ff() {
            return Ok(false);
        }
        let mut assumptions = vec![goal];
        assumptions.extend_from_slice(blocks);
        match self.q.check(&assumptions, &format!("bound {r}"), what) {
            CheckResult::Sat => Ok(true),
            CheckResult::Unsat => Ok(false),
            CheckResult::Unknown(why) => Err(self.q.no_answer(why)),
        }
    }

    /// For each open call without a block literal yet: the literal (`block ⇒ ¬guard` is
    /// asserted, so a query that assumes it blocks the call), and its callee's proven
    /// summary, asserted.
    fn add_block_literals(&mut self, enc: &Encoding, block: &mut Vec<TermId>) {
        for i in block.len()..enc.opens.len() {
            let b = self.q.s.symbol(&format!("block!{i}"), Sort::Bool);
            let not = self.q.s.not(enc.opens[i].guard);
            let imp = self.q.s.implies(b, not);
            self.q.solver.assert(&self.q.s, imp);
            block.push(b);
            for c in self
                .summaries
                .constraints(self.p, &mut self.q.s, &enc.opens[i])
            {
                self.q.solver.assert(&self.q.s, c);
            }
        }
    }

    /// Query type 1 (every open call blocked): `Ok(true)` when it found a replayed violation.
    fn type1(
        &mut self,
        enc: &Encoding,
        open: &[usize],
        block: &[TermId],
        r: u32,
    ) -> Result<bool, String> {
        loop {
            let goals = self.q.open_hits(enc, true);
            let goal = self.q.s.or_all(&goals);
            if goal == self.q.s.ff() {
                return Ok(false);
            }
            let mut assumptions = vec![goal];
            assumptions.extend(open.iter().map(|&i| block[i]));
            if enc.uses_havoc_memory {
                assumptions.push(enc.align);
            }
            let abstracted = self.with_psi(enc, &assumptions, false);
            match self.q.check(
                &abstracted,
                &format!("bound {r}"),
                "property violation with open calls blocked",
            ) {
                CheckResult::Unsat => return Ok(false),
                CheckResult::Unknown(why) => return Err(self.q.no_answer(why)),
                CheckResult::Sat => {}
            }
            if enc.tracked.is_some() && self.tracked.len() < self.abstracted_vars() {
                // Concretize: the same query with every global tracked.
                let concrete = self.with_psi(enc, &assumptions, true);
                match self.q.check(
                    &concrete,
                    &format!("bound {r}"),
                    "the same, every global tracked",
                ) {
                    CheckResult::Unsat => {
                        let core = self.q.solver.unsat_core();
                        self.refine(enc, &assumptions, core, r)?;
                        continue;
                    }
                    CheckResult::Unknown(why) => return Err(self.q.no_answer(why)),
                    CheckResult::Sat => {}
                }
                assumptions = concrete;
            } else {
                assumptions = abstracted;
            }
            let hit = enc
                .errors
                .iter()
                .find(|h| {
                    self.q.is_property(h.assertion)
                        && !self.q.found.done.contains(&h.assertion)
                        && self.q.value(h.guard) == Some(1)
                })
                .map(|h| h.assertion);
            let hit = hit.ok_or_else(|| self.model_error("the model reaches no assertion"))?;
            if self
                .q
                .replay_hit(enc, hit, &assumptions, &format!("bound {r}"))?
            {
                return Ok(true);
            }
        }
    }

    /// Query type 2 found nothing: safe for every bound unless a blocked call or a path cut
    /// by the loop bound is reachable in the over-approximation.
    fn settle(&mut self, enc: &Encoding, blocked: &[usize], r: u32) -> Result<Round, String> {
        let mut frontier: Vec<TermId> = blocked.iter().map(|&i| enc.opens[i].guard).collect();
        frontier.extend(enc.cuts.iter().map(|c| c.guard));
        let any = self.q.s.or_all(&frontier);
        if any == self.q.s.ff() {
            return Ok(Round::Proof);
        }
        // Reached concretely (every global tracked): the abstraction only over-approximates.
        let assumptions = self.with_psi(enc, &[any], true);
        match self
            .q
            .check(&assumptions, &format!("bound {r}"), "bound reached")
        {
            CheckResult::Unsat => Ok(Round::Proof),
            CheckResult::Unknown(why) => Err(self.q.no_answer(why)),
            CheckResult::Sat => {
                if let Some(c) = enc.cuts.iter().find(|c| self.q.value(c.guard) == Some(1)) {
                    return Ok(Round::Open(self.describe_cut(c.reason)));
                }
                let f = blocked
                    .iter()
                    .find(|&&i| self.q.value(enc.opens[i].guard) == Some(1))
                    .map(|&i| self.p.function(enc.opens[i].callee).name.clone())
                    .unwrap_or_default();
                Ok(Round::Open(format!(
                    "recursion of {f} not fully explored at bound {r}"
                )))
            }
        }
    }

    fn describe_cut(&self, c: CutReason) -> String {
        match c {
            CutReason::Loop { func, bound, .. } => format!(
                "a loop of {} not fully unwound at bound {bound}",
                self.p.function(func).name
            ),
            CutReason::Recursion { func, bound } => format!(
                "recursion of {} not fully unwound at bound {bound}",
                self.p.function(func).name
            ),
            CutReason::OutOfObjects => format!(
                "unsupported: more allocations than the memory layout has object numbers ({})",
                self.q.mm.max_objects
            ),
            CutReason::AllocTooLarge { .. } => format!(
                "unsupported: an allocation larger than the memory layout allows ({} bytes)",
                self.q.mm.max_object_size
            ),
        }
    }

    fn final_stats(&mut self) -> Stats {
        let mut stats = std::mem::take(&mut self.stats);
        stats.terms = Some(self.q.s.len() as u64);
        stats.solver_time_ms = Some(self.q.solver_ms);
        stats.solver_calls = Some(self.q.solver_calls);
        stats
    }

    fn answer(mut self, reason: Option<String>) -> EngineResult {
        let stats = self.final_stats();
        self.q.solver.drop_in_background();
        self.q.found.stopped(self.p, reason, stats)
    }

    fn proven(mut self) -> EngineResult {
        let stats = self.final_stats();
        self.q.solver.drop_in_background();
        self.q.found.proven(self.p, stats)
    }

    fn unknown(mut self, reason: String) -> EngineResult {
        let stats = self.final_stats();
        self.q.solver.drop_in_background();
        self.q.found.unknown(self.p, reason, stats)
    }

    /// No answer at bound `r`: why, and what the previous bound left open.
    fn give_up(self, why: String, r: u32, last: &str) -> EngineResult {
        let reason = if last.is_empty() {
            format!("{why} at bound {r}")
        } else {
            format!("{why} at bound {r}; before: {last}")
        };
        self.unknown(reason)
    }
}

/// The dynamic call sites static inlining of the program from its entry makes (`None` when
/// the call graph is recursive: then it depends on the bound).
pub(crate) fn static_inlining_calls(p: &Program) -> Option<u64> {
    fn count(
        p: &Program,
        f: FuncId,
        memo: &mut HashMap<FuncId, Option<u64>>,
        active: &mut Vec<FuncId>,
    ) -> Option<u64> {
        if let Some(&c) = memo.get(&f) {
            return c;
        }
        if active.contains(&f) {
            return None;
        }
        active.push(f);
        let mut total: Option<u64> = Some(0);
        for e in &p.function(f).edges {
            if let Op::Call { callee, .. } = &e.op {
                total = match (total, count(p, *callee, memo, active)) {
                    (Some(t), Some(c)) => Some(t.saturating_add(c).saturating_add(1)),
                    _ => None,
                };
            }
        }
        active.pop();
        memo.insert(f, total);
        total
    }
    count(p, p.entry, &mut HashMap::new(), &mut Vec::new())
}
