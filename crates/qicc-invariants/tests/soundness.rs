//! Soundness of the loop invariants: Houdini never keeps a false candidate, and every
//! invariant it proves on a benchmark program holds on every head visit of random runs.

use qicc_analysis::{add_ghosts, assert_at_heads};
use qicc_engine::Budget;
use qicc_interp::{run, Outcome, RandomOracle, RunConfig};
use qicc_ir::{expr_str, parse_program, BinOp, Expr, LocalId, VarRef};
use std::time::Duration;

/// `i` counts from 0 to 10; the candidates mix true and false conditions at the head.
const COUNTER: &str = "qicc-ir 1
data-model ilp32
assertion #0 verifier_assert in @main \"i == 10\"
entry @main

fn @main() {
  local %i: i32
  locs 8 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %i := 0:i32
  L4 -> L5: assume slt(%i, 10:i32)
  L5 -> L4: %i := add(%i, 1:i32)
  L4 -> L6: assume sle(10:i32, %i)
  L6 -> L7: assume ne(%i, 10:i32)
  L7 -> L2: error #0
  L6 -> L1: assume eq(%i, 10:i32)
}
";

#[test]
fn false_candidates_are_dropped_true_ones_kept() {
    let p = parse_program(COUNTER).expect("parses");
    let prep = add_ghosts(&p);
    assert_eq!(prep.loops.len(), 1);
    let i = || Expr::Var(VarRef::Local(LocalId(0)));
    let k = |v: u64| Expr::int(32, v);
    let truths = vec![
        Expr::binary(BinOp::Sle, k(0), i()),
        Expr::binary(BinOp::Sle, i(), k(10)),
        Expr::binary(BinOp::Ne, i(), k(11)),
    ];
    let lies = vec![
        Expr::binary(BinOp::Eq, i(), k(0)),   // holds initially only
        Expr::binary(BinOp::Slt, i(), k(5)),  // not preserved
        Expr::binary(BinOp::Sle, k(1), i()),  // not initially
        Expr::binary(BinOp::Slt, i(), k(10)), // fails at the last visit
        Expr::binary(BinOp::Eq, i(), k(7)),   // neither
    ];
    let mut cands = lies.clone();
    cands.extend(truths.clone());
    let proof = qicc_invariants::houdini(&p, prep, vec![cands], &Budget::unlimited())
        .expect("Houdini finishes");
    let proven = &proof.invariants.proven[0];
    for lie in &lies {
        assert!(!proven.contains(lie), "a false candidate was kept: {lie:?}");
    }
    assert_eq!(proven, &truths, "every true candidate is kept");
    // With them, the cut program proves the assertion.
    assert_eq!(proof.safe, vec![qicc_ir::AssertionId(0)]);
}

/// Slow (Houdini on every benchmark program, 3 s each): with `--include-ignored`, as CI runs.
#[test]
#[ignore]
fn proven_invariants_hold_on_random_runs() {
    let files = qicc_testkit::corpus_sample(qicc_testkit::files_with(
        &qicc_testkit::require_benchmarks_dir(),
        &["c", "i"],
    ));
    let (mut programs, mut invariants, mut runs) = (0, 0, 0);
    let mut broken = Vec::new();
    for file in &files {
        let opts = qicc_frontend::Options {
            data_model: qicc_ir::DataModel::Ilp32,
            ..Default::default()
        };
        let Ok(lowered) = qicc_frontend::lower_file(file, &opts) else {
            continue;
        };
        let p = lowered.program;
        let budget = Budget::with_timeout(Duration::from_secs(3));
        let Ok(proof) = qicc_invariants::prove(&p, &budget) else {
            continue;
        };
        let inv = &proof.invariants;
        if inv.count() == 0 {
            continue;
        }
        programs += 1;
        invariants += inv.count();
        let checked = assert_at_heads(&inv.prepared, &inv.proven);
        if let Err(e) = qicc_ir::verify_program(&checked.program) {
            panic!("{}: ill-formed with the checks: {e:?}", file.display());
        }
        for seed in 0..6u64 {
            let config = RunConfig {
                max_steps: 2_000_000,
                ..RunConfig::default()
            };
            let r = run(&checked.program, &mut RandomOracle::new(seed), &config);
            runs += 1;
            if let Outcome::ErrorReached { assertion } = r.outcome {
                if let Some(&(_, i, j)) = checked.checks.iter().find(|c| c.0 == assertion) {
                    let l = &inv.prepared.loops[i];
                    let f = inv.prepared.program.function(l.func);
                    broken.push(format!(
                        "{}: seed {seed}: at L{} of @{}: {}",
                        file.display(),
                        l.head.0,
                        f.name,
                        expr_str(&inv.prepared.program, Some(f), &inv.proven[i][j])
                    ));
                }
            }
        }
    }
    eprintln!("{invariants} invariants of {programs} programs checked on {runs} random runs");
    assert!(
        broken.is_empty(),
        "proven invariants that fail:\n{}",
        broken.join("\n")
    );
    // 20 on the whole corpus, 10 on CI's half of it.
    assert!(
        programs > if qicc_testkit::full_corpus() { 20 } else { 10 },
        "too few programs with invariants: {programs}"
    );
}
