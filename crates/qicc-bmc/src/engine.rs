//! The deepening loop and the queries of one verification run.
//!
//! Per bound K: symbolic execution (`symex`), then
//! 1. "some property assertion is reachable" — on SAT, the model is replayed (`replay`);
//!    a replayed violation is the answer (or, with `all_violations`, is blocked and the
//!    query repeated);
//! 2. "some path is cut by the bound" — UNSAT means the unwinding is complete, so the
//!    answer is final: undefined-behaviour checks are then queried one by one, and the
//!    verdict is TRUE only if none is reachable;
//! 3. otherwise the next bound.
//!
//! The term store and the solver live for the whole run: a deeper unwinding rebuilds the
//! same terms for the shared prefix (hash-consing returns the existing ones, so nothing is
//! simplified twice) and the solver has translated them already.

use crate::BmcOptions;
use qicc_symex::replay::replay_model;
use qicc_symex::symex;
use qicc_symex::{Bounds, CutReason, Encoding, Findings, FnInfo, MemModel, SymexError};
use qicc_engine::{Budget, EngineResult, StopReason};
use qicc_ir::{AssertionId, FuncId, Program, Witness};
use qicc_smt::{
    catch_stop, CheckResult, InterruptHandle, Solver, TermId, TermStore, Z3Mode, Z3Solver,
};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

#[derive(Default)]
struct Stats {
    bound: u32,
    steps: u64,
    solver_ms: u128,
    solver_calls: u64,
}

pub(crate) struct Engine<'a> {
    p: &'a Program,
    opts: &'a BmcOptions,
    budget: &'a Budget,
    s: TermStore,
    solver: Z3Solver,
    mm: MemModel,
    info: Vec<FnInfo>,
    loop_overrides: HashMap<(FuncId, u32), u32>,
    /// Iteration hints per loop (see [`crate::hints`]); used from the second deepening step.
    hints: HashMap<(FuncId, u32), u32>,
    stats: Stats,
    dump: Option<std::fs::File>,
    queries: u64,
    found: Findings,
}

impl<'a> Engine<'a> {
    pub fn new(
        p: &'a Program,
        opts: &'a BmcOptions,
        budget: &'a Budget,
        slot: &Mutex<Option<InterruptHandle>>,
        stop: Arc<AtomicBool>,
    ) -> Result<Engine<'a>, String> {
        if let Err(errs) = qicc_ir::verify_program(p) {
            let first: Vec<&str> = errs.iter().take(3).map(String::as_str).collect();
            return Err(format!("ill-formed program: {}", first.join("; ")));
        }
        let info = FnInfo::of_program(p);
        let mut loop_overrides = HashMap::new();
        for (fname, head, bound) in &opts.loop_unwind {
            let fid = p
                .find_function(fname)
                .ok_or_else(|| format!("--unwindset: no function named {fname}"))?;
            let fi = &info[fid.index()];
            let l = fi
                .header_of(*head)
                .ok_or_else(|| format!("--unwindset: L{head} of {fname} is not a loop head"))?;
            loop_overrides.insert((fid, l), *bound);
        }
        let hints = if opts.unwind.is_none() {
            crate::hints::loop_hints(p, &info)
        } else {
            HashMap::new()
        };
        let mut s = TermStore::new();
        s.set_stop_flag(Some(stop));
        let mm = MemModel::new(p, &mut s).map_err(|e| e.to_string())?;
        let solver = Z3Solver::new(Z3Mode::FreshPerCheck);
        if let Ok(mut g) = slot.lock() {
            *g = Some(solver.interrupt_handle());
        }
        let dump = match &opts.dump_smt {
            Some(path) => Some(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Engine {
            p,
            opts,
            budget,
            s,
            solver,
            mm,
            info,
            hints,
            loop_overrides,
            stats: Stats::default(),
            dump,
            queries: 0,
            found: Findings::default(),
        })
    }

    fn progress(&self, msg: &str) {
        if let Some(f) = &self.opts.progress {
            f(msg);
        }
    }

