//! The contract between qicc's verification engines and their callers.
//!
//! An engine (bounded model checking, Qicc's region gambling, loop acceleration, an external
//! verifier) takes a [`qicc_ir::Program`] and a [`Budget`], and answers with an
//! [`EngineResult`]: a status per assertion, at most one violation with the [`Witness`] that
//! produced it, the reason whenever the answer is not conclusive, and the run's figures
//! ([`Stats`]). Engines never report a violation they have not replayed on the program they
//! were given (a tool whose trace qicc cannot replay lists its violations apart, as
//! [`EngineResult::unconfirmed_violations`]); turning a result into a user-facing verdict (and
//! replaying again on the original program) is the driver's job.
//!
//! Engines that run side by side share what one proves for the other to assume through
//! [`HeadFacts`] (conditions proven at loop heads, see [`head_facts`]).
//!
//! This crate sits directly on the IR: engines need the interpreter only to replay.

use qicc_ir::{AssertionId, Witness};
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod head_facts;
pub mod memory;
pub mod priority;

pub use head_facts::HeadFacts;

/// A cancellation flag shared between a caller and the engines it runs (Ctrl-C, a sibling
/// that already answered, a result that is no longer needed). A child token reads as
/// cancelled when it or any of its ancestors is.
#[derive(Clone, Debug)]
pub struct CancelToken {
    /// This token's own flag first, then its ancestors' flags: 0 while not cancelled, else
    /// the [`StopReason`] code of the first cancellation.
    flags: Vec<Arc<AtomicU8>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        CancelToken::new()
    }
}

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken {
            flags: vec![Arc::new(AtomicU8::new(0))],
        }
    }

    /// A token cancelled by its own `cancel` or by this one's.
    pub fn child(&self) -> CancelToken {
        let mut flags = vec![Arc::new(AtomicU8::new(0))];
        flags.extend(self.flags.iter().cloned());
        CancelToken { flags }
    }

    pub fn cancel(&self) {
        self.cancel_for(StopReason::Cancelled)
    }

    /// Cancels, saying why; a token already cancelled keeps its first reason.
    pub fn cancel_for(&self, why: StopReason) {
        let _ = self.flags[0].compare_exchange(0, why.code(), Ordering::SeqCst, Ordering::SeqCst);
    }

    pub fn is_cancelled(&self) -> bool {
        self.reason().is_some()
    }

    /// Why this token reads as cancelled (its own reason first, then its ancestors').
    pub fn reason(&self) -> Option<StopReason> {
        self.flags
            .iter()
            .find_map(|f| StopReason::from_code(f.load(Ordering::SeqCst)))
    }
}

/// How long an engine may run, and the token that stops it early.
#[derive(Clone, Debug)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub cancel: CancelToken,
    /// The process's memory limit in MiB (`--memory-limit`), inherited by child budgets:
    /// the [`memory::MemoryWatch`] enforces it for the process as a whole; an engine that
    /// can see its own growth coming (symbolic execution's term store) stops a run that
    /// would take a large share of it, naming what grew ([`Budget::memory_share`]).
    pub memory_mib: Option<u64>,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget {
            deadline: None,
            cancel: CancelToken::new(),
            memory_mib: None,
        }
    }

    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Some(Instant::now() + timeout),
            cancel: CancelToken::new(),
            memory_mib: None,
        }
    }

    /// This budget with a memory limit of `mib` MiB (`None`: none).
    pub fn with_memory_limit(self, mib: Option<u64>) -> Budget {
        Budget {
            memory_mib: mib,
            ..self
        }
    }

    /// The bytes one run may plan to use: half the memory limit (two runs side by side,
    /// the machine's usual portfolio, stay below it together), `None` without a limit.
    pub fn memory_share(&self) -> Option<u64> {
        self.memory_mib.map(|m| m.saturating_mul(1 << 20) / 2)
    }

    /// Time left, if there is a deadline (zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Why the engine must stop now, if it must.
    pub fn exhausted(&self) -> Option<StopReason> {
        if let Some(why) = self.cancel.reason() {
            Some(why)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Timeout)
        } else {
            None
        }
    }

    /// Waits until `done()` holds, `limit` has passed or the budget is exhausted, whichever
    /// comes first (polled every 10 ms: a head start is tens of milliseconds or more);
    /// whether the budget is still live.
    pub fn wait(&self, limit: Option<Duration>, done: impl Fn() -> bool) -> bool {
        let start = Instant::now();
        while !done() && limit.is_none_or(|l| start.elapsed() < l) && self.exhausted().is_none() {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.exhausted().is_none()
    }

    /// Whether the budget is exhausted, as a question an engine can pass on to code below
    /// the engine contract (the interpreter's `StopCheck` when an engine replays a witness).
    pub fn stop_fn(&self) -> impl Fn() -> bool + Send + Sync + 'static {
        let budget = self.clone();
        move || budget.exhausted().is_some()
    }

    /// A budget ending at the earlier of this deadline and `timeout` from now, with a child
    /// cancel token (cancelling it does not cancel this budget).
    pub fn child(&self, timeout: Option<Duration>) -> Budget {
        let deadline = match (self.deadline, timeout.map(|t| Instant::now() + t)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget {
            deadline,
            cancel: self.cancel.child(),
            memory_mib: self.memory_mib,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    Timeout,
    Cancelled,
    /// The process grew past its memory limit ([`memory::MemoryWatch`]).
    MemoryLimit,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Timeout => "time limit reached",
            StopReason::Cancelled => "cancelled",
            StopReason::MemoryLimit => "memory limit reached",
        }
    }

    /// The non-zero code kept in a [`CancelToken`]'s flag.
    fn code(self) -> u8 {
        match self {
            StopReason::Timeout => 1,
            StopReason::Cancelled => 2,
            StopReason::MemoryLimit => 3,
        }
    }

    fn from_code(code: u8) -> Option<StopReason> {
        match code {
            1 => Some(StopReason::Timeout),
            2 => Some(StopReason::Cancelled),
            3 => Some(StopReason::MemoryLimit),
            _ => None,
        }
    }
}

