//! Why an unwinding could not be built or checked.

use qicc_engine::StopReason;
use qicc_ir::FuncId;
use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SymexError {
    /// The program uses something the encoding cannot represent faithfully.
    Unsupported(String),
    /// The budget ran out or the run was cancelled.
    Stopped(StopReason),
    /// The unwinding outgrew the run's share of the memory limit; `why` names the bound and
    /// the loop that was being unwound, `at` is that loop's function and the loops around
    /// it, outermost first, itself last (loop indices; empty outside any loop).
    TooLarge {
        why: String,
        at: Option<(FuncId, Vec<u32>)>,
    },
}

impl fmt::Display for SymexError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SymexError::Unsupported(m) => write!(f, "unsupported: {m}"),
            SymexError::Stopped(r) => write!(f, "{}", r.describe()),
            SymexError::TooLarge { why, .. } => f.write_str(why),
        }
    }
}
