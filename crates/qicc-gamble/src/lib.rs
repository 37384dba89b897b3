//! Qicc: verification by gambling on program slices (Akhundov et al., Sec. 3).
//!
//! For every assertion, gambling starts at the innermost node of the Region Nesting Tree that
//! holds it (one per calling context), extracts that node as a standalone program and asks a
//! verifier X whether the assertion can fail there. A proof in any region is a proof for the
//! program (Theorem 1: every violating path has a suffix in the region); a failure in a region
//! proves nothing, so the assertion climbs to the parent node, up to the root — the program
//! itself — where a violation is real. The program is safe iff every assertion is proven in
//! some node of every calling context (Theorem 3).
//!
//! What this crate adds to the paper's algorithm:
//! - **Batch verification**: one run of X per node checks all assertions waiting there; X
//!   reports per assertion, and only the unproven ones climb.
//! - **Concurrent verification**: up to `jobs` runs at once, on different nodes; a node's
//!   result is shared by every calling context whose climb reaches an identical extraction
//!   (a function or region node extracts the same way in every context). When a worker would
//!   otherwise idle, the parent of a running node starts early (speculatively, the paper's own
//!   suggestion for the cost of a miss), and runs whose assertions are all decided are cancelled.
//! - **Facts at region heads** (the paper's future work, see [`inject`]): interval and stack
//!   facts, and the loop invariants another engine proves while the gamble runs
//!   ([`GambleOptions::head_facts`]).
//!
//! Invariants: an assertion is `Safe` only if some run of X proved it in an ancestor-or-self of
//! each of its innermost nodes; a `Violated` status and its witness only ever come from the root
//! (the original program with some assertions disabled), and the witness is the one X replayed.

pub mod backend;
pub mod inject;
mod schedule;

pub use backend::{Backend, BuiltinOptions};
pub use schedule::verify;

use qicc_engine::{EngineResult, HeadFacts};
use qicc_ir::AssertionId;
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

#[derive(Clone)]
pub struct GambleOptions {
    /// Runs of X at the same time.
    pub jobs: usize,
    pub backend: Backend,
    /// Time limit of one run of X on a region or function node (the root gets whatever is
    /// left of the budget). `None`: a share of the budget, see [`schedule`].
    pub region_timeout: Option<Duration>,
    /// Assume interval facts at region heads.
    pub facts: bool,
    /// Conditions proven at loop heads by an engine running beside the gamble (the loop
    /// invariants), read each time a region run starts and assumed at its head (see
    /// [`inject`]). Empty unless a caller shares a slot that something fills.
    pub head_facts: HeadFacts,
    /// Keep one run fewer than `jobs` busy (one at least) until `head_facts` is finished, for
    /// at most this long from the start: the engine that fills it needs a core of its own
    /// for a quick proof, and the regions it helps wait for it; a long search must not halve
    /// the gamble. The early whole-program run ([`GambleOptions::early_root`]) is not held
    /// back: it is no bet.
    pub spare_core_for_facts: Option<Duration>,
    /// Start a parent while its child still runs when a worker is idle.
    pub speculate: bool,
    /// With two runs or more at a time: start the whole program's run at once, beside the
    /// regions, rather than when the contexts climb to it. The default engine is then never
    /// much slower than X alone on a program X decides (a gamble is a bet: it must not
    /// delay the safe answer).
    pub early_root: bool,
    /// Report every violated assertion (at the root), not only the first.
    pub all_violations: bool,
    pub progress: Option<Progress>,
    /// Every finished run, as it finishes (the result's `attempts` holds the same): a caller
    /// that stops waiting for the answer (the CLI, past the deadline) still reports the
    /// regions tried.
    pub log: AttemptLog,
}

/// The runs of one gamble so far, shared with whoever may need them before it answers.
pub type AttemptLog = std::sync::Arc<std::sync::Mutex<Vec<Attempt>>>;

/// How many of `attempts` included each assertion (its tries).
pub fn tries(attempts: &[Attempt]) -> std::collections::BTreeMap<qicc_ir::AssertionId, usize> {
    let mut tries = std::collections::BTreeMap::new();
    for a in attempts.iter().flat_map(|at| &at.assertions) {
        *tries.entry(qicc_ir::AssertionId(*a)).or_default() += 1;
    }
    tries
}

