//! Confirmation of a counterexample on the original program: the interpreter's replay of
//! record, and the native replay (`crate::native`) beside it when a C compiler is present.
//!
//! Invariants (ARCHITECTURE.md, "Engines and verdicts"):
//! - The interpreter's replay is the replay of record whenever it finishes: its outcome (a
//!   property assertion reached without undefined behaviour) decides, and the native run is
//!   a second, independent confirmation. A *faithful* native run (it was fed exactly the
//!   witness's nondet values and the witness has no other kind of choice) that disagrees with
//!   a finished interpreter replay is an internal error ([`Confirmation::disagreement`]).
//! - Only when the interpreter could not finish (its step limit, its deadline, a witness it
//!   cannot follow) may the native run decide alone; a native reach is a real violation (the
//!   argument is in `crate::native`'s docs), so it confirms the FALSE.
//! - Every witness is confirmed at most once per verification ([`Confirmer::check`] keeps the
//!   answers): the portfolio asks while the engines run, the report asks again.

use crate::native::{Built, Native, NativeOutcome};
use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_interp::oracle::{AllocRequest, HavocBytesRequest, HavocRequest, Oracle, WitnessOracle};
use qicc_interp::{Outcome, Run, RunConfig};
use qicc_ir::{AssertKind, AssertionId, EdgeId, FuncId, HavocKind, Op, Program, UbKind, Witness};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Limits of the interpreter's replay when no compiler can take over.
const REPLAY_MAX_STEPS: u64 = 4_000_000_000;
const REPLAY_TIME: Duration = Duration::from_secs(180);
/// Limits of the interpreter's replay when the native run takes over after it: enough for
/// every shallow counterexample (about half a second), far short of a 2^28-iteration loop.
const REPLAY_STEPS_BEFORE_NATIVE: u64 = 5_000_000;
const REPLAY_TIME_BEFORE_NATIVE: Duration = Duration::from_secs(3);
/// The native run's time limit (compiled, a 2^28-iteration loop takes well under a second).
const NATIVE_TIME: Duration = Duration::from_secs(30);

/// The native replay of a witness.
#[derive(Clone, Debug)]
pub(crate) struct NativeCheck {
    pub outcome: NativeOutcome,
    /// The run was fed exactly the witness's nondet values in their order, and the witness
    /// made no other choice (no uninitialised value, no byte, no edge choice, no undefined
    /// function) and the run allocated nothing (addresses differ natively): the native run
    /// is the same execution as the interpreter's.
    pub faithful: bool,
    /// The property assertion the native run reached, when its call site names one.
    pub assertion: Option<AssertionId>,
}

/// What the replays of one witness found.
#[derive(Clone, Debug)]
pub(crate) struct Confirmation {
    /// The interpreter's run (cut short when it did not finish).
    pub run: Run,
    /// The interpreter's replay ended on its own (not at its step limit or deadline, nor on a
    /// witness it could not follow).
    pub finished: bool,
    pub native: Option<NativeCheck>,
}

impl Confirmation {
    /// The interpreter finished at a property assertion.
    fn interp_reached(&self, program: &Program) -> bool {
        matches!(self.run.outcome, Outcome::ErrorReached { assertion }
            if program.assertion(assertion).kind.is_property())
    }

    /// A faithful native run that says otherwise than the finished interpreter replay: the
    /// text of the internal error.
    pub fn disagreement(&self, program: &Program) -> Option<String> {
        let native = self.native.as_ref().filter(|n| n.faithful)?;
        // A signed overflow on the way is undefined in C: the sanitizer's trap agrees with it
        // (and the report answers by `--signed-overflow` alone).
        if !self.finished || self.run.signed_overflow.is_some() {
            return None;
        }
        let reached = self.interp_reached(program);
        // A violation of `no-overflow` is a signed overflow: natively, the sanitizers' trap.
        let overflow = matches!(self.run.outcome, Outcome::ErrorReached { assertion }
            if program.assertion(assertion).kind == AssertKind::Overflow);
        let native_reached = match &native.outcome {
            NativeOutcome::Reached { .. } => !overflow,
            NativeOutcome::Undefined(what) => overflow && what == crate::native::SANITIZER_TRAP,
            _ => false,
        };
        let decided = matches!(
            native.outcome,
            NativeOutcome::Reached { .. }
                | NativeOutcome::NotReached(_)
                | NativeOutcome::Undefined(_)
        );
        (decided && reached != native_reached).then(|| {
            format!(
                "the interpreter's replay {} ({}), the native replay {}",
                if reached {
                    "reaches the error"
                } else {
                    "does not reach the error"
                },
                self.run.outcome,
                native.outcome
            )
        })
    }