    pub fn run(mut self) -> EngineResult {
        let bounds = match self.opts.unwind {
            Some(k) => vec![k],
            None => qicc_symex::schedule(self.opts.max_unwind),
        };
        let mut last_reason = String::new();
        for (step, &k) in bounds.iter().enumerate() {
            if let Some(r) = self.budget.exhausted() {
                return self.stopped(r.describe().to_string(), k, &last_reason);
            }
            self.progress(&format!("unwind {k}: symbolic execution…"));
            // The first step is plain (shallow bugs are cheapest there); later steps unwind
            // loops with a hint to it at once. User overrides always win.
            let mut loops = HashMap::new();
            if step > 0 {
                for (&key, &h) in &self.hints {
                    let h = h.min(self.opts.max_unwind);
                    if h > k {
                        loops.insert(key, h);
                    }
                }
            }
            loops.extend(self.loop_overrides.iter().map(|(a, b)| (*a, *b)));
            let b = Bounds { default: k, loops };
            let symex = catch_stop(|| {
                symex::run(self.p, &mut self.s, &self.info, &self.mm, &b, self.budget)
            });
            let enc = match symex.unwrap_or_else(|_| Err(SymexError::Stopped(self.stop_reason()))) {
                Ok(enc) => enc,
                Err(SymexError::Stopped(r)) => {
                    let why = format!("{} during symbolic execution", r.describe());
                    return self.stopped(why, k, &last_reason);
                }
                Err(e @ SymexError::Unsupported(_)) => return self.unknown_result(e.to_string()),
            };
            self.stats.bound = k;
            self.stats.steps = enc.steps;
            self.progress(&format!(
                "unwind {k}: {} steps, {} terms, solving…",
                enc.steps,
                self.s.len()
            ));
            let found = catch_stop(|| self.find_violations(&enc, k));
            if let Err(why) = found.unwrap_or_else(|_| Err(self.stop_reason().describe().into())) {
                return self.stopped(why, k, &last_reason);
            }
            if !self.found.violations.is_empty() && !self.opts.all_violations {
                return self.result(None);
            }
            let open = catch_stop(|| self.incompleteness(&enc, k));
            match open.unwrap_or_else(|_| Err(self.stop_reason().describe().into())) {
                Err(why) => return self.stopped(why, k, &last_reason),
                Ok(None) => return self.complete(&enc, k),
                Ok(Some(why)) => last_reason = why,
            }
        }
        if !self.found.violations.is_empty() {
            return self.result(Some(last_reason));
        }
        if last_reason.is_empty() {
            last_reason = "no bound was tried".into();
        }
        self.unknown_result(last_reason)
    }

    /// Why the term store was stopped (its flag is set only once the budget is exhausted).
    fn stop_reason(&self) -> StopReason {
        self.budget.exhausted().unwrap_or(StopReason::Timeout)
    }

    /// The answer when bound `k` could not be finished: why, and what the previous bound
    /// left open.
    fn stopped(self, why: String, k: u32, last_reason: &str) -> EngineResult {
        let reason = if self.budget.exhausted().is_some() || why.starts_with("solver") {
            if last_reason.is_empty() {
                format!("{why} at bound {k}")
            } else {
                format!("{why} at bound {k}; before: {last_reason}")
            }
        } else {
            why
        };
        self.unknown_result(reason)
    }

