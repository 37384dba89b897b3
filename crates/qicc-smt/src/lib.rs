//! qicc's solver interface.
//!
//! Engines build formulas in a [`TermStore`]: a hash-consed DAG of terms over Booleans,
//! bit-vectors (1–64 bits, the IR's widths) and arrays from bit-vectors to bit-vectors, with
//! the bit-vector operators of the IR (SMT-LIB `QF_BV`, which `qicc_ir::semantics` matches
//! exactly), `ite`, extract/concat/extensions, `select`/`store`, constant arrays and lambdas
//! (array-valued terms `λi. body`, used for memory after `memset`/`memcpy` and for initial
//! memory). Floats are bit-vectors of their IEEE bits, as in the IR; float operations
//! ([`TermStore::fp`]) mean `qicc_ir::semantics::float` and reach Z3's floating-point theory.
//!
//! Every constructor simplifies before it stores (see `build_bool`, `build_bv`,
//! `build_array`): constants fold through `qicc_ir::semantics`, neutral elements vanish,
//! `ite` with a known condition picks its branch, and reads of memory resolve through stores
//! at syntactically known addresses. This is what makes bounded model checking of loops with
//! concrete counters cheap: the unrolled loop folds to constants before any solver sees it.
//!
//! [`ir`] is the one translation of IR expressions into terms; engines supply how the state
//! (variables, memory) is read.
//!
//! A [`Solver`] checks satisfiability of terms. [`Z3Solver`] and [`BitwuzlaSolver`] are the
//! back-ends, the only code that names a solver; both translate float nodes through the one
//! encoding in `fp_encode`. Engines make solvers through [`SmtSolver`], which is the back-end
//! the process chose (`qicc verify --solver`, `QICC_SOLVER`; see `backend`). A solver caches
//! translations by term id, so one solver serves one store for its whole life.
//! [`CheckMode::FreshPerCheck`] (a new solver instance per check, sharing translations) is what
//! bounded model checking wants: the solver then preprocesses and bit-blasts each query whole,
//! which on the seed benchmarks answered 10–100× faster than one incremental Z3 solver.
//!
//! Reads through short store chains become `ite`s (the object table stays out of the array
//! theory); operators on values merged from a few constants are pushed into the `ite`
//! (a merged flag or counter stays foldable); comparisons against constants use a cheap
//! unsigned range of the other side (`x % 13 < 13`).
//!
//! Some simplifications and `select` recurse on the depth of array `ite`s, which grows with
//! the number of join points of an unrolled program: callers building very deep DAGs run on
//! a thread with a large stack (the BMC engine uses 1 GiB of reserved stack). [`smtlib::script`] prints any query as SMT-LIB 2.6, which is also the
//! seam for a future child-process back-end (cvc5, a standalone z3) that engines would use
//! through the same trait; [`smtlib::read`] reads such a script back. [`eval()`](eval::eval) is the reference evaluator the tests hold
//! the simplifier and the back-end to.

mod backend;
mod bitwuzla;
mod build_array;
mod build_bool;
mod build_bv;
mod build_fp;
pub mod corpus;
pub mod eval;
mod fp_encode;
pub mod ir;
pub mod smtlib;
mod solver;
mod store;
mod term;
mod z3;

pub use backend::{
    checks_answered, set_solver_kind, solver_kind, CheckMode, SmtSolver, SolverKind,
    DEFAULT_SOLVER, SOLVER_ENV,
};
pub use bitwuzla::BitwuzlaSolver;
pub use build_bv::{eval_bv_bin, eval_bv_cmp, eval_bv_un};
pub use solver::{CheckResult, InterruptHandle, ModelValue, Solver};
pub use store::{catch_stop, Stopped, StoreMark, TermStore};
pub use term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
pub use z3::Z3Solver;