    /// The interpreter could not finish and the native run reached the error: the assertion
    /// it reached (its call site, or else `claimed`).
    pub fn native_only(&self, claimed: Option<AssertionId>) -> Option<AssertionId> {
        if self.finished {
            return None;
        }
        let n = self.native.as_ref()?;
        matches!(n.outcome, NativeOutcome::Reached { .. })
            .then(|| n.assertion.or(claimed))
            .flatten()
    }
}

/// Confirms witnesses of one program, once each.
pub(crate) struct Confirmer<'a> {
    program: &'a Program,
    sources: &'a [PathBuf],
    native: Option<Native>,
    /// The program compiled for the native replays, or why it cannot be: built once, by the
    /// first replay or ahead of it ([`Confirmer::prebuild`]); the lock is held while it
    /// builds, so a replay waits for a build under way instead of starting a second one.
    built: Mutex<Option<Result<Arc<Built>, String>>>,
    done: Mutex<Vec<(Witness, Arc<Confirmation>)>>,
}

impl<'a> Confirmer<'a> {
    pub fn new(program: &'a Program, sources: &'a [PathBuf], native: Option<Native>) -> Self {
        Confirmer {
            program,
            sources,
            native,
            built: Mutex::new(None),
            done: Mutex::new(Vec::new()),
        }
    }

    /// The program compiled for native replays (built now unless it was), or why not: a
    /// program the compiler rejects is not compiled again for each witness. A build that
    /// `budget` stopped is not kept: the next replay builds again.
    fn built(&self, native: &Native, budget: &Budget) -> Result<Arc<Built>, String> {
        let mut slot = self
            .built
            .lock()
            .map_err(|_| "the native build's lock is poisoned".to_string())?;
        if let Some(known) = slot.as_ref() {
            return known.clone();
        }
        let b = native
            .build(self.sources, self.program.data_model, budget)
            .map(Arc::new);
        if b.is_ok() || budget.exhausted().is_none() {
            *slot = Some(b.clone());
        }
        b
    }

    /// Compiles the program for the native replay ahead of any witness, within `budget`
    /// (the driver does it beside an external verifier's run on the user's files, whose
    /// counterexamples would otherwise wait for the compiler).
    pub fn prebuild(&self, budget: &Budget) {
        if let Some(native) = &self.native {
            let _ = self.built(native, budget);
        }
    }

    /// A native replay of `inputs` with the program built once.
    fn native_replay(&self, native: &Native, inputs: &[u64], budget: &Budget) -> NativeOutcome {
        match self.built(native, budget) {
            Ok(b) => b.run(inputs, NATIVE_TIME, budget),
            Err(why) => NativeOutcome::Unavailable(why),
        }
    }

    pub fn has_compiler(&self) -> bool {
        self.native.is_some()
    }

    /// The replays of `witness` (run once; later calls answer from memory).
    pub fn check(&self, witness: &Witness) -> Arc<Confirmation> {
        if let Some(c) = self.known(witness) {
            return c;
        }
        let c = Arc::new(self.replay(witness));
        if let Ok(mut done) = self.done.lock() {
            done.push((witness.clone(), Arc::clone(&c)));
        }
        c
    }

    fn known(&self, witness: &Witness) -> Option<Arc<Confirmation>> {
        let done = self.done.lock().ok()?;
        done.iter()
            .find(|(w, _)| w == witness)
            .map(|(_, c)| Arc::clone(c))
    }

