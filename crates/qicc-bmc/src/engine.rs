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
use qicc_engine::{Budget, EngineResult, StopReason};
use qicc_ir::{AssertionId, FuncId, Program};
use qicc_smt::{catch_stop, CheckMode, CheckResult, InterruptHandle, TermId};
use qicc_symex::symex;
use qicc_symex::{Bounds, CutReason, Encoding, FnInfo, Solving, SolvingOptions, SymexError};
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

#[derive(Default)]
struct Stats {
    bound: u32,
    steps: u64,
}

pub(crate) struct Engine<'a> {
    p: &'a Program,
    opts: &'a BmcOptions,
    budget: &'a Budget,
    q: Solving<'a>,
    info: Vec<FnInfo>,
    loop_overrides: HashMap<(FuncId, u32), u32>,
    /// Iteration hints per loop (see [`crate::hints`]); used from the second deepening step.
    hints: HashMap<(FuncId, u32), u32>,
    stats: Stats,
}

impl<'a> Engine<'a> {
    pub fn new(
        p: &'a Program,
        opts: &'a BmcOptions,
        budget: &'a Budget,
        slot: &Mutex<Option<InterruptHandle>>,
        stop: Arc<AtomicBool>,
    ) -> Result<Engine<'a>, String> {
        let q = Solving::new(
            p,
            budget,
            SolvingOptions {
                mode: CheckMode::FreshPerCheck,
                check_timeout: opts.check_timeout,
                progress: opts.progress.as_ref(),
                dump: opts.dump_smt.as_deref(),
            },
            slot,
            stop,
        )?;
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
        Ok(Engine {
            p,
            opts,
            budget,
            q,
            info,
            hints,
            loop_overrides,
            stats: Stats::default(),
        })
    }

    pub fn run(mut self) -> EngineResult {
        let bounds = match self.opts.unwind {
            Some(k) => vec![k],
            None => qicc_symex::schedule(self.opts.max_unwind),
        };
        let mut last_reason = String::new();
        // Loops kept at the last bound that fitted the term limit while the others deepen
        // (the limit names the loop it was reached in), and why, for the reason.
        let mut kept: HashMap<(FuncId, u32), u32> = HashMap::new();
        let mut kept_why: Vec<String> = Vec::new();
        let mut previous: Option<Bounds> = None;
        let mut step = 0;
        while let Some(&k) = bounds.get(step) {
            if let Some(r) = self.budget.exhausted() {
                return self.stopped(r.describe().to_string(), k, &last_reason);
            }
            self.q.progress(&format!("unwind {k}: symbolic execution…"));
            // The first step is plain (shallow bugs are cheapest there); later steps unwind
            // loops with a hint to it at once. User overrides always win.
            let mut loops = HashMap::new();
            if step > 0 {
                // A hint beyond the largest bound comes from an interval as wide as the
                // counter's type, not from the loop: unwinding to the limit at once would
                // be a blind and costly gamble, so such a loop deepens like any other.
                for (&key, &h) in &self.hints {
                    if h > k && h <= self.opts.max_unwind {
                        loops.insert(key, h);
                    }
                }
            }
            loops.extend(kept.iter().map(|(a, b)| (*a, *b)));
            loops.extend(self.loop_overrides.iter().map(|(a, b)| (*a, *b)));
            let b = Bounds { default: k, loops };
            let mark = self.q.s.mark();
            let symex = catch_stop(|| {
                symex::run(
                    self.p,
                    &mut self.q.s,
                    &self.info,
                    &self.q.mm,
                    &b,
                    self.budget,
                )
            });
            let enc = match symex.unwrap_or_else(|_| Err(SymexError::Stopped(self.stop_reason()))) {
                Ok(enc) => enc,
                Err(SymexError::Stopped(r)) => {
                    let why = format!("{} during symbolic execution", r.describe());
                    return self.stopped(why, k, &last_reason);
                }
                Err(e @ SymexError::Unsupported(_)) => return self.unknown_result(e.to_string()),
                // Says the bound; what the bound before it left open follows.
                Err(SymexError::TooLarge { why, at }) => {
                    // Deepening: the loop it was reached in, and the loops around it (whose
                    // bounds multiply its unwinding), stay at the bounds that fitted, and this
                    // bound is tried again for the others. Its terms are given back first
                    // (none was solved: symbolic execution does not solve).
                    let mut fitted = Vec::new();
                    if let (Some((fid, chain)), Some(prev)) = (&at, &previous) {
                        for &l in chain {
                            let key = (*fid, l);
                            let fit = prev.loop_bound(key.0, key.1);
                            let user = self.loop_overrides.contains_key(&key);
                            if !user && fit < b.loop_bound(key.0, key.1) {
                                fitted.push((key, fit));
                            }
                        }
                    }
                    if !fitted.is_empty() {
                        self.q.s.truncate(mark);
                        kept.extend(fitted.iter().copied());
                        let fit = fitted.iter().map(|(_, f)| *f).max().unwrap_or(0);
                        let note =
                            format!("{why}: that loop and those around it stay at bound {fit}");
                        self.q.progress(&format!("{note}, the others deepen"));
                        kept_why.push(note);
                        continue;
                    }
                    return self.unknown_result(if last_reason.is_empty() {
                        why
                    } else {
                        format!("{why}; before: {last_reason}")
                    });
                }
            };
            previous = Some(b);
            step += 1;
            self.stats.bound = k;
            self.stats.steps = enc.steps;
            self.q.progress(&format!(
                "unwind {k}: {} steps, {} terms, solving…",
                enc.steps,
                self.q.s.len()
            ));
            let found = catch_stop(|| self.find_violations(&enc, k));
            if let Err(why) = found.unwrap_or_else(|_| Err(self.stop_reason().describe().into())) {
                return self.stopped(why, k, &last_reason);
            }
            if !self.q.found.violations.is_empty() && !self.opts.all_violations {
                return self.result(None);
            }
            let open = catch_stop(|| self.incompleteness(&enc, k));
            match open.unwrap_or_else(|_| Err(self.stop_reason().describe().into())) {
                Err(why) => return self.stopped(why, k, &last_reason),
                Ok(None) => return self.complete(&enc, k, None),
                Ok(Some(why)) if self.opts.bounded && self.opts.unwind == Some(k) => {
                    let all = catch_stop(|| self.feasible_cuts(&enc, k, why.clone()));
                    return self.complete(&enc, k, Some(all.unwrap_or(why)));
                }
                Ok(Some(why)) if kept_why.is_empty() => last_reason = why,
                Ok(Some(why)) => last_reason = format!("{why}; {}", kept_why.join("; ")),
            }
        }
        if !self.q.found.violations.is_empty() {
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

    /// Query 1: reachable property assertions; replays each model. `Err`: the solver gave
    /// no answer.
    fn find_violations(&mut self, enc: &Encoding, k: u32) -> Result<(), String> {
        loop {
            let guards: Vec<TermId> = enc
                .errors
                .iter()
                .filter(|h| {
                    self.q.is_property(h.assertion) && !self.q.found.done.contains(&h.assertion)
                })
                .map(|h| h.guard)
                .collect();
            let reach = self.q.s.or_all(&guards);
            if reach == self.q.s.ff() {
                return Ok(());
            }
            let mut assumptions = vec![reach];
            if enc.uses_havoc_memory {
                assumptions.push(enc.align);
            }
            match self.q.check(
                &assumptions,
                &format!("unwind {k}"),
                "property assertion reachable",
            ) {
                CheckResult::Unknown(r) => return Err(self.q.no_answer(r)),
                CheckResult::Unsat if enc.uses_havoc_memory => {
                    match self.q.check(
                        &[reach],
                        &format!("unwind {k}"),
                        "property assertion reachable (any memory)",
                    ) {
                        CheckResult::Unsat => return Ok(()),
                        CheckResult::Unknown(r) => return Err(self.q.no_answer(r)),
                        CheckResult::Sat => {
                            let a = self.q.model_hit(enc, true)?;
                            self.q.found.done.insert(a);
                            self.q.found.unknown.insert(
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
                    let hit = self.q.model_hit(enc, true)?;
                    let stage = format!("unwind {k}");
                    if self.q.replay_hit(enc, hit, &assumptions, &stage)?
                        && !self.opts.all_violations
                    {
                        return Ok(());
                    }
                }
            }
        }
    }

    /// Query 2: is some path cut by the bound? `Ok(None)`: the unwinding is complete.
    fn incompleteness(&mut self, enc: &Encoding, k: u32) -> Result<Option<String>, String> {
        let guards: Vec<TermId> = enc.cuts.iter().map(|c| c.guard).collect();
        let any = self.q.s.or_all(&guards);
        if any == self.q.s.ff() {
            return Ok(None);
        }
        // A cut every execution reaches needs no solver.
        if let Some(c) = enc.cuts.iter().find(|c| c.guard == self.q.s.tt()) {
            return Ok(Some(self.describe_cut(c.reason)));
        }
        match self
            .q
            .check(&[any], &format!("unwind {k}"), "unwinding incomplete")
        {
            CheckResult::Unsat => Ok(None),
            CheckResult::Unknown(r) => Err(self.q.no_answer(r)),
            CheckResult::Sat => {
                let mut reason = None;
                for c in &enc.cuts {
                    if self.q.value(c.guard) == Some(1) {
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

    /// Bounded mode: every loop and recursion whose cut some execution reaches (`first`
    /// is one), as a list; at most `MAX_CUT_QUERIES` more solver calls, then "…".
    fn feasible_cuts(&mut self, enc: &Encoding, k: u32, first: String) -> String {
        const MAX_CUT_QUERIES: usize = 8;
        let descs: Vec<String> = enc
            .cuts
            .iter()
            .map(|c| self.describe_cut(c.reason))
            .collect();
        let mut listed = vec![first];
        for _ in 0..MAX_CUT_QUERIES {
            let open: Vec<TermId> = enc
                .cuts
                .iter()
                .zip(&descs)
                .filter(|(_, d)| !listed.contains(d))
                .map(|(c, _)| c.guard)
                .collect();
            if open.is_empty() {
                return listed.join("; ");
            }
            let any = self.q.s.or_all(&open);
            match self.q.check(&[any], &format!("unwind {k}"), "further cuts") {
                CheckResult::Unsat => return listed.join("; "),
                CheckResult::Unknown(_) => break,
                CheckResult::Sat => {
                    let before = listed.len();
                    for (c, d) in enc.cuts.iter().zip(&descs) {
                        if !listed.contains(d) && self.q.value(c.guard) == Some(1) {
                            listed.push(d.clone());
                        }
                    }
                    if listed.len() == before {
                        break;
                    }
                }
            }
        }
        listed.push("…".into());
        listed.join("; ")
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
                self.q.mm.max_objects
            ),
            CutReason::AllocTooLarge { func, edge } => format!(
                "unsupported: allocation at {} larger than the memory layout allows ({} bytes)",
                self.p.span_str(self.p.function(func).edge(edge).span),
                self.q.mm.max_object_size
            ),
        }
    }

    /// The unwinding at bound `k` is complete (`cut`: `None`), or in bounded mode cut where
    /// `cut` says: settle undefined behaviour (within the bound) and answer.
    fn complete(mut self, enc: &Encoding, k: u32, cut: Option<String>) -> EngineResult {
        let mut ub_reached: Vec<AssertionId> = Vec::new();
        loop {
            let guards: Vec<TermId> = enc
                .errors
                .iter()
                .filter(|h| {
                    !self.q.is_property(h.assertion) && !self.q.found.done.contains(&h.assertion)
                })
                .map(|h| h.guard)
                .collect();
            let any = self.q.s.or_all(&guards);
            if any == self.q.s.ff() {
                break;
            }
            match self.q.check(
                &[any],
                &format!("unwind {k}"),
                "undefined behaviour reachable",
            ) {
                CheckResult::Unsat => break,
                CheckResult::Unknown(r) => {
                    let why = self.q.no_answer(r);
                    return self.stopped(why, k, "");
                }
                CheckResult::Sat => match self.q.model_hit(enc, false) {
                    Ok(a) => {
                        if self.q.found.ub_witness.is_none() {
                            // The trace the report shows: the model's run, when it replays
                            // to an undefined-behaviour check.
                            if let Ok((b, w, _)) = self.q.replay(enc) {
                                if !self.q.is_property(b) {
                                    self.q.found.ub_witness = Some((b, w));
                                }
                            }
                        }
                        self.q.found.done.insert(a);
                        ub_reached.push(a);
                    }
                    // The budget (named with the bound) or an internal error.
                    Err(why) => return self.stopped(why, k, ""),
                },
            }
        }
        for a in ub_reached {
            self.q.found.ub_reachable(self.p, a);
        }
        // Complete: everything not violated and not listed as unknown is safe (within the
        // bound, when it cut executions).
        self.stats.bound = k;
        let stats = self.stats();
        self.q.solver.drop_in_background();
        match cut {
            None => self.q.found.proven(self.p, stats),
            Some(why) => {
                let cuts = format!("no violation within bound {k}; cut: {why}");
                self.q.found.proven_within(self.p, k, cuts, stats)
            }
        }
    }

    fn stats(&self) -> qicc_engine::Stats {
        qicc_engine::Stats {
            bound: Some(self.stats.bound),
            symex_steps: Some(self.stats.steps),
            terms: Some(self.q.s.len() as u64),
            solver_time_ms: Some(self.q.solver_ms as u64),
            solver_calls: Some(self.q.solver_calls),
            ..Default::default()
        }
    }

    /// An answer with the violations found (if any) and `reason` for what is open.
    fn result(self, reason: Option<String>) -> EngineResult {
        let stats = self.stats();
        self.q.solver.drop_in_background();
        self.q.found.stopped(self.p, reason, stats)
    }

    fn unknown_result(self, reason: String) -> EngineResult {
        let stats = self.stats();
        self.q.solver.drop_in_background();
        self.q.found.unknown(self.p, reason, stats)
    }
}
