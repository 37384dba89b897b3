//! qicc's built-in verifier: bit-precise bounded model checking of qicc IR.
//!
//! [`verify`] unwinds the program from its entry function — calls inlined, loops and
//! recursion unrolled up to a bound — by symbolic execution over a hash-consed term DAG that
//! folds constants as it goes (`qicc-smt`), and asks Z3 about the result. It is `qicc
//! verify --engine bmc` and the `X` of Qicc+X.
//!
//! Verdicts are sound:
//! - **TRUE** only if no `error` edge of any kind (property or undefined behaviour) is
//!   reachable within the unwinding *and* the unwinding is complete: no path takes a
//!   back-edge, or recursion, beyond the bound (CBMC's unwinding assertions).
//! - **FALSE** only with a witness that `qicc_interp` replays to the error edge of a
//!   property assertion; a model that does not replay is reported as UNKNOWN ("counterexample
//!   did not replay"), never as FALSE.
//! - Reachable undefined behaviour never gives FALSE: once the unwinding is complete and no
//!   property violation exists, it gives UNKNOWN naming the check.
//!
//! Without a fixed `unwind` the bound deepens (1, 2, 3, 4, 6, 8, 12, ...; see
//! `engine::schedule`) until an answer, `max_unwind`, the budget's deadline or cancellation.
//! A watcher thread interrupts the solver as soon as the budget is exhausted, and symbolic
//! execution polls the budget, so Ctrl-C and timeouts stop promptly with UNKNOWN.
//!
//! Choices (see the modules for details):
//! - *Bound K* means: each loop's back-edges are taken at most K times per entry into the
//!   loop (a `for (i = 0; i < 10; i++)` loop is complete at K = 10), and a function is active
//!   at most K + 1 times on the call stack. Loops are those of the loop nesting forest, so
//!   irreducible `goto` loops are bounded too.
//! - Calls are inlined and states are merged at join points (CBMC's goto-symex); values are
//!   terms, not SSA equations, so everything constant folds while it is built.
//! - Each query goes to a fresh Z3 solver in one shared context (`qicc_smt::CheckMode`):
//!   bit-blasting tactics beat the incremental core by one to two orders of magnitude here,
//!   and translations are still shared between bounds.
//! - A deeper bound is executed from scratch into the same term store: hash-consing returns
//!   the terms the previous bound built, and Z3 has them translated already.
//!
//! The symbolic execution (states, memory model, unwinding, traces, replay) is the shared
//! library `qicc-symex`; this crate owns the deepening loop and the queries (`engine`) and
//! the loop hints from interval facts (`hints`).

mod engine;
mod hints;

use qicc_engine::{Budget, EngineResult};
use qicc_ir::Program;
use qicc_symex::worker::{run_on_worker, unknown_result};
use std::path::PathBuf;
use std::time::Duration;

/// The deepening cap when none is given.
pub const DEFAULT_MAX_UNWIND: u32 = 1024;

/// Receiver of progress lines.
pub use qicc_symex::ProgressFn;

pub struct BmcOptions {
    /// A fixed bound (no deepening): every loop's back-edges at most this often per entry
    /// into the loop, every function at most this many times recursively active.
    pub unwind: Option<u32>,
    /// The last bound deepening tries.
    pub max_unwind: u32,
    /// Bounded mode (with `unwind`): when the unwinding at the bound is incomplete, the
    /// assertions no execution within it reaches are `SafeWithin(bound)` (undefined
    /// behaviour settled within the bound as for a proof), not unknown.
    pub bounded: bool,
    /// Per-loop bounds: (function name, location of the loop's head, bound).
    pub loop_unwind: Vec<(String, u32, u32)>,
    /// Look for every violated assertion, not just the first.
    pub all_violations: bool,
    /// Limit of each solver check (the budget's deadline applies as well).
    pub check_timeout: Option<Duration>,
    /// Write every query as SMT-LIB 2 to this file.
    pub dump_smt: Option<PathBuf>,
    /// Receives short progress lines ("unwind 8: 1234 steps, 5678 terms, solving…").
    pub progress: Option<ProgressFn>,
}

impl Default for BmcOptions {
    fn default() -> Self {
        BmcOptions {
            unwind: None,
            max_unwind: DEFAULT_MAX_UNWIND,
            bounded: false,
            loop_unwind: Vec::new(),
            all_violations: false,
            check_timeout: None,
            dump_smt: None,
            progress: None,
        }
    }
}

impl std::fmt::Debug for BmcOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BmcOptions")
            .field("unwind", &self.unwind)
            .field("max_unwind", &self.max_unwind)
            .field("loop_unwind", &self.loop_unwind)
            .field("all_violations", &self.all_violations)
            .field("check_timeout", &self.check_timeout)
            .field("dump_smt", &self.dump_smt)
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

/// Bounded model checking of `program` (see the crate docs for what each answer means).
pub fn verify(program: &Program, opts: &BmcOptions, budget: &Budget) -> EngineResult {
    run_on_worker(
        "qicc-bmc",
        program,
        budget,
        |slot, stop| match engine::Engine::new(program, opts, budget, slot, stop) {
            Ok(e) => e.run(),
            Err(why) => unknown_result(program, why),
        },
    )
}
