//! Which solver the engines get: [`SmtSolver`], one of the back-ends behind the [`Solver`]
//! trait, chosen for the whole process (`qicc --solver`, [`set_solver_kind`]) or per solver.
//!
//! Engines make every solver through [`SmtSolver::new`] and never name a back-end, so the
//! choice of solver is one setting, and the stats can say which solver answered each check.

use crate::bitwuzla::BitwuzlaSolver;
use crate::solver::{CheckResult, InterruptHandle, ModelValue, Solver};
use crate::store::TermStore;
use crate::term::TermId;
use crate::z3::Z3Solver;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Duration;

/// How a back-end runs checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CheckMode {
    /// One incremental solver for every check (assumptions, push/pop): learned facts are
    /// kept between checks.
    Incremental,
    /// A fresh solver for every check, given the current assertions and the assumptions as
    /// plain assertions: the solver then preprocesses and bit-blasts each query whole,
    /// usually much faster on one-shot bounded model checking queries. Translations are still
    /// shared between checks.
    FreshPerCheck,
}

/// A back-end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    Z3,
    Bitwuzla,
}

impl SolverKind {
    pub const ALL: [SolverKind; 2] = [SolverKind::Z3, SolverKind::Bitwuzla];

    /// The name on the command line and in the stats (`z3`, `bitwuzla`).
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Bitwuzla => "bitwuzla",
        }
    }

    pub fn parse(name: &str) -> Option<SolverKind> {
        SolverKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// The back-end's name and version ("z3 5.4.1", "bitwuzla 0.8.0").
    pub fn version(self) -> String {
        match self {
            SolverKind::Z3 => Z3Solver::version(),
            SolverKind::Bitwuzla => BitwuzlaSolver::version(),
        }
    }
}

/// The process's choice (an index into [`SolverKind::ALL`]); [`UNSET`] until set or read.
static KIND: AtomicU8 = AtomicU8::new(UNSET);
const UNSET: u8 = u8::MAX;

/// The environment variable that chooses the back-end when no one has ([`set_solver_kind`]):
/// how a whole test suite runs on another solver (`QICC_SOLVER=z3 cargo test`).
pub const SOLVER_ENV: &str = "QICC_SOLVER";

/// The back-end when nothing chooses one: Bitwuzla, by measurement (bench/README.md, "Z3
/// beside Bitwuzla"): on all shared tasks it decides three more (223 against 220 at 10 s,
/// none lost, none wrong) in 12% less time, three more peer regression tests, and more of
/// the float kernels; with the patched library its checks keep their time limit.
pub const DEFAULT_SOLVER: SolverKind = SolverKind::Bitwuzla;

fn index_of(kind: SolverKind) -> u8 {
    SolverKind::ALL.iter().position(|&k| k == kind).unwrap_or(0) as u8
}

/// Makes every [`SmtSolver::new`] afterwards a solver of `kind`.
pub fn set_solver_kind(kind: SolverKind) {
    KIND.store(index_of(kind), Ordering::SeqCst);
}

/// The back-end [`SmtSolver::new`] makes: the one set, else the one `QICC_SOLVER` names,
/// else [`DEFAULT_SOLVER`]. A `QICC_SOLVER` that names no back-end is reported once on
/// stderr and ignored.
pub fn solver_kind() -> SolverKind {
    let mut i = KIND.load(Ordering::SeqCst);
    if i == UNSET {
        let kind = match std::env::var(SOLVER_ENV) {
            Ok(v) => SolverKind::parse(&v).unwrap_or_else(|| {
                eprintln!(
                    "qicc: {SOLVER_ENV}={v} names no solver (z3, bitwuzla); using {}",
                    DEFAULT_SOLVER.name()
                );
                DEFAULT_SOLVER
            }),
            Err(_) => DEFAULT_SOLVER,
        };
        // Only the first reader decides; a concurrent `set_solver_kind` wins.
        let _ = KIND.compare_exchange(UNSET, index_of(kind), Ordering::SeqCst, Ordering::SeqCst);
        i = KIND.load(Ordering::SeqCst);
    }
    SolverKind::ALL
        .get(i as usize)
        .copied()
        .unwrap_or(DEFAULT_SOLVER)
}

/// Checks answered Sat or Unsat, per back-end (by [`SolverKind::ALL`] index), in this
/// process: what the stats report as "which solver answered".
static ANSWERED: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

/// How many checks each back-end has decided (Sat or Unsat) in this process so far.
pub fn checks_answered() -> Vec<(SolverKind, u64)> {
    SolverKind::ALL
        .iter()
        .zip(&ANSWERED)
        .map(|(&k, n)| (k, n.load(Ordering::Relaxed)))
        .collect()
}

enum Inner {
    Z3(Z3Solver),
    Bitwuzla(BitwuzlaSolver),
}

/// The solver engines use: the back-end of [`solver_kind`] (or one named).
///
/// A check the Bitwuzla back-end does not ask because its query holds a construct Bitwuzla
/// does not decide (`BitwuzlaSolver::unsupported`) is asked of Z3 instead: one fresh-per-check
/// Z3 solver kept for such checks (its translations are kept too), given Bitwuzla's current
/// assertions in a push level of their own and the assumptions. The model and core of that
/// check are Z3's, and the stats count it as Z3's.
pub struct SmtSolver {
    inner: Inner,
    timeout: Option<Duration>,
    /// The Z3 solver of the checks Bitwuzla does not ask, once there was one.
    fallback: Option<Z3Solver>,
    /// The last check was answered by `fallback` (whose level the next check pops).
    fallback_answered: bool,
}

