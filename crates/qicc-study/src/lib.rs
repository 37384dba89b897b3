//! The Qicc paper's systematic study (Sec. 4.2–4.3, Table 1) as a generator and a benchmark.
//!
//! - [`kernels`]: loop-free SV-COMP kernels, each a fact, an assertion and an unsafe twin;
//!   and the `loops` suite (`loop_kernels`): kernels whose fact is a loop needing a
//!   relational, polynomial or array invariant;
//! - [`structures`]: wrapping a kernel in the synthetic loops of Fig. 7 with small, large and
//!   arbitrary bounds — 34 scenarios per kernel — as complete C files;
//! - [`task`]: the SV-COMP task files and the directory layout;
//! - [`run`]: `qicc verify` as a child process with a hard time limit, in parallel;
//! - [`table`]: Table 1, median times and the wrong-verdict report.
//!
//! The binary `qicc-study` wires these together (`generate`, `table`, `list`).

pub mod kernels;
mod loop_kernels;
pub mod run;
pub mod structures;
pub mod table;
pub mod task;

pub use kernels::Kernel;
pub use structures::{generate, scenarios, shapes, Bound, Bounds, Scenario, Structure};
