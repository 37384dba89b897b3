//! Stopping the instrumentation's solver calls when the budget is exhausted (also used by
//! the loop-invariant prover's Houdini, which depends on this crate).
//!
//! Path selection and closed-form proofs ask Z3 with per-check limits of seconds; the budget's
//! deadline shortens them, but a cancellation (the portfolio stops Impulse once another engine
//! has the answer) would wait for them. [`watched`] runs the instrumentation with a watcher
//! that interrupts the solver current on this thread ([`solver`] registers each one) as soon
//! as the budget is exhausted; an interrupted check answers unknown, as at a timeout.

use qicc_engine::Budget;
use qicc_smt::{CheckMode, InterruptHandle, SmtSolver, Solver};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

type Slot = Arc<Mutex<Option<InterruptHandle>>>;

thread_local! {
    static CURRENT: RefCell<Option<Slot>> = const { RefCell::new(None) };
}

/// How often the watcher looks at the budget.
const WATCH_PERIOD: Duration = Duration::from_millis(20);

/// A new solver, interrupted by the watcher of the enclosing [`watched`] call (if any).
pub fn solver(mode: CheckMode) -> SmtSolver {
    let s = SmtSolver::new(mode);
    CURRENT.with(|c| {
        if let Some(slot) = c.borrow().as_ref() {
            if let Ok(mut g) = slot.lock() {
                *g = Some(s.interrupt_handle());
            }
        }
    });
    s
}

/// Runs `f` on this thread; the solvers it makes with [`solver`] are interrupted once
/// `budget` is exhausted.
pub fn watched<T>(budget: &Budget, f: impl FnOnce() -> T) -> T {
    let slot: Slot = Arc::new(Mutex::new(None));
    CURRENT.with(|c| *c.borrow_mut() = Some(slot.clone()));
    let done = AtomicBool::new(false);
    let r = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                if budget.exhausted().is_some() {
                    // Repeated on purpose: an interrupt between two checks is seen by the next.
                    if let Ok(g) = slot.lock() {
                        if let Some(h) = g.as_ref() {
                            h.interrupt();
                        }
                    }
                }
                std::thread::sleep(WATCH_PERIOD);
            }
        });
        let r = f();
        done.store(true, Ordering::SeqCst);
        r
    });
    CURRENT.with(|c| *c.borrow_mut() = None);
    r
}
