//! Corral (Lal, Qadeer, Lahiri: *A Solver for Reachability Modulo Theories*, CAV 2012;
//! `../shared/papers/004_601c01b00f74f1cb.txt`) on qicc IR: stratified inlining (Sec. 2,
//! Fig. 2) over the symbolic execution of `qicc-symex`.
//!
//! The program is executed symbolically from its entry with every call *open*
//! (`qicc_symex::CallMode::Open`): an open call's effect is its callee's default summary —
//! what the callee's mod-set names becomes arbitrary, and whether it returns and whether it
//! fails are free Bool symbols. Then, for recursion bound r = 1, 2, 3, 4, 6, … (every loop is
//! unwound r times as well, see below):
//! 1. **Query type 1**: every open call blocked (`assume false` at the call). SAT: the model
//!    runs through inlined code only; it is replayed on the interpreter and, if the replay
//!    reaches the property assertion, it is the answer FALSE.
//! 2. **Query type 2**: open calls of cost ≤ r summarised (an open call may fail: that is an
//!    error too, the paper's error flag), those of cost > r blocked. UNSAT: no error within
//!    the over-approximation; if moreover no blocked call and no path cut by the loop bound
//!    is reachable in it, the program is safe for *every* bound (the paper's "Computing
//!    Proofs", Sec. 4.2): TRUE. Otherwise the bound is raised.
//! 3. SAT: every open call the model passes through (its guard true in the model) is
//!    inlined — its body executed symbolically from the call's state, its own calls open —
//!    and its summary tied to the body by constraints on the solver stack; repeat.
//!
//! Two things the paper does not do make the open calls cheaper. A call whose inputs (its
//! arguments and the globals it reads) are constants and whose callee makes no
//! nondeterministic choice and touches no memory has one result: `qicc_symex::evaluate` runs
//! it on the interpreter and symex continues with the result, so the call is never open
//! (`fib(20)`: one evaluation instead of about 22,000 inlinings). And every open call's
//! summary is strengthened by the interval facts of `qicc-facts` at its callee's exit (see
//! `summary`).
//!
//! Error-flag instrumentation (Sec. 4.2) is built into the symbolic execution rather than the
//! IR: an `error` edge ends its path with a recorded hit, an open call's `fails` symbol ends
//! the path after the call, so a model's path ends at the first error as with the flag.
//!
//! Loops are unwound by the symbolic execution up to the bound r, the paths beyond recorded
//! as cuts; a cut is treated like a blocked call of cost r + 1 (it blocks a proof at this
//! bound, never gives one).
//!
//! Verdicts are sound: FALSE only with a replayed counterexample; TRUE only from an UNSAT
//! over-approximation with nothing blocked; everything else is UNKNOWN with the reason.

pub mod abstraction;
mod engine;
pub mod refine;
pub mod summary;

use qicc_engine::{Budget, EngineResult};
use qicc_ir::Program;
use qicc_symex::worker::{run_on_worker, unknown_result};
use std::time::Duration;

/// The recursion bound's cap when none is given.
pub const DEFAULT_MAX_BOUND: u32 = 1024;

/// Receiver of progress lines.
pub use qicc_symex::ProgressFn;

pub struct CorralOptions {
    /// The last recursion bound tried (`--recursion-bound`); bounds deepen 1, 2, 3, 4, 6, 8,
    /// … up to it. Loops are unwound as often as the bound.
    pub max_bound: u32,
    /// Variable abstraction over the globals with hierarchical refinement (Sec. 3). Off by
    /// default: measured on `many_globals_500` (501 globals, one needed), it tracks one global
    /// after 17 refinement queries but takes 5.9 s against 1.3 s without: qicc's terms fold
    /// constants and share structure, so untracked globals save the solver less than they
    /// cost in fresh values.
    pub abstraction: bool,
    /// Loops as tail-recursive procedures (`qicc_analysis::loop_procs`), so that the
    /// recursion bound bounds them and summaries cover them; otherwise the symbolic execution
    /// unwinds each loop up to the bound.
    pub loops_as_procedures: bool,
    /// Limit of each solver check (the budget's deadline applies as well).
    pub check_timeout: Option<Duration>,
    pub progress: Option<ProgressFn>,
}

impl Default for CorralOptions {
    fn default() -> Self {
        CorralOptions {
            max_bound: DEFAULT_MAX_BOUND,
            abstraction: false,
            loops_as_procedures: false,
            check_timeout: None,
            progress: None,
        }
    }
}

/// Static inlining of the program makes more call sites than this, and Corral is worth
/// running beside the other engines.
const BLOWUP_CALLS: u64 = 256;

/// Whether static inlining of `p`'s calls (what the BMC does) blows up: more than
/// `BLOWUP_CALLS` dynamic call sites, or recursion. The default engine runs Corral beside
/// the gamble only then.
pub fn inlining_blows_up(p: &Program) -> bool {
    engine::static_inlining_calls(p).is_none_or(|n| n > BLOWUP_CALLS)
}

/// Stratified inlining on `program` (see the crate docs for what each answer means).
pub fn verify(program: &Program, opts: &CorralOptions, budget: &Budget) -> EngineResult {
    // Loops as procedures: the witness of the result replays on `program` itself (the
    // transformation keeps the order of nondeterministic requests), and assertion ids stay.
    let converted;
    let program = if opts.loops_as_procedures {
        converted = qicc_analysis::loops_to_procedures(program).0;
        &converted
    } else {
        program
    };
    run_on_worker(
        "qicc-corral",
        program,
        budget,
        |slot, stop| match engine::Engine::new(program, opts, budget, slot, stop) {
            Ok(e) => e.run(),
            Err(why) => unknown_result(program, why),
        },
    )
}
