//! What every solver-based engine on this seam does the same way: checks with the per-check
//! and remaining time (an answer cut short by the budget names the budget), model values,
//! which error hit a model reaches, and turning a model into a replayed violation — asking
//! for one without signed overflow when the first one overflows — recorded in the engine's
//! [`Findings`].

use crate::findings::Findings;
use crate::memory::MemModel;
use crate::replay::replay_model;
use crate::symex::Encoding;
use crate::worker::SolverSlot;
use qicc_engine::Budget;
use qicc_ir::{AssertionId, Program, Witness};
use qicc_smt::{CheckMode, CheckResult, SmtSolver, Solver, TermId, TermStore};
use std::io::Write;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Receiver of progress lines.
pub type ProgressFn = Box<dyn Fn(&str) + Send + Sync>;

/// The term store, the solver and the findings of one engine run.
pub struct Solving<'a> {
    pub p: &'a Program,
    pub budget: &'a Budget,
    pub s: TermStore,
    pub solver: SmtSolver,
    pub mm: MemModel,
    pub found: Findings,
    /// Limit of each check (the budget's deadline applies as well).
    pub check_timeout: Option<Duration>,
    pub progress: Option<&'a ProgressFn>,
    /// Every query as SMT-LIB 2, when asked for.
    pub dump: Option<std::fs::File>,
    pub solver_ms: u64,
    pub solver_calls: u64,
}

/// The outcome of replaying a model: the violation, its witness, and whether the run
/// overflowed a signed integer on the way.
pub type Replayed = (AssertionId, Witness, bool);

/// How an engine wants its solver.
pub struct SolvingOptions<'a> {
    pub mode: CheckMode,
    pub check_timeout: Option<Duration>,
    pub progress: Option<&'a ProgressFn>,
    /// Write every query as SMT-LIB 2 to this file.
    pub dump: Option<&'a std::path::Path>,
}

impl<'a> Solving<'a> {
    /// Checks that `p` is well-formed, then makes the term store (stopped by `stop`), the
    /// memory model and the solver (registered in `slot` for the budget watcher).
    pub fn new(
        p: &'a Program,
        budget: &'a Budget,
        opts: SolvingOptions<'a>,
        slot: &SolverSlot,
        stop: Arc<AtomicBool>,
    ) -> Result<Solving<'a>, String> {
        if let Err(errs) = qicc_ir::verify_program(p) {
            let first: Vec<&str> = errs.iter().take(3).map(String::as_str).collect();
            return Err(format!("ill-formed program: {}", first.join("; ")));
        }
        let mut s = TermStore::new();
        s.set_stop_flag(Some(stop));
        let mm = MemModel::new(p, &mut s).map_err(|e| e.to_string())?;
        let solver = SmtSolver::new(opts.mode);
        if let Ok(mut g) = slot.lock() {
            *g = Some(solver.interrupt_handle());
        }
        let dump = match opts.dump {
            Some(path) => Some(
                std::fs::File::create(path)
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?,
            ),
            None => None,
        };
        Ok(Solving {
            p,
            budget,
            s,
            solver,
            mm,
            found: Findings::default(),
            check_timeout: opts.check_timeout,
            progress: opts.progress,
            dump,
            solver_ms: 0,
            solver_calls: 0,
        })
    }
}