/// How an undefined-behaviour check's `Unknown` reason starts when an engine's solver found
/// it reachable (a satisfying assignment of the whole unwound program reaches it) without a
/// replay: the one spelling [`ub_reachable_reason`] writes and [`is_ub_reachable`] reads, so
/// that reports can list such checks (as SARIF warnings) apart from merely undecided ones.
pub const UB_REACHABLE: &str = "undefined behaviour reachable";

/// The reason of an undefined-behaviour check found reachable: `what` and where.
pub fn ub_reachable_reason(what: &str) -> String {
    format!("{UB_REACHABLE}: {what}")
}

/// Whether `reason` says an engine found the check reachable.
pub fn is_ub_reachable(reason: &str) -> bool {
    reason.starts_with(UB_REACHABLE)
}

/// What an engine established about one assertion.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AssertionStatus {
    /// No execution of the program reaches it.
    Safe,
    /// Reached by the engine's witness (replayed on the engine's input program).
    Violated,
    /// Neither, and why (bound too small, timeout, ...).
    Unknown(String),
    /// Bounded mode (`--bound K`): no execution that runs every loop body and every
    /// recursion at most `bound` times reaches it, but longer executions were cut. Not a
    /// proof: never a TRUE; a `Safe` from any run replaces it, a `Violated` beats it.
    SafeWithin(u32),
}

/// The answer of one engine run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineResult {
    /// One entry per assertion of the program, in assertion order.
    pub statuses: Vec<(AssertionId, AssertionStatus)>,
    /// The first violation found, with the oracle answers that reach it.
    pub violation: Option<(AssertionId, Witness)>,
    /// Assertions a tool reports violated without a witness qicc can replay (an external
    /// verifier's own trace): their status is `Unknown`, and only a caller that can confirm
    /// the violation otherwise (the built-in engine on the same program) may act on them.
    #[serde(default)]
    pub unconfirmed_violations: Vec<AssertionId>,
    /// An undefined-behaviour check the engine found reachable, with the oracle answers that
    /// reach it on the engine's input program: the report shows its replayed trace (the
    /// verdict stays UNKNOWN). Only a run of the whole program gives one.
    #[serde(default)]
    pub ub_witness: Option<(AssertionId, Witness)>,
    /// When `violation` is an external verifier's counterexample replayed by qicc: the
    /// tool's own violation witness (SV-COMP 2.0 YAML), kept for the report.
    #[serde(default)]
    pub tool_witness: Option<String>,
    /// Why the result is not conclusive, if it is not.
    pub reason: Option<String>,
    /// Engine-specific figures (bound reached, solver time, ...) for the report.
    pub stats: Stats,
    /// The loop invariants the engine proved (an engine that proves with them fills it), so
    /// the report can show the argument behind its `Safe` statuses.
    #[serde(default)]
    pub invariants: Vec<LoopInvariant>,
}