    fn replay(&self, witness: &Witness) -> Confirmation {
        let (max_steps, time) = if self.native.is_some() {
            (REPLAY_STEPS_BEFORE_NATIVE, REPLAY_TIME_BEFORE_NATIVE)
        } else {
            (REPLAY_MAX_STEPS, REPLAY_TIME)
        };
        let mut oracle = Recording::new(witness);
        // Accelerated counterexamples expand to up to ~10^9 steps: no steps are kept (the
        // report's trace replays again, keeping its beginning and end).
        let run = qicc_interp::run(
            self.program,
            &mut oracle,
            &RunConfig {
                max_steps,
                record_trace: false,
                deadline: Some(Instant::now() + time),
                ..RunConfig::default()
            },
        );
        let finished = !matches!(run.outcome, Outcome::StepLimit | Outcome::Unreplayable(_));
        let native = self.native.as_ref().and_then(|native| {
            // A finished replay that did not reach an assertion: nothing to confirm (a
            // faithful native run could only repeat it).
            let interp_reached = matches!(run.outcome, Outcome::ErrorReached { .. });
            if finished && !interp_reached {
                return None;
            }
            let (inputs, complete) = oracle.nondet_inputs(self.program, witness);
            let faithful = complete
                && !run.read_uninit
                && witness.uninit.is_empty()
                && witness.havoc_bytes.is_empty()
                && witness.choices.is_empty()
                // Pointer values are the IR's object numbers, not the machine's addresses:
                // a run that allocates may compare or print them differently.
                && run.witness.alloc_ids.is_empty()
                // Nor a run that stops where its result would depend on the layout (or on
                // a dead object's address): the machine's layout decides it otherwise.
                && !stops_at_layout_check(self.program, &run.outcome);
            let outcome = self.native_replay(native, &inputs, &Budget::unlimited());
            let assertion = assertion_at(self.program, &outcome);
            Some(NativeCheck {
                outcome,
                faithful,
                assertion,
            })
        });
        Confirmation {
            run,
            finished,
            native,
        }
    }

    /// Records a native check made outside [`Confirmer::check`] (the run of a program
    /// without inputs), so the report does not run it again.
    fn remember(&self, witness: Witness, c: Confirmation) {
        if let Ok(mut done) = self.done.lock() {
            done.push((witness, Arc::new(c)));
        }
    }

    /// The portfolio member for a program without inputs (no nondet call, no undefined
    /// function, `main` without parameters): its one execution, natively. A reach is a
    /// violation with the empty witness; the interpreter then replays it as far as it can.
    pub fn deterministic_member(&self, budget: &Budget) -> EngineResult {
        let mut result = EngineResult::unknown(self.program, "not checked", Default::default());
        result.reason = None;
        let Some(native) = &self.native else {
            result.reason = Some("no C compiler".into());
            return result;
        };
        let outcome = self.native_replay(native, &[], budget);
        let Some(a) = assertion_at(self.program, &outcome).or_else(|| only_property(self.program))
        else {
            result.reason = Some(format!("native run: {outcome}"));
            return result;
        };
        if !matches!(outcome, NativeOutcome::Reached { .. }) {
            result.reason = Some(format!("native run: {outcome}"));
            return result;
        }
        // The check the portfolio and the report make: the interpreter as far as it gets,
        // and this run as the native one.
        let mut c = self.replay_interp_only(&Witness::default());
        // The one execution has undefined behaviour (or observes the layout) before the
        // error: the machine went on as it happened to, which is no verdict of C. Where the
        // replay cannot follow (it needs object numbers the empty witness lacks), a free run
        // of the interpreter, which makes the same choices the program makes, tells.
        let first = if c.finished {
            Some(c.run.outcome.clone())
        } else {
            self.free_run(budget)
        };
        if let Some(ub @ Outcome::ErrorReached { assertion }) = &first {
            if !self.program.assertion(*assertion).kind.is_property() {
                result.reason = Some(format!(
                    "native run: {outcome}, but the interpreter's run first {ub}"
                ));
                return result;
            }
        }
        for (id, s) in result.statuses.iter_mut() {
            if *id == a {
                *s = AssertionStatus::Violated;
            }
        }
        c.native = Some(NativeCheck {
            outcome,
            faithful: true,
            assertion: Some(a),
        });
        self.remember(Witness::default(), c);
        result.violation = Some((a, Witness::default()));
        result
    }

