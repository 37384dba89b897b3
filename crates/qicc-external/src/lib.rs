//! qicc IR as standalone SV-COMP C files, and external verifiers as Qicc's X.
//!
//! - [`emit`]: [`emit_c`] turns an IR program (typically a region extracted by
//!   `qicc_analysis::extract`) into one C file with exactly its behaviour, for any SV-COMP
//!   verifier; [`emit_c_with_map`] also says which line holds which assertion's site;
//!   `function` emits one IR function.
//! - [`cexpr`]: IR types and expressions in C, with SMT-LIB's meaning and no undefined
//!   behaviour; `runtime`: the IR's memory model in C; [`names`]: C identifiers.
//! - [`tools`]: CBMC, ESBMC and Ultimate Automizer: finding them and their command lines.
//! - [`process`]: running a tool in its own process group under a [`qicc_engine::Budget`].
//! - [`report`]: reading each tool's output back into per-assertion statuses.
//! - [`run`]: [`verify_external`], the engine: emit, run, read, answer an
//!   [`qicc_engine::EngineResult`].
//!
//! - [`witness`]: a tool's violation witness (SV-COMP 2.0) read back into nondet values.
//! - [`original`]: [`verify_original`], X on the user's own files with X's own options (the
//!   whole-program run a user of X would make), beside the runs on emitted regions.
//!
//! Soundness: an external tool's "safe" becomes `Safe` only when the tool says so for the
//! whole file (or for that assertion's sites) with a complete unwinding; a violation the tool
//! reports becomes `Violated` only with a witness of qicc's own: the tool's witness replayed
//! by the interpreter to a property assertion (and then again by the driver, as every
//! engine's witness); otherwise it is `Unknown`, the assertion listed as unconfirmed.

pub mod cexpr;
pub mod emit;
mod function;
pub mod names;
pub mod original;
pub mod process;
pub mod report;
pub mod run;
mod runtime;
pub mod tools;
pub mod witness;

pub use emit::{emit_c, emit_c_with_map, EmitError, EmitOptions, EmittedC, ErrorSpelling};
pub use original::{runs_on_original, verify_original};
pub use run::verify_external;
pub use tools::{find_tool, ExternalBackend, Tool};