    /// Checks `assumptions` with the per-check and remaining time.
    fn check(&mut self, assumptions: &[TermId], what: &str, bound: u32) -> CheckResult {
        if let Some(r) = self.budget.exhausted() {
            return CheckResult::Unknown(r.describe().to_string());
        }
        let limit = match (self.opts.check_timeout, self.budget.remaining()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.solver
            .set_timeout(limit.map(|d| d.max(Duration::from_millis(1))));
        self.queries += 1;
        if let Some(f) = self.dump.as_mut() {
            let text = qicc_smt::smtlib::script(&self.s, assumptions);
            let _ = writeln!(f, "; query {} at bound {bound}: {what}", self.queries);
            let _ = f.write_all(text.as_bytes());
            let _ = writeln!(f, "(reset)");
        }
        let t0 = Instant::now();
        let r = self.solver.check(&self.s, assumptions);
        let ms = t0.elapsed().as_millis();
        self.stats.solver_ms += ms;
        self.stats.solver_calls += 1;
        self.progress(&format!("unwind {bound}: {what}: {r:?} in {ms} ms"));
        match (r, self.budget.exhausted()) {
            (CheckResult::Unknown(_), Some(stop)) => CheckResult::Unknown(stop.describe().into()),
            (r, _) => r,
        }
    }

    /// Why a check has no answer: the budget if it ran out, else the solver's reason.
    fn no_answer(&self, solver_reason: String) -> String {
        match self.budget.exhausted() {
            Some(r) => r.describe().to_string(),
            None => format!("solver gave no answer ({solver_reason})"),
        }
    }

    fn value(&mut self, t: TermId) -> Option<u64> {
        self.solver.value(&self.s, t).map(|v| v.as_u64())
    }

    fn is_property(&self, a: AssertionId) -> bool {
        self.p
            .assertions
            .get(a.index())
            .is_some_and(|x| x.kind.is_property())
    }

    /// The first not-yet-handled assertion among `hits` whose guard the model satisfies.
    fn model_hit(&mut self, enc: &Encoding, property: bool) -> Option<AssertionId> {
        for h in &enc.errors {
            if self.is_property(h.assertion) == property
                && !self.found.done.contains(&h.assertion)
                && self.value(h.guard) == Some(1)
            {
                return Some(h.assertion);
            }
        }
        None
    }

    /// Query 1: reachable property assertions; replays each model. `Err`: the solver gave
    /// no answer.
    fn find_violations(&mut self, enc: &Encoding, k: u32) -> Result<(), String> {
        loop {
            let guards: Vec<TermId> = enc
                .errors
                .iter()
                .filter(|h| self.is_property(h.assertion) && !self.found.done.contains(&h.assertion))
                .map(|h| h.guard)
                .collect();
            let reach = self.s.or_all(&guards);
            if reach == self.s.ff() {
                return Ok(());
            }
            let mut assumptions = vec![reach];
            if enc.uses_havoc_memory {
                assumptions.push(enc.align);
            }
            match self.check(&assumptions, "property assertion reachable", k) {
                CheckResult::Unknown(r) => return Err(self.no_answer(r)),
                CheckResult::Unsat if enc.uses_havoc_memory => {
                    match self.check(&[reach], "property assertion reachable (any memory)", k) {
                        CheckResult::Unsat => return Ok(()),
                        CheckResult::Unknown(r) => return Err(self.no_answer(r)),
                        CheckResult::Sat => {
                            let a = self
                                .model_hit(enc, true)
                                .ok_or("internal error: the model reaches no assertion")?;
                            self.found.done.insert(a);
                            self.found.unknown.insert(
                                a,
                                "reachable only from memory states after havoc_memory that \
                                 a replay cannot reproduce"
                                    .into(),
                            );
                        }
                    }
                }
                CheckResult::Unsat => return Ok(()),
                CheckResult::Sat => {
                    let hit = self
                        .model_hit(enc, true)
                        .ok_or("internal error: the model reaches no assertion")?;
                    let mut outcome = self.replay_model(enc);
                    if matches!(outcome, Ok((_, _, true))) {
                        // C leaves a run through a signed overflow undefined: ask for a
                        // counterexample without one (the driver rejects the first).
                        if let Some(clean) = self.clean_violation(enc, &assumptions, k)? {
                            outcome = Ok(clean);
                        }
                    }
                    match outcome {
                        Ok((a, w, _)) => {
                            self.progress(&format!("unwind {k}: violation of {a} replayed"));
                            self.found.done.insert(a);
                            self.found.done.insert(hit);
                            self.found.violations.push((a, w));
                            if !self.opts.all_violations {
                                return Ok(());
                            }
                        }
                        Err(why) => {
                            self.found.done.insert(hit);
                            self.found
                                .unknown
                                .insert(hit, format!("counterexample did not replay: {why}"));
                        }
                    }
                }
            }
        }
    }

    /// A replayed violation whose run has no signed overflow, if the encoding has one at this
    /// bound (`Err`: the solver gave no answer).
    fn clean_violation(
        &mut self,
        enc: &Encoding,
        assumptions: &[TermId],
        k: u32,
    ) -> Result<Option<(AssertionId, Witness, bool)>, String> {
        let mut hits = Vec::new();
        for h in &enc.errors {
            if self.is_property(h.assertion) && !self.found.done.contains(&h.assertion) {
                hits.push(self.s.and(h.guard, h.clean));
            }
        }
        let reach_clean = self.s.or_all(&hits);
        if reach_clean == self.s.ff() {
            return Ok(None);
        }
        let mut assumptions = assumptions.to_vec();
        assumptions.push(reach_clean);
        match self.check(
            &assumptions,
            "property assertion reachable without signed overflow",
            k,
        ) {
            CheckResult::Unknown(r) => Err(self.no_answer(r)),
            CheckResult::Unsat => Ok(None),
            CheckResult::Sat => Ok(self.replay_model(enc).ok().filter(|(_, _, o)| !o)),
        }
    }

    fn replay_model(&mut self, enc: &Encoding) -> Result<(AssertionId, Witness, bool), String> {
        replay_model(
            self.p,
            enc,
            &self.mm,
            &mut self.s,
            &mut self.solver,
            self.budget,
        )
    }

    /// Query 2: is some path cut by the bound? `Ok(None)`: the unwinding is complete.
    fn incompleteness(&mut self, enc: &Encoding, k: u32) -> Result<Option<String>, String> {
        let guards: Vec<TermId> = enc.cuts.iter().map(|c| c.guard).collect();
        let any = self.s.or_all(&guards);
        if any == self.s.ff() {
            return Ok(None);
        }
        // A cut every execution reaches needs no solver.
        if let Some(c) = enc.cuts.iter().find(|c| c.guard == self.s.tt()) {
            return Ok(Some(self.describe_cut(c.reason)));
        }
        match self.check(&[any], "unwinding incomplete", k) {
            CheckResult::Unsat => Ok(None),
            CheckResult::Unknown(r) => Err(self.no_answer(r)),
            CheckResult::Sat => {
                let mut reason = None;
                for c in &enc.cuts {
                    if self.value(c.guard) == Some(1) {
                        reason = Some(self.describe_cut(c.reason));
                        break;
                    }
                }
                Ok(Some(reason.unwrap_or_else(|| {
                    format!("the program is not fully unwound at bound {k}")
                })))
            }
        }
    }

    fn describe_cut(&self, c: CutReason) -> String {
        match c {
            CutReason::Loop {
                func,
                loop_id,
                bound,
            } => {
                let f = self.p.function(func);
                let l = &self.info[func.index()].loops()[loop_id as usize];
                format!(
                    "loop at {} ({}, head {}) not fully unwound at bound {bound}",
                    self.p.span_str(l.span),
                    f.name,
                    l.header
                )
            }
            CutReason::Recursion { func, bound } => format!(
                "recursion of {} not fully unwound at bound {bound}",
                self.p.function(func).name
            ),
            CutReason::OutOfObjects => format!(
                "unsupported: more allocations than the memory layout has object numbers ({})",
                self.mm.max_objects
            ),
            CutReason::AllocTooLarge { func, edge } => format!(
                "unsupported: allocation at {} larger than the memory layout allows ({} bytes)",
                self.p.span_str(self.p.function(func).edge(edge).span),
                self.mm.max_object_size
            ),
        }
    }

    /// The unwinding at bound `k` is complete: settle undefined behaviour and answer.
    fn complete(mut self, enc: &Encoding, k: u32) -> EngineResult {
        let mut ub_reached: Vec<AssertionId> = Vec::new();
        loop {
            let guards: Vec<TermId> = enc
                .errors
                .iter()
                .filter(|h| !self.is_property(h.assertion) && !self.found.done.contains(&h.assertion))
                .map(|h| h.guard)
                .collect();
            let any = self.s.or_all(&guards);
            if any == self.s.ff() {
                break;
            }
            match self.check(&[any], "undefined behaviour reachable", k) {
                CheckResult::Unsat => break,
                CheckResult::Unknown(r) => {
                    let why = self.no_answer(r);
                    return self.stopped(why, k, "");
                }
                CheckResult::Sat => match self.model_hit(enc, false) {
                    Some(a) => {
                        self.found.done.insert(a);
                        ub_reached.push(a);
                    }
                    None => {
                        return self.unknown_result(
                            "internal error: the model reaches no check".to_string(),
                        )
                    }
                },
            }
        }
        for a in ub_reached {
            self.found.ub_reachable(self.p, a);
        }
        // Complete: everything not violated and not listed as unknown is safe.
        self.stats.bound = k;
        let stats = self.stats();
        self.solver.drop_in_background();
        self.found.proven(self.p, stats)
    }

    fn stats(&self) -> qicc_engine::Stats {
        qicc_engine::Stats {
            bound: Some(self.stats.bound),
            symex_steps: Some(self.stats.steps),
            terms: Some(self.s.len() as u64),
            solver_time_ms: Some(self.stats.solver_ms as u64),
            solver_calls: Some(self.stats.solver_calls),
            ..Default::default()
        }
    }

    /// An answer with the violations found (if any) and `reason` for what is open.
    fn result(self, reason: Option<String>) -> EngineResult {
        let stats = self.stats();
        self.solver.drop_in_background();
        self.found.stopped(self.p, reason, stats)
    }

    fn unknown_result(self, reason: String) -> EngineResult {
        let stats = self.stats();
        self.solver.drop_in_background();
        self.found.unknown(self.p, reason, stats)
    }
}
