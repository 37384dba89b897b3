//! Concrete execution of qicc IR programs.
//!
//! The interpreter is qicc's ground truth: the front-end is tested against gcc through it, and
//! every counterexample an engine finds is replayed through it on the original program before
//! qicc reports FALSE. All nondeterminism — `havoc`, bytes of memory never written, the number
//! of a fresh object, the choice between several enabled edges — is resolved by an [`Oracle`],
//! so that a run is a pure function of the oracle's answers, and [`Witness`] records them.

pub mod oracle;

pub use oracle::{AllocRequest, HavocRequest, Oracle, Witness};