    /// The interpreter's own run of a program without inputs (allocations take the lowest
    /// fresh numbers), if it ends within the replay's limits.
    fn free_run(&self, budget: &Budget) -> Option<Outcome> {
        let mut oracle = qicc_interp::RandomOracle::new(0);
        let run = qicc_interp::run(
            self.program,
            &mut oracle,
            &RunConfig {
                max_steps: REPLAY_STEPS_BEFORE_NATIVE,
                record_trace: false,
                deadline: Some(Instant::now() + REPLAY_TIME_BEFORE_NATIVE),
                stop: Some(qicc_interp::StopCheck::new(budget.stop_fn())),
                ..RunConfig::default()
            },
        );
        (!matches!(run.outcome, Outcome::StepLimit | Outcome::Unreplayable(_)))
            .then_some(run.outcome)
    }

    fn replay_interp_only(&self, witness: &Witness) -> Confirmation {
        let run = qicc_interp::replay(
            self.program,
            witness,
            &RunConfig {
                max_steps: REPLAY_STEPS_BEFORE_NATIVE,
                record_trace: false,
                deadline: Some(Instant::now() + REPLAY_TIME_BEFORE_NATIVE),
                ..RunConfig::default()
            },
        );
        let finished = !matches!(run.outcome, Outcome::StepLimit | Outcome::Unreplayable(_));
        Confirmation {
            run,
            finished,
            native: None,
        }
    }
}

/// The run ends at a check of `lower::layout` (`address-observed`, `invalid-pointer-use`):
/// where the machine's layout, not the IR's, decides what happens next.
fn stops_at_layout_check(program: &Program, outcome: &Outcome) -> bool {
    matches!(outcome, Outcome::ErrorReached { assertion }
    if matches!(
        program.assertion(*assertion).kind,
        AssertKind::Ub(UbKind::AddressObserved | UbKind::InvalidPointerUse)
    ))
}

/// Whether the program has no input: its one execution is the empty witness's, up to the
/// sign and payload of a NaN it computes (the platform's choice, which a native run makes
/// as the platform does and the replay that confirms its violation checks).
pub(crate) fn without_inputs(program: &Program) -> bool {
    let entry = program.function(program.entry);
    entry.params.is_empty()
        && program.functions.iter().all(|f| {
            f.edges.iter().all(|e| match &e.op {
                Op::Havoc(_, HavocKind::Platform(n)) => n == qicc_ir::COMPUTED_NAN,
                Op::Havoc(
                    _,
                    HavocKind::Nondet(_)
                    | HavocKind::Region
                    | HavocKind::Applied { .. }
                    | HavocKind::Extern(_),
                )
                | Op::HavocMemory => false,
                _ => true,
            })
        })
}

/// The program's one property assertion, if it has exactly one.
fn only_property(program: &Program) -> Option<AssertionId> {
    let mut props = program
        .assertion_ids()
        .filter(|a| program.assertion(*a).kind.is_property());
    let first = props.next()?;
    props.next().is_none().then_some(first)
}

/// The property assertion whose call site a native reach names: the first of the reported
/// lines (the error call's, then its caller's) at which exactly one property assertion sits.
fn assertion_at(program: &Program, outcome: &NativeOutcome) -> Option<AssertionId> {
    let NativeOutcome::Reached { sites, .. } = outcome else {
        return None;
    };
    sites.iter().find_map(|(file, line)| {
        let base = Path::new(file).file_name()?;
        let mut at = program.assertion_ids().filter(|a| {
            let asr = program.assertion(*a);
            let span = asr.span;
            asr.kind.is_property()
                && span.line == *line
                && program
                    .files
                    .get(span.file as usize)
                    .and_then(|f| Path::new(f).file_name())
                    == Some(base)
        });
        let first = at.next()?;
        at.next().is_none().then_some(first)
    })
}

