//! A run started before the contexts climb to it (at once for the whole program,
//! `GambleOptions::early_root`, or speculatively) settles every context below it with its
//! proof: the runs on regions and functions still going are cancelled, not waited for. Here (without interval facts) neither the
//! loop's region nor `f` nor `g` can be proven (from an arbitrary entry the loop is
//! unbounded, so their runs deepen until their time limit, and with two runs at a time they
//! would hold both until then), while the program itself unwinds completely at bound 4.

use qicc_engine::{AssertionStatus, Budget};
use qicc_gamble::{AttemptOutcome, GambleOptions};
use std::time::Duration;

const SOURCE: &str = "\
extern void __VERIFIER_assert(int);
void f(int n) {
  unsigned s = 0;
  for (int i = 0; i < n; i++) {
    s += 2;
    __VERIFIER_assert(s % 2 == 0);
  }
}
void g(int n) {
  for (int k = 0; k < n; k++)
    f(n);
}
int main(void) {
  g(3);
  return 0;
}
";

#[test]
fn a_proof_of_the_whole_program_settles_the_regions_below_it() {
    let opts = qicc_frontend::Options::default();
    let lowered = qicc_frontend::lower_source("t.c", SOURCE, true, &opts)
        .unwrap_or_else(|d| panic!("the program lowers: {d}"));
    let p = lowered.program;
    let g = GambleOptions {
        jobs: 2,
        facts: false,
        // Long enough that waiting for a region run would show: the test's budget is less.
        region_timeout: Some(Duration::from_secs(600)),
        ..Default::default()
    };
    let r = qicc_gamble::verify(&p, &g, &Budget::with_timeout(Duration::from_secs(300)));
    let property = p
        .assertion_ids()
        .find(|a| p.assertion(*a).kind.is_property())
        .expect("the program has an assertion");
    let status = r.result.statuses.iter().find(|(a, _)| *a == property);
    assert_eq!(
        status.map(|(_, s)| s),
        Some(&AssertionStatus::Safe),
        "{:?}",
        r.attempts
    );
    let root = r
        .attempts
        .iter()
        .find(|a| a.node.starts_with("function main"))
        .unwrap_or_else(|| panic!("the whole program was run: {:?}", r.attempts));
    assert!(
        root.speculative,
        "started before the contexts climbed to it: {root:?}"
    );
    assert!(root.proved.contains(&property.0), "{root:?}");
    // Nothing ran to its time limit: what was still going when the proof came was cancelled.
    assert!(
        r.attempts.iter().all(|a| !matches!(
            &a.outcome,
            AttemptOutcome::Failed(Some(why)) if why.contains("time limit")
        )),
        "{:?}",
        r.attempts
    );
}
