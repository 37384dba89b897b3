//! The contract between qicc's verification engines and their callers.
//!
//! An engine (bounded model checking, Qicc's region gambling, loop acceleration, an external
//! verifier) takes a [`qicc_ir::Program`] and a [`Budget`], and answers with an
//! [`EngineResult`]: a status per assertion, at most one violation with the [`Witness`] that
//! produced it, and the reason whenever the answer is not conclusive. Engines never report a
//! violation they have not replayed on the program they were given; turning a result into a
//! user-facing verdict (and replaying again on the original program) is the driver's job.

use qicc_interp::Witness;
use qicc_ir::AssertionId;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A cancellation flag shared between a caller and the engines it runs (Ctrl-C, a sibling
/// that already answered, a result that is no longer needed). A child token reads as
/// cancelled when it or any of its ancestors is.
#[derive(Clone, Debug)]
pub struct CancelToken {
    /// This token's own flag first, then its ancestors' flags.
    flags: Vec<Arc<AtomicBool>>,
}

impl Default for CancelToken {
    fn default() -> Self {
        CancelToken::new()
    }
}

impl CancelToken {
    pub fn new() -> CancelToken {
        CancelToken { flags: vec![Arc::new(AtomicBool::new(false))] }
    }

    /// A token cancelled by its own `cancel` or by this one's.
    pub fn child(&self) -> CancelToken {
        let mut flags = vec![Arc::new(AtomicBool::new(false))];
        flags.extend(self.flags.iter().cloned());
        CancelToken { flags }
    }

    pub fn cancel(&self) {
        self.flags[0].store(true, Ordering::SeqCst)
    }

    pub fn is_cancelled(&self) -> bool {
        self.flags.iter().any(|f| f.load(Ordering::SeqCst))
    }
}

/// How long an engine may run, and the token that stops it early.
#[derive(Clone, Debug)]
pub struct Budget {
    pub deadline: Option<Instant>,
    pub cancel: CancelToken,
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget { deadline: None, cancel: CancelToken::new() }
    }

    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget { deadline: Some(Instant::now() + timeout), cancel: CancelToken::new() }
    }

    /// Time left, if there is a deadline (zero once it has passed).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Why the engine must stop now, if it must.
    pub fn exhausted(&self) -> Option<StopReason> {
        if self.cancel.is_cancelled() {
            Some(StopReason::Cancelled)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(StopReason::Timeout)
        } else {
            None
        }
    }

    /// A budget ending at the earlier of this deadline and `timeout` from now, with a child
    /// cancel token (cancelling it does not cancel this budget).
    pub fn child(&self, timeout: Option<Duration>) -> Budget {
        let deadline = match (self.deadline, timeout.map(|t| Instant::now() + t)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Budget { deadline, cancel: self.cancel.child() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StopReason {
    Timeout,
    Cancelled,
}

impl StopReason {
    pub fn describe(self) -> &'static str {
        match self {
            StopReason::Timeout => "time limit reached",
            StopReason::Cancelled => "cancelled",
        }
    }
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
}

/// The answer of one engine run.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct EngineResult {
    /// One entry per assertion of the program, in assertion order.
    pub statuses: Vec<(AssertionId, AssertionStatus)>,
    /// The first violation found, with the oracle answers that reach it.
    pub violation: Option<(AssertionId, Witness)>,
    /// Why the result is not conclusive, if it is not.
    pub reason: Option<String>,
    /// Engine-specific figures (bound reached, solver time, ...) for the report.
    pub stats: Vec<(String, serde_json::Value)>,
}
