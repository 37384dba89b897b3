//! The verification pipeline behind the `qicc` command line.
//!
//! `qicc-driver` owns everything between "a path the user typed" and "a report": it loads a C
//! file or SV-COMP task through the front-end ([`input`]), runs the selected engine
//! ([`verify`]; several engines side by side with one rule for their answers: `portfolio`), replays every counterexample on the *original* program with the interpreter
//! (and natively, compiled with the system C compiler: `native`, combined in `confirm`)
//! before it may become a FALSE verdict, and assembles the [`report::Report`] that the CLI prints
//! as text or JSON, or [`sarif`] renders as a SARIF log. Invariant: a `Verdict::False` report
//! always carries a trace produced by a replay that reached a property assertion of the
//! program as the front-end lowered it — or, when the interpreter's replay could not finish (a
//! deep counterexample), the trace of its replay so far, with a native replay of the original
//! program that reached the error.

mod confirm;
pub mod input;
pub mod loop_heads;
mod native;
mod portfolio;
pub mod report;
pub mod sarif;
pub mod verify;
pub mod witness;

pub use input::{load, LoadOptions, Loaded};
/// The solver choice (`qicc verify --solver`), made once for the process.
pub use qicc_smt::{set_solver_kind, SolverKind};
pub use report::{AssertionReport, InternalError, Report, Verdict};
pub use verify::{abandoned_report, verify, Engine, NativeCompiler, OriginalFiles, VerifyOptions};
