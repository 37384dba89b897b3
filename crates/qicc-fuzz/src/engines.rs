//! The engines and modes under test, run through the driver's library API exactly as
//! `qicc verify` runs them, and the comparison of a verdict with the ground truth.

use qicc_driver::{verify, Engine, Loaded, Verdict, VerifyOptions};
use qicc_engine::Budget;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One engine with one set of options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Mode {
    /// `--engine bmc`
    Bmc,
    /// `--engine qicc --jobs 1`
    QiccJ1,
    /// `--engine qicc --jobs 2`
    QiccJ2,
    /// `--engine qicc --jobs 1 --no-facts`
    QiccNoFacts,
    /// `--engine impulse`
    Impulse,
    /// `--engine corral`
    Corral,
    /// `--engine corral --abstraction --loops-as-procedures`
    CorralX,
    /// `--engine invariants`
    Invariants,
}

impl Mode {
    pub const ALL: [Mode; 8] = [
        Mode::Bmc,
        Mode::QiccJ1,
        Mode::QiccJ2,
        Mode::QiccNoFacts,
        Mode::Impulse,
        Mode::Corral,
        Mode::CorralX,
        Mode::Invariants,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Bmc => "bmc",
            Mode::QiccJ1 => "qicc-j1",
            Mode::QiccJ2 => "qicc-j2",
            Mode::QiccNoFacts => "qicc-nofacts",
            Mode::Impulse => "impulse",
            Mode::Corral => "corral",
            Mode::CorralX => "corral-x",
            Mode::Invariants => "invariants",
        }
    }

    /// The equivalent command line, for reports.
    pub fn command(self) -> &'static str {
        match self {
            Mode::Bmc => "qicc verify --nondet-functions --engine bmc",
            Mode::QiccJ1 => "qicc verify --nondet-functions --engine qicc --jobs 1",
            Mode::QiccJ2 => "qicc verify --nondet-functions --engine qicc --jobs 2",
            Mode::QiccNoFacts => "qicc verify --nondet-functions --engine qicc --jobs 1 --no-facts",
            Mode::Impulse => "qicc verify --nondet-functions --engine impulse",
            Mode::Corral => "qicc verify --nondet-functions --engine corral",
            Mode::CorralX => {
                "qicc verify --nondet-functions --engine corral --abstraction --loops-as-procedures"
            }
            Mode::Invariants => "qicc verify --nondet-functions --engine invariants",
        }
    }

    /// The options of this mode. Body-less functions (the `const`/`pure` calls `build` adds)
    /// are arbitrary, as the truth takes them (`--nondet-functions`): their results are
    /// enumerated like inputs, so a FALSE that chose them is a FALSE of the truth too.
    pub fn options(self) -> VerifyOptions {
        let mut o = VerifyOptions {
            nondet_functions: true,
            ..VerifyOptions::default()
        };
        match self {
            Mode::Bmc => o.engine = Engine::Bmc,
            Mode::QiccJ1 => o.jobs = Some(1),
            Mode::QiccJ2 => o.jobs = Some(2),
            Mode::QiccNoFacts => {
                o.jobs = Some(1);
                o.facts = false;
            }
            Mode::Impulse => o.engine = Engine::Impulse,
            Mode::Corral => o.engine = Engine::Corral,
            Mode::CorralX => {
                o.engine = Engine::Corral;
                o.abstraction = true;
                o.loops_as_procedures = true;
            }
            Mode::Invariants => o.engine = Engine::Invariants,
        }
        o
    }
}

/// What one engine run answered.
#[derive(Clone, Debug)]
pub struct ModeRun {
    pub verdict: Verdict,
    pub reason: String,
    pub elapsed: Duration,
    /// A panic, or an internal error the report admits to.
    pub internal: Option<String>,
    /// The engine did not stop within the grace period after its deadline (abandoned).
    pub abandoned: bool,
}

/// How long an engine may overrun its deadline before it is abandoned (as the CLI does).
const GRACE: Duration = Duration::from_millis(2500);

/// Runs `mode` on `loaded` with a wall-clock `timeout`, on a worker thread (a panic is
/// caught and reported as an internal error; an engine that overruns is abandoned).
pub fn run_mode(loaded: Arc<Loaded>, mode: Mode, timeout: Duration) -> ModeRun {
    let start = Instant::now();
    let budget = Budget::with_timeout(timeout);
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let budget = budget.clone();
        let opts = mode.options();
        let spawned = std::thread::Builder::new()
            .name(format!("fuzz-{}", mode.name()))
            .spawn(move || {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    verify(&loaded, &opts, &budget)
                }));
                let _ = tx.send(r.map_err(|p| {
                    p.downcast_ref::<String>()
                        .cloned()
                        .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic without message".into())
                }));
            });
        if let Err(e) = spawned {
            return ModeRun {
                verdict: Verdict::Unknown,
                reason: format!("cannot start a thread: {e}"),
                elapsed: start.elapsed(),
                internal: Some(format!("cannot start a thread: {e}")),
                abandoned: false,
            };
        }
    }
    match rx.recv_timeout(timeout + GRACE) {
        Ok(Ok(report)) => {
            let reason = report.reason.clone().unwrap_or_default();
            // Contradictory engine results (a proof and a replayed violation), or any other
            // internal error the report admits to.
            let internal = report
                .internal_error
                .as_ref()
                .map(|e| format!("internal error: {}", e.message))
                .or_else(|| {
                    (reason.contains("internal error") || reason.contains("panick"))
                        .then(|| reason.clone())
                });
            ModeRun {
                verdict: report.verdict,
                reason,
                elapsed: start.elapsed(),
                internal,
                abandoned: false,
            }
        }
        Ok(Err(panic)) => ModeRun {
            verdict: Verdict::Unknown,
            reason: format!("panic: {panic}"),
            elapsed: start.elapsed(),
            internal: Some(format!("panic: {panic}")),
            abandoned: false,
        },
        Err(_) => {
            budget.cancel.cancel();
            ModeRun {
                verdict: Verdict::Unknown,
                reason: "abandoned: the engine overran its deadline".into(),
                elapsed: start.elapsed(),
                internal: None,
                abandoned: true,
            }
        }
    }
}

