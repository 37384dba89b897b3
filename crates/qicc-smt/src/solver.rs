//! The solver interface engines program against, and the interrupt handle.
//!
//! A [`Solver`] receives terms of a [`TermStore`] the caller owns and passes on every call;
//! a back-end translates each term once and remembers the translation, so asking about
//! the same DAG again (a deeper unwinding that shares most of its terms) costs only the new
//! part. Solvers are not `Send` (Z3 objects are not); each thread makes its own. What crosses
//! threads is the [`InterruptHandle`].

use crate::store::TermStore;
use crate::term::TermId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The answer of one satisfiability check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckResult {
    Sat,
    Unsat,
    /// Neither: timeout, interrupt, incompleteness, or an error of the back-end.
    Unknown(String),
}

/// A value in a model: Bools and bit-vectors (arrays are read through `select` terms).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelValue {
    Bool(bool),
    Bv { width: u16, value: u64 },
}

impl ModelValue {
    /// Bools as 0/1, bit-vectors as their value.
    pub fn as_u64(self) -> u64 {
        match self {
            ModelValue::Bool(b) => b as u64,
            ModelValue::Bv { value, .. } => value,
        }
    }
}

/// A satisfiability checker over terms of a [`TermStore`]. One solver must only ever be given
/// terms of one store (it remembers translations by term id).
pub trait Solver {
    /// The back-end's name for reports ("z3 5.4.1").
    fn name(&self) -> String;
    /// Adds a Bool term as a permanent assertion (until the enclosing `pop`).
    fn assert(&mut self, store: &TermStore, t: TermId);
    fn push(&mut self);
    /// Undoes the assertions since the matching `push`.
    fn pop(&mut self);
    /// Is the conjunction of the assertions and `assumptions` (Bool terms) satisfiable?
    fn check(&mut self, store: &TermStore, assumptions: &[TermId]) -> CheckResult;
    /// The value of a Bool or bit-vector term in the model of the last check, which must
    /// have answered [`CheckResult::Sat`] (any term of the store may be asked, not only
    /// those the solver has seen: unconstrained parts get some value). `None` if there is no
    /// model.
    fn value(&mut self, store: &TermStore, t: TermId) -> Option<ModelValue>;
    /// After a check that answered [`CheckResult::Unsat`]: a subset of its assumptions that is
    /// unsatisfiable together with the assertions (an unsat core; not necessarily minimal —
    /// a back-end may give all of them). `None` after any other answer.
    fn unsat_core(&mut self) -> Option<Vec<TermId>>;
    /// Limit for each later check (`None`: no limit).
    fn set_timeout(&mut self, timeout: Option<Duration>);
    /// A handle that stops a running check from another thread.
    fn interrupt_handle(&self) -> InterruptHandle;
}

type Hook = Box<dyn Fn() + Send>;

/// Stops a solver's checks from any thread; `Send + Sync + Clone`, valid after the solver is
/// gone (then it does nothing).
///
/// Interrupting is sticky: once [`InterruptHandle::interrupt`] was called, the running check
/// and every later check of that solver answer `Unknown("interrupted")`. A call that lands
/// exactly while a check is starting may be seen only at the next check, so a watcher that
/// must stop a check promptly calls `interrupt` again until the check returns.
#[derive(Clone, Default)]
pub struct InterruptHandle {
    inner: Arc<Inner>,
}

#[derive(Default)]
struct Inner {
    flag: AtomicBool,
    /// What stops the back-end's running check; `None` once the solver is dropped. Taken
    /// under the lock, so the back-end cannot be freed while it runs.
    hook: Mutex<Option<Hook>>,
}

impl std::fmt::Debug for InterruptHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InterruptHandle")
            .field("interrupted", &self.is_interrupted())
            .finish()
    }
}

impl InterruptHandle {
    pub fn new() -> InterruptHandle {
        InterruptHandle::default()
    }

    pub fn interrupt(&self) {
        self.inner.flag.store(true, Ordering::SeqCst);
        if let Ok(hook) = self.inner.hook.lock() {
            if let Some(h) = hook.as_ref() {
                h();
            }
        }
    }

    pub fn is_interrupted(&self) -> bool {
        self.inner.flag.load(Ordering::SeqCst)
    }

    /// Installs (or, with `None`, removes) what `interrupt` calls. For back-ends.
    pub fn set_hook(&self, hook: Option<Box<dyn Fn() + Send>>) {
        let mut guard = match self.inner.hook.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        *guard = hook;
    }
}

/// A back-end solver on its way to being dropped on another thread.
struct Retired<T>(T);
// SAFETY: `drop_in_background`'s contract: the value is moved whole and its solver objects
// are not tied to the thread that made them.
unsafe impl<T> Send for Retired<T> {}

/// Drops `solver` on a thread of its own: freeing a solver that bit-blasted a large query
/// takes seconds, and an engine that must answer by a deadline hands that work off. If no
/// thread can be started, `spawn` drops it right here (only slower).
///
/// # Safety
/// Nothing else may refer to the solver's objects (its context, term manager) once it is
/// moved here, and they must not be tied to the thread that made them (Z3 contexts and
/// Bitwuzla term managers only must not be used by two threads at once).
pub(crate) unsafe fn drop_in_background<T: 'static>(solver: T, thread_name: &str) {
    let retired = Retired(solver);
    let _ = std::thread::Builder::new()
        .name(thread_name.into())
        .spawn(move || drop(retired));
}