/// The witness oracle, recording which havocs were nondet calls: the native runtime answers
/// only those, in the same order.
struct Recording {
    inner: WitnessOracle,
    /// Per havoc answered: its value when it was a nondet call.
    answered: Vec<Option<u64>>,
}

impl Recording {
    fn new(witness: &Witness) -> Self {
        Recording {
            inner: WitnessOracle::new(witness),
            answered: Vec::new(),
        }
    }

    /// The nondet values in the order the program asks for them, and whether that is all
    /// of them: the answered ones, then the witness's unused rest when every havoc edge of
    /// the program is a nondet call (else the rest cannot be told apart, and is left out).
    fn nondet_inputs(&self, program: &Program, witness: &Witness) -> (Vec<u64>, bool) {
        let mut inputs: Vec<u64> = self.answered.iter().flatten().copied().collect();
        let all_nondet = self.answered.iter().all(Option::is_some);
        let rest = witness.havocs.get(self.answered.len()..).unwrap_or(&[]);
        if rest.is_empty() {
            return (inputs, all_nondet);
        }
        let only_nondet_sites = program.functions.iter().all(|f| {
            f.edges.iter().all(|e| match &e.op {
                Op::Havoc(_, kind) => matches!(kind, HavocKind::Nondet(_)),
                _ => true,
            })
        });
        if only_nondet_sites {
            inputs.extend_from_slice(rest);
            (inputs, all_nondet)
        } else {
            (inputs, false)
        }
    }
}

impl Oracle for Recording {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        let v = self.inner.havoc(req);
        let nondet = matches!(req.kind, HavocKind::Nondet(_)) && req.site.is_some();
        self.answered.push(nondet.then_some(v));
        v
    }
    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.inner.uninit_byte(addr)
    }
    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        self.inner.havoc_bytes(req)
    }
    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        self.inner.alloc_id(req)
    }
    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        self.inner.choose(func, enabled)
    }
    fn failure(&mut self) -> Option<String> {
        self.inner.failure()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, LoadOptions};

    /// A faithful native run that does not reach what the finished interpreter replay
    /// reaches is a disagreement (an internal error in the report); an unfaithful one, or a
    /// native run that could not decide, is not.
    #[test]
    fn a_faithful_native_run_against_a_finished_replay_is_a_disagreement() {
        let dir = std::env::temp_dir().join(format!("qicc-confirm-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        let path = dir.join("t.c");
        std::fs::write(
            &path,
            "extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) { if (__VERIFIER_nondet_int() == 5) reach_error(); return 0; }
",
        )
        .expect("the program is written");
        let l =
            load(std::slice::from_ref(&path), &LoadOptions::default()).expect("the program lowers");
        let w = Witness {
            havocs: vec![5],
            ..Default::default()
        };
        let run = qicc_interp::replay(&l.program, &w, &RunConfig::default());
        assert!(matches!(run.outcome, Outcome::ErrorReached { .. }));
        let mut c = Confirmation {
            run,
            finished: true,
            native: Some(NativeCheck {
                outcome: NativeOutcome::NotReached("exit status 0".into()),
                faithful: true,
                assertion: None,
            }),
        };
        let why = c.disagreement(&l.program).expect("a disagreement");
        assert!(why.contains("exit status 0"), "{why}");
        if let Some(n) = c.native.as_mut() {
            n.faithful = false;
        }
        assert_eq!(c.disagreement(&l.program), None);
        c.native = Some(NativeCheck {
            outcome: NativeOutcome::Timeout,
            faithful: true,
            assertion: None,
        });
        assert_eq!(c.disagreement(&l.program), None);
        // The real native run agrees.
        let confirmer = Confirmer::new(&l.program, &l.sources, Native::find(false));
        let real = confirmer.check(&w);
        assert!(real.native.as_ref().is_some_and(|n| n.faithful));
        assert_eq!(real.disagreement(&l.program), None);
        assert_eq!(real.native_only(None), None, "the interpreter finished");
    }
}
