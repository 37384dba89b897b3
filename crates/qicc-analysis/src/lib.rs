//! Graph analyses on qicc's control-flow automata, the Region Nesting Tree, and region
//! extraction — the front half of Qicc (Akhundov et al., *Verification by Gambling on Program
//! Slices*, Sec. 2 and 3.1).
//!
//! - [`graph`]: the one control-flow analysis per function — reachability, reverse
//!   post-order, dominators, back edges, reducibility, SCCs and their entry points
//!   (petgraph's algorithms on the reachable part of the automaton), and its loops.
//! - [`loops`]: the loop nesting forest (every cycle, irreducible too) and natural loops.
//! - [`loop_procs`]: loops as tail-recursive procedures (Corral's view of loops).
//! - [`mod@error_flag`]: Corral's error flag (every assertion reported at the entry's end).
//! - [`modset`]: what a call may change (globals, memory, the object table), transitively.
//! - [`reach`]: interprocedural reachability (which edges a run can reach; from where an
//!   error or the exit can be reached).
//! - [`region`]: the intraprocedural nesting of cyclic regions (Alg. 1 and 2), with
//!   irreducible cycles noted instead of made into regions. (The paper's cyclic region of one
//!   back edge is a natural loop of [`loops`].)
//! - [`rnt`]: the interprocedural Region Nesting Tree (Fig. 1), innermost nodes of assertions.
//! - [`render`]: the tree as indented text and as Graphviz.
//! - [`mod@extract`]: a node of the tree as a standalone program whose entry state is arbitrary
//!   (Theorem 1 is argued there).
//! - [`liveness`]: which locals a region may read before writing them.
//!
//! Every function here expects a program that passes `qicc_ir::verify_program`.

pub mod error_flag;
pub mod extract;
pub mod graph;
pub mod liveness;
pub mod loop_cut;
pub mod loop_procs;
pub mod loops;
pub mod modset;
pub mod reach;
pub mod region;
pub mod render;
pub mod rnt;

pub use error_flag::{error_flag, ErrorFlagged};
pub use extract::{extract, ExtractError, Extracted};
pub use graph::{FunctionGraph, Scc};
pub use loop_cut::{
    add_ghosts, assert_at_heads, cut_loops, record_at_heads, unroll_for_induction, Cut, CutMode,
    LoopInfo, Prepared,
};
pub use loop_procs::loops_to_procedures;
pub use loops::{ForestLoop, LoopForest, NaturalLoop};
pub use modset::{mod_sets, ModSet};
pub use region::{FunctionRegions, Region};
pub use render::assertion_str;
pub use rnt::{build_rnt, NodeId, NodeKind, RegionId, Rnt, RntNode};
