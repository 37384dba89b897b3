//! Publishing proven invariants for engines running beside this one (`Invariants::publish`
//! into `qicc_engine::HeadFacts`): the prepared program keeps the original's local ids and
//! loop heads, so what Houdini proved without ghosts is a condition over the original at the
//! same (function, head); conditions over ghosts stay behind.

mod common;

use qicc_analysis::FunctionGraph;
use qicc_engine::{Budget, HeadFacts};
use qicc_ir::{Expr, FuncId, Program, VarRef};
use std::time::Duration;

/// An array walk (cell candidates over `ghost.cell`) and a counter related to its index
/// (candidates over entry-value ghosts), then a second loop reading the array.
const WALK: &str = "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[16];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 16) return 0;
  int i, j = 0;
  for (i = 0; i < n; i++) { a[i] = 3; j = j + 2; }
  for (int k = 0; k < n; k++) __VERIFIER_assert(a[k] == 3);
  __VERIFIER_assert(j == 2 * i);
  return 0;
}
";

fn program() -> Program {
    common::lower_ilp32("walk.c", WALK)
}

fn reads_a_ghost(prepared: &Program, func: FuncId, e: &Expr) -> bool {
    let f = prepared.function(func);
    e.vars().iter().any(|v| match v {
        VarRef::Local(l) => f.local(*l).name.starts_with("ghost."),
        VarRef::Global(_) => false,
    })
}

#[test]
fn the_prepared_program_keeps_the_original_ids_and_heads() {
    let p = program();
    let proof = qicc_invariants::prove(&p, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("Houdini finishes");
    let prep = &proof.invariants.prepared;
    assert_eq!(prep.program.functions.len(), p.functions.len());
    for (orig, f) in p.functions.iter().zip(&prep.program.functions) {
        // Ghosts only append: every original local keeps its id, name and type.
        assert_eq!(
            &f.locals[..orig.locals.len()],
            &orig.locals[..],
            "@{}",
            f.name
        );
        for extra in &f.locals[orig.locals.len()..] {
            assert!(extra.name.starts_with("ghost."), "{}", extra.name);
        }
        assert!(f.num_locs >= orig.num_locs);
        assert_eq!((f.exit, f.err, f.halt), (orig.exit, orig.err, orig.halt));
        // The cell ghost's havoc gets a new entry location in front of the old one.
        assert!(f.entry == orig.entry || f.entry.0 >= orig.num_locs);
    }
    assert_eq!(prep.loops.len(), 2);
    for l in &prep.loops {
        let heads: Vec<_> = FunctionGraph::new(p.function(l.func))
            .natural_loops
            .iter()
            .map(|n| n.head)
            .collect();
        assert!(
            heads.contains(&l.head),
            "L{} is a loop head of the original",
            l.head.0
        );
    }
}

#[test]
fn only_conditions_over_the_original_are_published() {
    let p = program();
    let proof = qicc_invariants::prove(&p, &Budget::with_timeout(Duration::from_secs(60)))
        .expect("Houdini finishes");
    let inv = &proof.invariants;
    let heads = HeadFacts::new();
    let kept = inv.publish(&p, &heads);
    let (mut with_ghost, mut without) = (0, 0);
    for (l, conds) in inv.prepared.loops.iter().zip(&inv.proven) {
        let expected: Vec<Expr> = conds
            .iter()
            .filter(|e| !reads_a_ghost(&inv.prepared.program, l.func, e))
            .cloned()
            .collect();
        with_ghost += conds.len() - expected.len();
        without += expected.len();
        assert_eq!(heads.at(l.func, l.head), expected, "at L{}", l.head.0);
    }
    assert_eq!(kept, without);
    // Both kinds were proven, so the test sees the filter at work.
    assert!(without > 0, "no condition over the original was proven");
    assert!(with_ghost > 0, "no condition over a ghost was proven");
}
