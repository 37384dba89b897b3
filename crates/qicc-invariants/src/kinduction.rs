//! k-induction strengthened by the proven invariants, for the assertions Houdini's final
//! round leaves open.
//!
//! For `k = 2, 3, …` up to [`MAX_K`]: the prepared program with every innermost loop
//! unrolled for a `k`-induction step (`qicc_analysis::unroll_for_induction`: `k - 1` peeled
//! iterations checked from the loop's entry, then from any state satisfying the proven
//! invariants `k - 1` iterations with the assertions assumed and one with them checked), cut
//! at every head with the proven invariants assumed, goes to the BMC; the assertions it
//! proves safe are proven for the program (the unrolling's docs give the argument). An
//! assertion proven at some `k` stays proven; the search stops when every assertion is, at
//! `MAX_K`, or when the budget runs out.

use crate::Proof;
use qicc_analysis::{cut_loops, unroll_for_induction, CutMode};
use qicc_bmc::BmcOptions;
use qicc_engine::{AssertionStatus, Budget};
use qicc_ir::{AssertionId, Program};

/// The largest `k` tried.
pub const MAX_K: usize = 8;

/// What k-induction added: the assertions proven, and the largest `k` that proved one.
pub struct Induction {
    pub safe: Vec<AssertionId>,
    pub k: Option<usize>,
}

/// k-induction on `p` with the invariants of `proof` (see the module docs); `proof.safe`
/// are already proven and not asked again.
pub fn prove(p: &Program, proof: &Proof, budget: &Budget) -> Induction {
    let prep = &proof.invariants.prepared;
    let innermost: Vec<usize> = (0..prep.loops.len())
        .filter(|&i| {
            let l = &prep.loops[i];
            !prep.loops.iter().any(|o| {
                o.func == l.func && o.head != l.head && l.locs.binary_search(&o.head).is_ok()
            })
        })
        .collect();
    let mut out = Induction {
        safe: Vec::new(),
        k: None,
    };
    if innermost.is_empty() {
        return out;
    }
    let open = |out: &Induction| -> Vec<AssertionId> {
        (0..p.assertions.len() as u32)
            .map(AssertionId)
            .filter(|a| !proof.safe.contains(a) && !out.safe.contains(a))
            .collect()
    };
    let opts = BmcOptions {
        all_violations: true,
        ..Default::default()
    };
    for k in 2..=MAX_K {
        if open(&out).is_empty() || budget.exhausted().is_some() {
            break;
        }
        let unrolled = unroll_for_induction(prep, &innermost, k);
        let cut = cut_loops(&unrolled, &proof.invariants.proven, CutMode::Assume);
        let r = qicc_bmc::verify(&cut.program, &opts, budget);
        if budget.exhausted().is_some() {
            break;
        }
        for a in open(&out) {
            let safe = r
                .statuses
                .iter()
                .any(|(x, s)| *x == a && *s == AssertionStatus::Safe);
            if safe {
                out.safe.push(a);
                out.k = Some(k);
            }
        }
    }
    out
}
