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
//! - **Facts at region heads** (the paper's future work, see [`inject`]).
//!
//! Invariants: an assertion is `Safe` only if some run of X proved it in an ancestor-or-self of
//! each of its innermost nodes; a `Violated` status and its witness only ever come from the root
//! (the original program with some assertions disabled), and the witness is the one X replayed.

pub mod backend;
pub mod inject;
mod schedule;

pub use backend::{Backend, BuiltinOptions};
pub use schedule::verify;

use qicc_engine::EngineResult;
use qicc_ir::AssertionId;
use serde::Serialize;
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
    /// Start a parent while its child still runs when a worker is idle.
    pub speculate: bool,
    /// Report every violated assertion (at the root), not only the first.
    pub all_violations: bool,
    pub progress: Option<Progress>,
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
            speculate: true,
            all_violations: false,
            progress: None,
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
    /// `proved all`, `proved some`, `failed`, `timeout`, `cancelled`, `error: ...`.
    pub outcome: String,
    pub time_ms: u64,
    /// Time X spent in its solver, when X reports it.
    pub solver_ms: Option<u64>,
    pub speculative: bool,
    /// The facts assumed at the head, if any.
    pub facts: Option<String>,
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