/// A verdict judged against the ground truth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Judgement {
    Agrees,
    Unknown,
    /// TRUE, but some input violates an assertion or reaches undefined behaviour.
    WrongTrue,
    /// FALSE, but no input violates an assertion.
    WrongFalse,
    /// A panic or an admitted internal error.
    Internal(String),
}

impl Judgement {
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Judgement::WrongTrue | Judgement::WrongFalse | Judgement::Internal(_)
        )
    }
}

/// `truth_safe`: no input violates an assertion; `ub`: some input reaches undefined behaviour
/// (before any violation on its run).
pub fn judge(truth_safe: bool, ub: bool, run: &ModeRun) -> Judgement {
    if let Some(why) = &run.internal {
        return Judgement::Internal(why.clone());
    }
    match (run.verdict, truth_safe) {
        (Verdict::True, false) => Judgement::WrongTrue,
        (Verdict::True, true) if ub => Judgement::WrongTrue,
        (Verdict::False, true) => Judgement::WrongFalse,
        (Verdict::Unknown, _) => Judgement::Unknown,
        _ => Judgement::Agrees,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(v: Verdict) -> ModeRun {
        ModeRun {
            verdict: v,
            reason: String::new(),
            elapsed: Duration::ZERO,
            internal: None,
            abandoned: false,
        }
    }

    #[test]
    fn wrong_verdicts_are_flagged() {
        assert_eq!(
            judge(false, false, &run(Verdict::True)),
            Judgement::WrongTrue
        );
        assert_eq!(
            judge(true, false, &run(Verdict::False)),
            Judgement::WrongFalse
        );
        assert_eq!(judge(true, false, &run(Verdict::True)), Judgement::Agrees);
        assert_eq!(judge(false, false, &run(Verdict::False)), Judgement::Agrees);
        assert_eq!(
            judge(true, false, &run(Verdict::Unknown)),
            Judgement::Unknown
        );
        // Undefined behaviour on some input: no TRUE; a FALSE only through a violation.
        assert_eq!(judge(true, true, &run(Verdict::True)), Judgement::WrongTrue);
        assert_eq!(
            judge(true, true, &run(Verdict::False)),
            Judgement::WrongFalse
        );
        assert_eq!(judge(false, true, &run(Verdict::False)), Judgement::Agrees);
        assert_eq!(
            judge(true, true, &run(Verdict::Unknown)),
            Judgement::Unknown
        );
        let mut r = run(Verdict::Unknown);
        r.internal = Some("panic: boom".into());
        assert!(judge(true, false, &r).is_failure());
    }

    /// End to end: a real engine verdict on a real program, judged against a deliberately
    /// wrong truth, is a failure.
    #[test]
    fn a_wrong_truth_is_flagged_end_to_end() {
        let text = "extern void abort(void);\nvoid reach_error() {}\nvoid __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\nint main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= x && x <= 3); __VERIFIER_assert(x != 2); return 0; }\n";
        let loaded = Arc::new(crate::truth::lower(text, false).expect("lowers"));
        let t = crate::truth::exhaustive(
            &loaded.program,
            &[vec![0], vec![1], vec![2], vec![3]],
            false,
        )
        .expect("runs");
        assert!(!t.safe);
        assert_eq!(t.witness, Some(vec![2]));
        let r = run_mode(loaded, Mode::Bmc, Duration::from_secs(10));
        assert_eq!(r.verdict, Verdict::False);
        assert_eq!(judge(t.safe, t.ub, &r), Judgement::Agrees);
        // The lie: claim the program is safe.
        assert_eq!(judge(true, false, &r), Judgement::WrongFalse);
    }
}

#[cfg(test)]
mod hazard_tests {
    use super::*;

    /// A program whose input 3 reads past an array: the truth records the undefined
    /// behaviour (and no violation), and an engine's answer is UNKNOWN, never TRUE.
    #[test]
    fn undefined_behaviour_on_one_input_is_truth_and_no_engine_says_true() {
        let text = "extern void abort(void);\nvoid reach_error() {}\nvoid __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int);\nint s;\nint main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assume(0 <= x && x <= 3); { int a[3] = {1, 2, 3}; s = a[(unsigned)x % 4u]; } __VERIFIER_assert(s >= 0); return 0; }\n";
        let loaded = Arc::new(crate::truth::lower(text, false).expect("lowers"));
        let combos = [vec![0], vec![1], vec![2], vec![3]];
        assert!(crate::truth::exhaustive(&loaded.program, &combos, false).is_err());
        let t = crate::truth::exhaustive(&loaded.program, &combos, true).expect("runs");
        assert!(t.safe && t.ub);
        let r = run_mode(loaded, Mode::Bmc, Duration::from_secs(10));
        assert_eq!(judge(t.safe, t.ub, &r), Judgement::Unknown, "{r:?}");
    }
}
