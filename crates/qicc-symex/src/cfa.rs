//! What symbolic execution asks about each function: the shared control-flow analysis of
//! `qicc-analysis` (reverse post-order, the loop nesting forest that also bounds irreducible
//! loops, successor lists) and the interprocedural relevance of each location (can an error
//! still be reached from it?). Computed once per program when an engine starts.
//!
//! Symex relies on the forest's invariants (`qicc_analysis::loops`): loops nest, every cycle
//! takes a back edge (an edge that enters a header from inside its loop, i.e. retreats in
//! reverse post-order), and a header heads exactly one loop.

use qicc_analysis::reach::Relevance;
use qicc_analysis::{mod_sets, ForestLoop, FunctionGraph, ModSet};
use qicc_ir::{EdgeId, Loc, Program};

/// Everything symex asks about one function.
#[derive(Clone, Debug)]
pub struct FnInfo {
    pub flow: FunctionGraph,
    /// Whether an `error` edge can be reached from each location within this activation
    /// (through calls too); symex drops a state from which no error can be reached — neither in
    /// its own activation nor after it returns to a caller that can still reach one — since no
    /// extension of it can violate anything. Such paths need no unwinding either.
    pub err_from: Vec<bool>,
    /// Whether the function's `exit` can be reached from each location.
    pub exit_from: Vec<bool>,
    /// What a call of the function may change (its default summary havocs exactly this).
    pub modset: ModSet,
}

impl FnInfo {
    /// The information of every function of `p`, by function id.
    pub fn of_program(p: &Program) -> Vec<FnInfo> {
        let rel = Relevance::new(p);
        p.functions
            .iter()
            .zip(rel.err_from)
            .zip(rel.exit_from)
            .zip(mod_sets(p))
            .map(|(((f, err_from), exit_from), modset)| FnInfo {
                flow: FunctionGraph::new(f),
                err_from,
                exit_from,
                modset,
            })
            .collect()
    }

    /// Position of a location in reverse post-order (`u32::MAX`: unreachable).
    pub fn rpo(&self, l: Loc) -> u32 {
        self.flow.rpo_pos[l.index()]
    }

    /// Outgoing edges of a location, in edge order.
    pub fn succ(&self, l: Loc) -> &[EdgeId] {
        self.flow.successors(l)
    }

    pub fn loops(&self) -> &[ForestLoop] {
        &self.flow.forest.loops
    }

    /// Loops containing a location, outermost first (indices into `loops`).
    pub fn chain(&self, l: Loc) -> &[u32] {
        &self.flow.forest.chain[l.index()]
    }

    /// The loop a location heads, if it is a header.
    pub fn header_of(&self, l: u32) -> Option<u32> {
        self.flow
            .forest
            .header_of
            .get(l as usize)
            .copied()
            .flatten()
    }

    pub fn common_loops(&self, a: Loc, b: Loc) -> usize {
        self.flow.forest.common_loops(a, b)
    }

    pub fn back_edge_loop(&self, from: Loc, to: Loc) -> Option<u32> {
        self.flow.forest.back_edge_loop(from, to)
    }
}
