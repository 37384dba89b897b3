//! The qicc intermediate representation.
//!
//! One data structure — a [`Program`] of per-function control-flow automata over bit-vector
//! (and IEEE float, held as bits: [`Ty::Float`], [`FpOp`]) variables and a byte-addressed
//! memory — and everything needed to read, write and check it:
//! a text format ([`print`], [`parse`]), Graphviz output ([`dot`]), a well-formedness check
//! ([`verify`]), the concrete meaning of every operator ([`semantics`]) and the record of an
//! execution's nondeterministic choices that engines hand back and the interpreter replays
//! ([`witness`]). Every other qicc crate consumes or produces this IR; nothing here knows
//! about C or about solvers.

pub mod debug;
pub mod dot;
pub mod expr;
pub mod memory;
pub mod parse;
pub mod print;
pub mod program;
pub mod property;
pub mod semantics;
pub mod types;
pub mod verify;
pub mod witness;

pub use debug::{DebugTypeId, DebugTypes};
pub use expr::{Access, BinOp, CastOp, Expr, FpOp, RoundingMode, TypeEnv, UnOp, VarRef};
pub use parse::{parse_program, ParseError};
pub use print::{expr_str, op_str, print_function, print_program};
pub use program::*;
pub use types::{DataModel, MemoryLayout, Ty};
pub use verify::verify_program;
pub use witness::Witness;

/// `name` with every character outside `[A-Za-z0-9_]` replaced by `_`, never starting with a
/// digit and never empty: a C identifier, and a part of an IR name.
pub fn c_identifier(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'v');
    }
    s
}
