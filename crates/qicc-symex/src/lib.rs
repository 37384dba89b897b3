//! qicc's symbolic execution: IR programs as terms over a symbolic state, shared by every
//! engine that asks a solver about executions (the BMC, Corral).
//!
//! What this crate owns, and the one home of each:
//! - `state`: the symbolic state (locals, globals, memory, object table, guard) and how two
//!   states merge at a join point;
//! - `memory`: the memory model, the IR's memory rules (`qicc_ir::memory`) as array terms;
//! - `encode`: expressions over a state (a view of `qicc_smt::ir`, the one IR→term encoder);
//! - `cfa`: what symex asks about each function (the shared control-flow analysis of
//!   `qicc-analysis` and the interprocedural relevance of each location);
//! - `symex`: the unwinding itself, with the bounds and the cuts where it stopped;
//! - `evaluate`: open calls with constant inputs and one result, evaluated by the
//!   interpreter instead of being left open;
//! - `trace` and `replay`: the record of a run that turns a solver model back into a
//!   concrete path, and the interpreter replay that is the judge of every counterexample;
//! - `solving`: checks within the budget, model values and hits, a model made a replayed
//!   violation (with the re-query for one without signed overflow);
//! - `findings`: what an engine found, and the one rule that turns it into statuses;
//! - `worker`: the thread an engine runs on (a deep stack) and the watcher that interrupts
//!   the solver when the budget runs out.
//!
//! Invariants every engine relies on: guards of the steps leaving one trace instance are
//! exclusive (a model picks one path); a path symex stops short of the program's end is
//! recorded as a cut, never dropped silently (a proof needs every cut unreachable); a
//! counterexample counts only if `replay` reproduces it on the interpreter.

pub mod cfa;
pub mod encode;
pub mod error;
pub mod evaluate;
pub mod findings;
pub mod memory;
pub mod replay;
pub mod solving;
pub mod state;
pub mod symex;
pub mod trace;
pub mod worker;

pub use cfa::FnInfo;
pub use error::SymexError;
pub use evaluate::CallEvaluator;
pub use findings::Findings;
pub use memory::MemModel;
pub use solving::{ProgressFn, Solving, SolvingOptions};
pub use symex::{schedule, Alone, Bounds, CallMode, Cut, CutReason, Encoding, ErrorHit, OpenCall};
