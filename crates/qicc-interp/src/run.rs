//! What a run is and how it ended: the public record types of the interpreter.

use qicc_ir::{AssertionId, EdgeId, FuncId, Loc, Program, VarRef, Witness};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::sync::Arc;
use std::time::Instant;

/// Asked with the deadline (every 1024 steps) whether the run must stop: the caller's
/// cancellation (Ctrl-C, an answer found elsewhere, a memory limit). The interpreter sits
/// below the engine contract, so it takes the question as a closure.
#[derive(Clone)]
pub struct StopCheck(Arc<dyn Fn() -> bool + Send + Sync>);

impl StopCheck {
    pub fn new(f: impl Fn() -> bool + Send + Sync + 'static) -> StopCheck {
        StopCheck(Arc::new(f))
    }

    pub fn should_stop(&self) -> bool {
        (self.0)()
    }
}

impl fmt::Debug for StopCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StopCheck")
    }
}

/// Limits and options of one run.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// Edges a run may take before it stops with [`Outcome::StepLimit`].
    pub max_steps: u64,
    /// Frames above the entry function's a run may hold (deeper: unreplayable).
    pub max_call_depth: u32,
    /// Keep every [`Step`] in [`Run::steps`].
    pub record_trace: bool,
    /// Checked every 1024 steps; passing it makes the run unreplayable.
    pub deadline: Option<Instant>,
    /// Checked with the deadline; stopping makes the run unreplayable ("stopped").
    pub stop: Option<StopCheck>,
}

impl Default for RunConfig {
    fn default() -> Self {
        RunConfig {
            max_steps: 50_000_000,
            max_call_depth: 100_000,
            record_trace: false,
            deadline: None,
            stop: None,
        }
    }
}

/// The record of one activation run alone ([`crate::Interpreter::call`]).
#[derive(Clone, Debug)]
pub struct CallRun {
    pub outcome: Outcome,
    /// The globals when the run ended.
    pub globals: Vec<u64>,
    /// No uninitialised value was read and no signed operation overflowed.
    pub clean: bool,
    pub step_count: u64,
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// An `error #k` edge was taken (any kind, undefined behaviour included).
    ErrorReached {
        assertion: AssertionId,
    },
    /// The entry function returned (the value of its `ret` local).
    Returned {
        value: Option<u64>,
    },
    /// A `halt` edge was taken.
    Halted {
        code: Option<u64>,
    },
    /// No edge was enabled at this location (e.g. an assumption failed).
    Blocked {
        func: FuncId,
        loc: Loc,
    },
    StepLimit,
    /// The run cannot go on faithfully: an impossible or exhausted oracle answer, no object
    /// number left, an object too large for the memory model, call depth or deadline
    /// exceeded, an ill-formed program. Never evidence about the program.
    Unreplayable(String),
}

impl Outcome {
    /// The run stopped at a `valid-memtrack` check where no heap object is lost (the
    /// interpreter blocks there: `qicc_ir::memory`, "Memory tracking"): the program ended
    /// without violating the property.
    pub fn ended_without_leak(&self, p: &Program) -> bool {
        let Outcome::Blocked { func, loc } = self else {
            return false;
        };
        let Some(f) = p.functions.get(func.index()) else {
            return false;
        };
        let mut out = f.edges.iter().filter(|e| e.from == *loc);
        matches!(
            (out.next().map(|e| &e.op), out.next()),
            (Some(qicc_ir::Op::Error(a)), None)
                if matches!(
                    p.assertions.get(a.index()).map(|x| x.kind),
                    Some(qicc_ir::AssertKind::Memory(
                        qicc_ir::MemProp::Memtrack | qicc_ir::MemProp::MemtrackAtHalt
                    ))
                )
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::ErrorReached { assertion } => write!(f, "error {assertion} reached"),
            Outcome::Returned { value: Some(v) } => write!(f, "returned {v}"),
            Outcome::Returned { value: None } => write!(f, "returned"),
            Outcome::Halted { code: Some(c) } => write!(f, "halted with code {c}"),
            Outcome::Halted { code: None } => write!(f, "halted"),
            Outcome::Blocked { func, loc } => write!(f, "blocked in {func} at {loc}"),
            Outcome::StepLimit => write!(f, "step limit reached"),
            Outcome::Unreplayable(why) => write!(f, "unreplayable: {why}"),
        }
    }
}

/// What a [`Step`] records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepKind {
    /// The edge was taken.
    Edge,
    /// The callee of the call edge `edge` (in `func`) returned: `written` is the call's
    /// destination, `operands` the returned value (if the callee has a `ret` local).
    Return,
}

/// One step of a recorded run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    pub func: FuncId,
    pub edge: EdgeId,
    /// Frames above the entry function's when the step was taken (entry: 0).
    pub depth: u32,
    /// The variable the step assigned and its new value.
    pub written: Option<(VarRef, u64)>,
    /// A `store`: address, byte count, value.
    pub stored: Option<(u64, u32, u64)>,
    /// A havoc's value (already cut to the variable's width).
    pub input: Option<u64>,
    pub kind: StepKind,
    /// Values of the operation's operands, for operations whose effect the other fields do
    /// not show: call arguments; `alloc` size; `free` address; `memcpy` dst, src, len;
    /// `memset` dst, byte, len; `halt` code; for [`StepKind::Return`] the returned value.
    pub operands: Vec<u64>,
    /// The edge is a `nowrap` whose condition failed: a signed overflow.
    #[serde(default)]
    pub overflow: bool,
}

/// The result of one run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    pub outcome: Outcome,
    /// Every oracle answer the run used; replays the run exactly.
    pub witness: Witness,
    /// Every step, when [`RunConfig::record_trace`] was set.
    pub steps: Vec<Step>,
    /// Edges taken.
    pub step_count: u64,
    /// Some value the run used came from uninitialised memory or an `uninit` havoc, or the
    /// program called an undefined (`extern`) function.
    pub read_uninit: bool,
    /// The first signed overflow of the run (a `nowrap` edge whose condition failed): the
    /// run computed on with wrap-around, which C does not define.
    pub signed_overflow: Option<(FuncId, EdgeId)>,
}