impl EngineResult {
    /// Every assertion of `program` unknown for `reason` (the result of a run that could not
    /// answer), with the figures `stats`.
    pub fn unknown(program: &qicc_ir::Program, reason: &str, stats: Stats) -> EngineResult {
        EngineResult {
            statuses: program
                .assertion_ids()
                .map(|a| (a, AssertionStatus::Unknown(reason.to_string())))
                .collect(),
            violation: None,
            unconfirmed_violations: Vec::new(),
            ub_witness: None,
            tool_witness: None,
            invariants: Vec::new(),
            reason: Some(reason.to_string()),
            stats,
        }
    }
}

/// The conditions proven at one loop's head: each holds at every visit of the head.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopInvariant {
    /// The function the loop is in.
    pub function: String,
    /// Where the loop is in the source.
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub conditions: Vec<InvariantCondition>,
    /// Closed by exact acceleration: every variable the loop changes has a proven closed
    /// form in the number of iterations done (Impulse's acceleration, proven as invariants).
    #[serde(default)]
    pub exact_acceleration: bool,
}

/// One proven condition, as text over the program's variables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InvariantCondition {
    /// A C expression, except where C has no words for it (ACSL's): `\at(x, LoopEntry)` is
    /// `x`'s value when the loop was entered, and a quantified condition reads
    /// `\forall k: …` (`k1`, … when the program has a `k`).
    pub text: String,
    /// Whether `text` is a plain, side-effect-free C expression over the program's
    /// variables at the loop head (no entry value, no quantifier, no name the front-end
    /// invented), with C's meaning equal to the IR's: what a consumer that needs C (a
    /// correctness witness) may use.
    pub c: bool,
    /// The condition holds for every value of its bound variable (see `text`).
    #[serde(default)]
    pub quantified: bool,
}

/// The figures engines report about a run. Each field is one key of the report's `stats`
/// object under its JSON name (part of the `--format json` contract, so renamed fields keep
/// their old spelling); an engine fills what it measures, the rest is `null`: the object has
/// the same keys whatever the engine and the outcome (a script reads a timeout's report as
/// it reads an answer's).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Stats {
    // The bounded model checker (also inside Impulse and under Qicc).
    /// The unwinding bound of the last run.
    pub bound: Option<u32>,
    pub symex_steps: Option<u64>,
    /// Terms in the hash-consed store.
    pub terms: Option<u64>,
    /// Time in the solver: the BMC's own, the sum over the runs of X under Qicc, or the
    /// BMC's inside Impulse.
    pub solver_time_ms: Option<u64>,
    pub solver_calls: Option<u64>,

    // Qicc (the gamble).
    /// Runs of X that finished.
    pub regions_tried: Option<u64>,
    pub rnt_nodes: Option<u64>,
    pub speculative_runs: Option<u64>,

    // Impulse.
    #[serde(rename = "loops seen")]
    pub loops_seen: Option<u64>,
    #[serde(rename = "loops accelerated")]
    pub loops_accelerated: Option<u64>,
    #[serde(rename = "paths accelerated")]
    pub paths_accelerated: Option<u64>,
    #[serde(rename = "instrumentation ms")]
    pub instrumentation_ms: Option<u64>,
    /// Time in the BMC on the instrumented program, over every retry.
    #[serde(rename = "bmc ms")]
    pub bmc_ms: Option<u64>,
    /// The iteration cap of the retry whose counterexample was used.
    #[serde(rename = "iteration cap")]
    pub iteration_cap: Option<u64>,
    #[serde(rename = "iterations expanded")]
    pub iterations_expanded: Option<u64>,
    #[serde(rename = "expansion ms")]
    pub expansion_ms: Option<u64>,

    // Corral.
    /// The last recursion bound (cost bound of Corral's stratified inlining).
    #[serde(rename = "recursion bound")]
    pub recursion_bound: Option<u32>,
    /// Iterations of stratified inlining (one query of each type per iteration), over all
    /// bounds.
    #[serde(rename = "inlining iterations")]
    pub inlining_iterations: Option<u64>,
    /// Dynamic call sites inlined, over all bounds.
    #[serde(rename = "calls inlined")]
    pub calls_inlined: Option<u64>,
    /// Loop invariants: candidates tried, invariants proven, Houdini's solver checks (on one
    /// VC, or one BMC run each when it falls back to the BMC).
    #[serde(rename = "invariant candidates")]
    pub invariant_candidates: Option<u64>,
    #[serde(rename = "invariants proven")]
    pub invariants_proven: Option<u64>,
    #[serde(rename = "houdini checks")]
    pub houdini_checks: Option<u64>,
    /// The largest `k` at which k-induction proved an assertion the invariants alone did not.
    #[serde(rename = "k-induction k")]
    pub k_induction: Option<u64>,
    /// Corral: functions whose summary the interval facts at their exit strengthen.
    #[serde(rename = "exit facts")]
    pub exit_facts: Option<u64>,
    /// Dynamic call sites evaluated concretely (constant inputs, one result), over all bounds.
    #[serde(rename = "calls evaluated")]
    pub calls_evaluated: Option<u64>,
    /// Dynamic call sites still open (summarised or blocked) at the end.
    #[serde(rename = "calls open")]
    pub calls_open: Option<u64>,
    /// Variable abstraction: globals tracked at the end, refinements (spurious
    /// counterexamples ruled out), the solver queries they made, and their time.
    #[serde(rename = "variables tracked")]
    pub variables_tracked: Option<u64>,
    #[serde(rename = "refinements")]
    pub refinements: Option<u64>,
    #[serde(rename = "refinement queries")]
    pub refinement_queries: Option<u64>,
    #[serde(rename = "refinement ms")]
    pub refinement_ms: Option<u64>,
    /// Houdini's candidate post-conditions, and how many it proved.
    #[serde(rename = "summary candidates")]
    pub summary_candidates: Option<u64>,
    #[serde(rename = "summaries proven")]
    pub summaries_proven: Option<u64>,
    /// The dynamic call sites static inlining of the whole (non-recursive) program makes.
    #[serde(rename = "calls static inlining makes")]
    pub static_inlining_calls: Option<u64>,

    // An external verifier.
    /// The tool's name (`cbmc`, `esbmc`, `ultimate`).
    pub backend: Option<String>,
    /// The executable that ran.
    pub external_tool: Option<String>,
    pub external_exit_code: Option<i32>,
    /// Wall-clock time from emission to the reading of the tool's output.
    pub external_seconds: Option<f64>,
}

