//! Concrete execution of qicc IR programs.
//!
//! The interpreter is qicc's ground truth: the front-end is tested against gcc through it, and
//! every counterexample an engine finds is replayed through it on the original program before
//! qicc reports FALSE. All nondeterminism — `havoc`, bytes of memory never written, the number
//! of a fresh object, the choice between several enabled edges — is resolved by an [`Oracle`],
//! so that a run is a pure function of the oracle's answers, and [`Witness`] records them.
//!
//! - [`run`] / [`replay`] (or an [`Interpreter`] for many runs of one program) execute a
//!   program and return a [`Run`]: how it ended, its complete witness, and optionally every
//!   [`Step`].
//! - [`oracle`]: the oracle contract and [`RandomOracle`], [`InputOracle`], [`WitnessOracle`].
//! - [`trace`](trace()) turns a run into a readable [`Trace`] (text or JSON).
//!
//! Conventions an engine must follow for its witnesses to replay (they are the order in
//! which the interpreter asks the oracle):
//! - Havocs, in execution order: first every global without initialiser (global order, kind
//!   `uninit`, no site), then the entry function's parameters (parameter order, `uninit`), then
//!   the `havoc` edges as they are taken. Only the low bits of the variable's width are used
//!   (and recorded).
//! - Bytes: memory is a total map; a byte never written and not given by a static object's
//!   initialiser (or zero fill) is the oracle's byte for that address, one value per address
//!   for the whole run (also after `havoc_memory`, which forgets writes and initialisers but
//!   keeps the object table). Reads are never checked; stores always write, wrapping at the
//!   pointer width.
//! - Objects: `alloc` takes the oracle's number, or by default the lowest number that is
//!   neither static nor allocated before in this run; numbers are never reused.
//! - Choices: the index among the *enabled* edges (in edge order) of the location.
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
    Witness, WitnessOracle,
};
pub use run::{Outcome, Run, RunConfig, Step, StepKind, StopCheck};
pub use trace::{trace, Trace, TraceInput, TraceStep};
