//! The contract between qicc's verification engines and their callers.
//!
//! An engine (bounded model checking, Qicc's region gambling, loop acceleration, an external
//! verifier) takes a [`qicc_ir::Program`] and a [`Budget`], and answers with an
//! [`EngineResult`]: a status per assertion, at most one violation with the [`Witness`] that
//! produced it, and the reason whenever the answer is not conclusive. Engines never report a
//! violation they have not replayed on the program they were given; turning a result into a
//! user-facing verdict (and replaying again on the original program) is the driver's job.

use qicc_interp::{StopCheck, Witness};
use qicc_ir::AssertionId;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

pub mod memory;

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
}

impl Budget {
    pub fn unlimited() -> Budget {
        Budget {
            deadline: None,
            cancel: CancelToken::new(),
        }
    }

    pub fn with_timeout(timeout: Duration) -> Budget {
        Budget {
            deadline: Some(Instant::now() + timeout),
            cancel: CancelToken::new(),
        }
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

    /// The interpreter's view of this budget: a run stops once it is exhausted.
    pub fn stop_check(&self) -> StopCheck {
        let budget = self.clone();
        StopCheck::new(move || budget.exhausted().is_some())
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

impl EngineResult {
    /// The figure `key` of [`EngineResult::stats`], if it is there and a whole number.
    pub fn stat_u64(&self, key: &str) -> Option<u64> {
        self.stats
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_u64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        };
        assert_eq!(budget.exhausted(), Some(StopReason::MemoryLimit));
        // Cancelling a child leaves its parent alone.
        let other = CancelToken::new();
        other.child().cancel();
        assert!(!other.is_cancelled());
    }
}