impl Default for GambleOptions {
    fn default() -> Self {
        GambleOptions {
            jobs: std::thread::available_parallelism()
                .map(|n| n.get())
                .unwrap_or(1),
            backend: Backend::Builtin(BuiltinOptions::default()),
            region_timeout: None,
            facts: true,
            head_facts: HeadFacts::new(),
            spare_core_for_facts: None,
            speculate: true,
            early_root: true,
            all_violations: false,
            progress: None,
            log: AttemptLog::default(),
        }
    }
}

/// One run of X on one node.
#[derive(Clone, Debug, Serialize)]
pub struct Attempt {
    /// E.g. `region main/L7 (lines 12-18)`.
    pub node: String,
    pub assertions: Vec<u32>,
    pub proved: Vec<u32>,
    pub outcome: AttemptOutcome,
    pub time_ms: u64,
    /// Time X spent in its solver, when X reports it.
    pub solver_ms: Option<u64>,
    pub speculative: bool,
    /// The facts assumed at the head, if any (the loop invariants among them after
    /// `loop invariants: `).
    pub facts: Option<String>,
}

/// How one run of X ended. Reports show it as text (`proved all`, `failed: <reason>`, ...),
/// also in the JSON report's `attempts`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AttemptOutcome {
    /// Every assertion of the batch proven.
    ProvedAll,
    /// Some proven, the others climb.
    ProvedSome,
    /// None proven, with X's reason when it gave one.
    Failed(Option<String>),
    /// Stopped because no context needed it any more (or the whole search stopped).
    Cancelled,
    /// X did not run: the node could not be extracted.
    Error(String),
}

impl fmt::Display for AttemptOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptOutcome::ProvedAll => f.write_str("proved all"),
            AttemptOutcome::ProvedSome => f.write_str("proved some"),
            AttemptOutcome::Failed(None) => f.write_str("failed"),
            AttemptOutcome::Failed(Some(why)) => write!(f, "failed: {why}"),
            AttemptOutcome::Cancelled => f.write_str("cancelled"),
            AttemptOutcome::Error(e) => write!(f, "error: {e}"),
        }
    }
}

impl Serialize for AttemptOutcome {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Where and how an assertion was decided.
#[derive(Clone, Debug, Serialize)]
pub struct AssertionHistory {
    pub assertion: u32,
    /// The node that proved it, per calling context (`None`: not proven in that context).
    pub proved_in: Vec<Option<String>>,
    /// Runs of X that included it.
    pub attempts: usize,
}

#[derive(Clone, Debug)]
pub struct GambleResult {
    pub result: EngineResult,
    pub attempts: Vec<Attempt>,
    pub history: Vec<AssertionHistory>,
    /// Which run found `result.violation` (e.g. `the whole program (early start)`), for the
    /// report; the driver names it when the violation contradicts a proof.
    pub violation_found_by: Option<String>,
}

impl GambleResult {
    pub fn proved_in(&self, a: AssertionId) -> Option<String> {
        let h = self.history.iter().find(|h| h.assertion == a.0)?;
        let names: Vec<&str> = h
            .proved_in
            .iter()
            .map(|p| p.as_deref())
            .collect::<Option<Vec<_>>>()?;
        let mut names: Vec<&str> = names;
        names.dedup();
        Some(names.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON report's `attempts[].outcome` is the text a reader sees, as it always was.
    #[test]
    fn attempt_outcomes_serialise_as_their_text() {
        let cases = [
            (AttemptOutcome::ProvedAll, "proved all"),
            (AttemptOutcome::ProvedSome, "proved some"),
            (AttemptOutcome::Failed(None), "failed"),
            (
                AttemptOutcome::Failed(Some("bound too small".into())),
                "failed: bound too small",
            ),
            (AttemptOutcome::Cancelled, "cancelled"),
            (
                AttemptOutcome::Error("no such node".into()),
                "error: no such node",
            ),
        ];
        for (outcome, text) in cases {
            assert_eq!(outcome.to_string(), text);
            assert_eq!(serde_json::to_value(&outcome).ok(), Some(text.into()));
        }
    }
}
