//! The thread an engine runs on, and the watcher that stops it when the budget runs out.
//!
//! Symbolic execution recurses once per nested call and the solver interface walks deep term
//! DAGs, so the engine runs on a thread with a stack no affordable unwinding exhausts. A
//! watcher thread polls the budget; once it is exhausted it sets the term store's stop flag
//! (term construction stops promptly) and interrupts the solver the engine registered.

use qicc_engine::{Budget, EngineResult, StopReason};
use qicc_ir::Program;
use qicc_smt::{catch_stop, InterruptHandle};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Stack of the engine thread (virtual memory: only what is touched is committed).
const WORKER_STACK: usize = 1 << 30;

/// How often the watcher looks at the budget.
const WATCH_PERIOD: Duration = Duration::from_millis(20);

/// Where an engine registers the solver the watcher interrupts.
pub type SolverSlot = Mutex<Option<InterruptHandle>>;

/// Runs `engine` on a worker thread named `name` under `budget`. The engine gets the slot for
/// its solver's interrupt handle and the stop flag for its term store. A stop in term
/// construction that the engine does not catch itself, or a panic, becomes an UNKNOWN
/// answer for every assertion of `program`.
pub fn run_on_worker(
    name: &str,
    program: &Program,
    budget: &Budget,
    engine: impl FnOnce(&SolverSlot, Arc<AtomicBool>) -> EngineResult + Send,
) -> EngineResult {
    let slot: SolverSlot = Mutex::new(None);
    let stop = Arc::new(AtomicBool::new(false));
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                if budget.exhausted().is_some() {
                    stop.store(true, Ordering::Relaxed);
                    // Repeated on purpose: an interrupt that lands between two checks is
                    // seen by the next one (InterruptHandle docs).
                    if let Ok(g) = slot.lock() {
                        if let Some(h) = g.as_ref() {
                            h.interrupt();
                        }
                    }
                }
                std::thread::sleep(WATCH_PERIOD);
            }
        });
        let worker = std::thread::Builder::new()
            .name(name.into())
            .stack_size(WORKER_STACK)
            .spawn_scoped(scope, || {
                let stopped = |_| {
                    let why = budget.exhausted().unwrap_or(StopReason::Timeout);
                    unknown_result(program, why.describe().to_string())
                };
                let r = catch_stop(|| engine(&slot, stop.clone())).unwrap_or_else(stopped);
                if let Ok(mut g) = slot.lock() {
                    *g = None;
                }
                r
            });
        let result = match worker {
            Ok(h) => h.join().unwrap_or_else(|_| {
                unknown_result(
                    program,
                    format!("internal error: the {name} worker panicked"),
                )
            }),
            Err(e) => unknown_result(program, format!("cannot start the {name} worker: {e}")),
        };
        done.store(true, Ordering::SeqCst);
        let _ = watcher.join();
        result
    })
}

/// Every assertion UNKNOWN for `reason`, nothing run.
pub fn unknown_result(p: &Program, reason: String) -> EngineResult {
    EngineResult::unknown(p, &reason, Default::default())
}