impl Solving<'_> {
    pub fn progress(&self, msg: &str) {
        if let Some(f) = self.progress {
            f(msg);
        }
    }

    /// Checks `assumptions`; `stage` ("unwind 4", "bound 2") and `what` name it in progress
    /// lines and in the dump.
    pub fn check(&mut self, assumptions: &[TermId], stage: &str, what: &str) -> CheckResult {
        if let Some(r) = self.budget.exhausted() {
            return CheckResult::Unknown(r.describe().to_string());
        }
        let limit = match (self.check_timeout, self.budget.remaining()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.solver
            .set_timeout(limit.map(|d| d.max(Duration::from_millis(1))));
        self.solver_calls += 1;
        if let Some(f) = self.dump.as_mut() {
            let text = qicc_smt::smtlib::script(&self.s, assumptions);
            let _ = writeln!(f, "; query {} at {stage}: {what}", self.solver_calls);
            let _ = f.write_all(text.as_bytes());
            let _ = writeln!(f, "(reset)");
        }
        let t0 = Instant::now();
        let r = self.solver.check(&self.s, assumptions);
        let ms = t0.elapsed().as_millis() as u64;
        self.solver_ms += ms;
        self.progress(&format!("{stage}: {what}: {r:?} in {ms} ms"));
        match (r, self.budget.exhausted()) {
            (CheckResult::Unknown(_), Some(stop)) => CheckResult::Unknown(stop.describe().into()),
            (r, _) => r,
        }
    }

    /// Why a check has no answer: the budget if it ran out, else the solver's reason.
    pub fn no_answer(&self, solver_reason: String) -> String {
        match self.budget.exhausted() {
            Some(r) => r.describe().to_string(),
            None => format!("solver gave no answer ({solver_reason})"),
        }
    }

    /// The value of `t` in the last model (Bools as 0/1).
    pub fn value(&mut self, t: TermId) -> Option<u64> {
        self.solver.value(&self.s, t).map(|v| v.as_u64())
    }

    pub fn is_property(&self, a: AssertionId) -> bool {
        self.p
            .assertions
            .get(a.index())
            .is_some_and(|x| x.kind.is_property())
    }

    /// The guards of the error hits not settled yet: of property assertions only, or of
    /// every assertion.
    pub fn open_hits(&self, enc: &Encoding, properties_only: bool) -> Vec<TermId> {
        enc.errors
            .iter()
            .filter(|h| !self.found.done.contains(&h.assertion))
            .filter(|h| !properties_only || self.is_property(h.assertion))
            .map(|h| h.guard)
            .collect()
    }

    /// The first assertion not settled yet (a property one, or a UB check) whose hit the
    /// model reaches. `Err`: why none was found — the budget, when it ran out while the model
    /// was read (an interrupted solver evaluates nothing), else an internal error.
    pub fn model_hit(&mut self, enc: &Encoding, property: bool) -> Result<AssertionId, String> {
        for h in &enc.errors {
            if self.is_property(h.assertion) == property
                && !self.found.done.contains(&h.assertion)
                && self.value(h.guard) == Some(1)
            {
                return Ok(h.assertion);
            }
        }
        Err(match self.budget.exhausted() {
            Some(r) => r.describe().to_string(),
            None => format!(
                "internal error: the model reaches no {}",
                if property { "assertion" } else { "check" }
            ),
        })
    }

    /// The model reaches property assertion `hit` (under `assumptions`): replays it — and,
    /// when that run overflows a signed integer, a model without overflow if the encoding has
    /// one — and records the outcome. `Ok(true)`: a violation was recorded; `Ok(false)`: the
    /// model did not replay (`hit` is UNKNOWN with why); `Err`: the solver gave no answer.
    pub fn replay_hit(
        &mut self,
        enc: &Encoding,
        hit: AssertionId,
        assumptions: &[TermId],
        stage: &str,
    ) -> Result<bool, String> {
        let mut outcome = self.replay(enc);
        if matches!(outcome, Ok((_, _, true))) {
            // C leaves a run through a signed overflow undefined: ask for a counterexample
            // without one (the driver rejects the first).
            if let Some(clean) = self.clean_violation(enc, assumptions, stage)? {
                outcome = Ok(clean);
            }
        }
        // A property search's path ends at a property assertion; never record a check.
        let outcome = outcome.and_then(|(a, w, o)| {
            if self.is_property(a) {
                Ok((a, w, o))
            } else {
                Err(format!(
                    "the run reaches undefined-behaviour check {a} instead"
                ))
            }
        });
        match outcome {
            Ok((a, w, _)) => {
                self.progress(&format!("{stage}: violation of {a} replayed"));
                self.found.done.insert(a);
                self.found.done.insert(hit);
                self.found.violations.push((a, w));
                Ok(true)
            }
            Err(why) => {
                self.found.done.insert(hit);
                self.found
                    .unknown
                    .insert(hit, format!("counterexample did not replay: {why}"));
                Ok(false)
            }
        }
    }

    /// A replayed violation whose run has no signed overflow, if the encoding has one under
    /// `assumptions` (`Err`: the solver gave no answer).
    fn clean_violation(
        &mut self,
        enc: &Encoding,
        assumptions: &[TermId],
        stage: &str,
    ) -> Result<Option<Replayed>, String> {
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
            stage,
            "property assertion reachable without signed overflow",
        ) {
            CheckResult::Unknown(r) => Err(self.no_answer(r)),
            CheckResult::Unsat => Ok(None),
            CheckResult::Sat => Ok(self.replay(enc).ok().filter(|(_, _, o)| !o)),
        }
    }

    /// The replay of the current model.
    pub fn replay(&mut self, enc: &Encoding) -> Result<Replayed, String> {
        replay_model(
            self.p,
            enc,
            &self.mm,
            &mut self.s,
            &mut self.solver,
            self.budget,
        )
    }
}
