//! Concrete execution of qicc IR programs.
//!
//! The interpreter is qicc's ground truth: the front-end is tested against gcc through it, and
//! every counterexample an engine finds is replayed through it on the original program before
//! qicc reports FALSE. All nondeterminism — `havoc`, bytes of memory never written, the number
//! of a fresh object, the choice between several enabled edges — is resolved by an [`Oracle`],
//! so that a run is a pure function of the oracle's answers, and a [`qicc_ir::Witness`] records
//! them.
//!
//! - [`run`] / [`replay`] (or an [`Interpreter`] for many runs of one program) execute a
//!   program and return a [`Run`]: how it ended, its complete witness, and optionally every
//!   [`Step`].
//! - [`oracle`]: the oracle contract and [`RandomOracle`], [`InputOracle`], [`WitnessOracle`].
//! - [`trace`](trace()) turns a run into a readable [`Trace`] (text or JSON).
//!
//! A witness ([`qicc_ir::Witness`]) is the oracle's answers in the order the interpreter asks
//! for them; that order is the convention every engine's witness follows, written down with
//! the type in [`qicc_ir::witness`].
//!
//! Runs are fast enough for differential testing: about 25–45 million steps per second in a
//! release build on simple loops (`tests/speed.rs`).

mod eval;
mod exec;
mod init;
mod machine;
mod memory;
pub mod oracle;
mod pretty;
mod run;
pub mod trace;

pub use exec::{replay, run, Interpreter};
pub use oracle::{
    AllocRequest, HavocBytesRequest, HavocRequest, InputOracle, Oracle, RandomOracle, SplitMix64,
    WitnessOracle,
};
pub use run::{CallRun, Outcome, Run, RunConfig, Step, StepKind, StopCheck};
pub use trace::{trace, Trace, TraceInput, TraceStep};
