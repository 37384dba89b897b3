//! k-induction (`qicc_invariants::kinduction`) at the seam: given what Houdini proved (here
//! nothing, so that the induction alone has to carry the proof), it proves an assertion that
//! is 2-inductive but not 1-inductive, and never one that can fail.

mod common;

use qicc_analysis::add_ghosts;
use qicc_engine::Budget;
use qicc_ir::AssertionId;
use std::time::Duration;

/// `s` cycles 0, 1, 2. From an arbitrary state one iteration can end at any value (`s = 7`
/// goes to 8), but two iterations whose first ends below 3 also end below 3.
const CYCLE: &str = "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned int s = 0;
  while (__VERIFIER_nondet_int()) {
    if (s == 0) s = 1;
    else if (s == 1) s = 2;
    else if (s == 2) s = 0;
    else s = s + 1;
    __VERIFIER_assert(s < 3);
  }
  return 0;
}
";

/// The same with a bug in the third iteration: the peeled iterations must find it.
fn cycle_bug() -> String {
    CYCLE.replace("else if (s == 2) s = 0;", "else if (s == 2) s = 3;")
}

/// Houdini with no candidates at all, then k-induction.
fn induction(src: &str) -> (Vec<AssertionId>, Option<usize>, Vec<AssertionId>) {
    let p = common::lower_ilp32("k.c", src);
    let budget = Budget::with_timeout(Duration::from_secs(60));
    let prep = add_ghosts(&p);
    let none = vec![Vec::new(); prep.loops.len()];
    let proof = qicc_invariants::houdini(&p, prep, none, &budget).expect("Houdini finishes");
    let ind = qicc_invariants::kinduction::prove(&p, &proof, &budget);
    (ind.safe, ind.k, proof.safe)
}

#[test]
fn a_two_inductive_assertion_is_proven_at_k_2() {
    let (safe, k, houdini) = induction(CYCLE);
    let a = AssertionId(0);
    assert!(!houdini.contains(&a), "1-induction alone cannot prove it");
    assert!(safe.contains(&a), "k-induction proves it");
    assert_eq!(k, Some(2));
}

#[test]
fn a_violation_in_the_first_iterations_is_never_proven() {
    let bug = cycle_bug();
    assert_ne!(bug, CYCLE);
    let (safe, _, houdini) = induction(&bug);
    assert!(!safe.contains(&AssertionId(0)));
    assert!(!houdini.contains(&AssertionId(0)));
}