impl SmtSolver {
    /// A solver of the process's back-end ([`set_solver_kind`]).
    pub fn new(mode: CheckMode) -> SmtSolver {
        SmtSolver::of(solver_kind(), mode)
    }

    pub fn of(kind: SolverKind, mode: CheckMode) -> SmtSolver {
        let inner = match kind {
            SolverKind::Z3 => Inner::Z3(Z3Solver::new(mode)),
            SolverKind::Bitwuzla => Inner::Bitwuzla(BitwuzlaSolver::new(mode)),
        };
        SmtSolver {
            inner,
            timeout: None,
            fallback: None,
            fallback_answered: false,
        }
    }

    pub fn kind(&self) -> SolverKind {
        match self.inner {
            Inner::Z3(_) => SolverKind::Z3,
            Inner::Bitwuzla(_) => SolverKind::Bitwuzla,
        }
    }

    /// Z3's equation solving for this solver's checks ([`Z3Solver::solve_equations`]); other
    /// back-ends have no such switch and ignore it.
    pub fn solve_equations(&mut self, on: bool) {
        if let Inner::Z3(z) = &mut self.inner {
            z.solve_equations(on);
        }
    }

    /// Whether [`SmtSolver::solve_equations`] changes anything (Z3 only).
    pub fn has_equation_solving(&self) -> bool {
        matches!(self.inner, Inner::Z3(_))
    }

    /// Drops the solver on a thread of its own (freeing a large one takes seconds).
    pub fn drop_in_background(self) {
        if let Some(z) = self.fallback {
            z.drop_in_background();
        }
        match self.inner {
            Inner::Z3(z) => z.drop_in_background(),
            Inner::Bitwuzla(b) => b.drop_in_background(),
        }
    }

    fn solver(&mut self) -> &mut dyn Solver {
        match &mut self.inner {
            Inner::Z3(z) => z,
            Inner::Bitwuzla(b) => b,
        }
    }

    /// The solver of the last check's answer (its model and core).
    fn answered(&mut self) -> &mut dyn Solver {
        match (self.fallback_answered, &mut self.fallback, &mut self.inner) {
            (true, Some(z), _) => z,
            (_, _, Inner::Z3(z)) => z,
            (_, _, Inner::Bitwuzla(b)) => b,
        }
    }

    /// The last check asked of Z3 instead (see the type's docs).
    fn ask_z3(&mut self, store: &TermStore, assumptions: &[TermId]) -> CheckResult {
        let Inner::Bitwuzla(b) = &self.inner else {
            return CheckResult::Unknown(
                "internal error: no Bitwuzla check to stand in for".into(),
            );
        };
        let assertions: Vec<TermId> = b.assertions().collect();
        // The engine's interrupt handle is Bitwuzla's: it stops this check too.
        let handle = b.interrupt_handle();
        let z = self
            .fallback
            .get_or_insert_with(|| Z3Solver::new(CheckMode::FreshPerCheck));
        z.set_timeout(self.timeout);
        z.push();
        for t in assertions {
            z.assert(store, t);
        }
        self.fallback_answered = true;
        let z_handle = z.interrupt_handle();
        handle.set_hook(Some(Box::new(move || z_handle.interrupt())));
        let r = if handle.is_interrupted() {
            CheckResult::Unknown("interrupted".to_string())
        } else {
            z.check(store, assumptions)
        };
        handle.set_hook(None);
        r
    }
}

impl Solver for SmtSolver {
    fn name(&self) -> String {
        self.kind().version()
    }

    fn assert(&mut self, store: &TermStore, t: TermId) {
        self.solver().assert(store, t)
    }

    fn push(&mut self) {
        self.solver().push()
    }

    fn pop(&mut self) {
        self.solver().pop()
    }

    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> CheckResult {
        if std::mem::take(&mut self.fallback_answered) {
            if let Some(z) = self.fallback.as_mut() {
                z.pop();
            }
        }
        let mut r = self.solver().check(store, assumptions);
        let mut kind = self.kind();
        if matches!(&self.inner, Inner::Bitwuzla(b) if b.unsupported()) {
            r = self.ask_z3(store, assumptions);
            kind = SolverKind::Z3;
        }
        if matches!(r, CheckResult::Sat | CheckResult::Unsat) {
            ANSWERED[usize::from(index_of(kind))].fetch_add(1, Ordering::Relaxed);
        }
        r
    }

    fn value(&mut self, store: &TermStore, t: TermId) -> Option<ModelValue> {
        self.answered().value(store, t)
    }

    fn unsat_core(&mut self) -> Option<Vec<TermId>> {
        self.answered().unsat_core()
    }

    fn set_timeout(&mut self, timeout: Option<Duration>) {
        self.timeout = timeout;
        self.solver().set_timeout(timeout)
    }

    fn interrupt_handle(&self) -> InterruptHandle {
        match &self.inner {
            Inner::Z3(z) => z.interrupt_handle(),
            Inner::Bitwuzla(b) => b.interrupt_handle(),
        }
    }
}