impl Stats {
    /// Adds `n` to a figure that sums over several runs (absent counts as zero).
    pub fn add(figure: &mut Option<u64>, n: u64) {
        *figure = Some(figure.unwrap_or(0) + n);
    }

    /// The figures as the JSON object the report shows.
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            // A struct of numbers and strings always serialises to an object.
            _ => serde_json::Map::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn children_inherit_the_memory_limit_and_a_run_plans_for_half() {
        let b = Budget::unlimited().with_memory_limit(Some(1024));
        let c = b.child(Some(Duration::from_secs(1)));
        assert_eq!(c.memory_mib, Some(1024));
        assert_eq!(c.memory_share(), Some(512 << 20));
        assert_eq!(Budget::unlimited().memory_share(), None);
    }

    #[test]
    fn the_first_reason_sticks_and_children_see_their_ancestors() {
        let root = CancelToken::new();
        let child = root.child();
        assert_eq!(child.reason(), None);
        root.cancel_for(StopReason::MemoryLimit);
        root.cancel();
        assert_eq!(root.reason(), Some(StopReason::MemoryLimit));
        assert_eq!(child.reason(), Some(StopReason::MemoryLimit));
        let budget = Budget {
            deadline: None,
            cancel: child,
            memory_mib: None,
        };
        assert_eq!(budget.exhausted(), Some(StopReason::MemoryLimit));
        // Cancelling a child leaves its parent alone.
        let other = CancelToken::new();
        other.child().cancel();
        assert!(!other.is_cancelled());
    }

    /// The report's `stats` keys are part of the JSON contract: one figure of each engine
    /// under its historical name, every key always there (`null` for what is unset).
    #[test]
    fn stats_keep_their_json_names_and_every_key() {
        let stats = Stats {
            bound: Some(3),
            solver_time_ms: Some(7),
            regions_tried: Some(2),
            loops_seen: Some(1),
            bmc_ms: Some(5),
            external_exit_code: Some(6),
            ..Default::default()
        };
        let json = stats.to_json();
        for key in [
            "bmc ms",
            "bound",
            "external_exit_code",
            "loops seen",
            "regions_tried",
            "solver_time_ms",
        ] {
            assert!(json.get(key).is_some_and(|v| !v.is_null()), "{key}");
        }
        assert_eq!(json["bound"], 3);
        let unset = Stats::default().to_json();
        assert!(unset.values().all(|v| v.is_null()));
        let keys = |m: &serde_json::Map<String, serde_json::Value>| -> Vec<String> {
            m.keys().cloned().collect()
        };
        assert_eq!(keys(&unset), keys(&json));
        assert!(unset.contains_key("regions_tried") && unset.contains_key("bound"));
        let mut sum = None;
        Stats::add(&mut sum, 4);
        Stats::add(&mut sum, 5);
        assert_eq!(sum, Some(9));
    }
}
