//! Candidates refuted by runs: before any solver work, the program runs on the interpreter
//! (the reference semantics) with random inputs, and every candidate that is false at some
//! head visit of a run is dropped. A candidate refuted by a real run is no invariant, so
//! dropping it loses nothing Houdini could prove; most wrong candidates go this way, for a
//! few milliseconds instead of a solver check each.

use qicc_analysis::{record_at_heads, Prepared};
use qicc_engine::Budget;
use qicc_interp::{Interpreter, RandomOracle, RunConfig, StopCheck};
use qicc_ir::Expr;

/// Runs made, and the steps each may take.
const RUNS: u64 = 16;
const MAX_STEPS: u64 = 100_000;

/// `cands` (parallel to `prep.loops`) without those a random run refutes; how many went.
pub(crate) fn drop_refuted(prep: &Prepared, cands: &mut [Vec<Expr>], budget: &Budget) -> usize {
    let (program, flags) = record_at_heads(prep, cands);
    let Ok(interp) = Interpreter::new(&program) else {
        return 0;
    };
    let config = RunConfig {
        max_steps: MAX_STEPS,
        deadline: budget.deadline,
        stop: Some(StopCheck::new(budget.stop_fn())),
        ..RunConfig::default()
    };
    let mut refuted = vec![false; flags.len()];
    for seed in 0..RUNS {
        if budget.exhausted().is_some() {
            break;
        }
        let (_, globals) = interp.run_with_globals(&mut RandomOracle::new(seed), &config);
        for (k, &(g, _, _)) in flags.iter().enumerate() {
            refuted[k] |= globals.get(g.index()).is_some_and(|&v| v != 0);
        }
    }
    let mut keep: Vec<Vec<bool>> = cands.iter().map(|c| vec![true; c.len()]).collect();
    for (k, &(_, i, j)) in flags.iter().enumerate() {
        if refuted[k] {
            keep[i][j] = false;
        }
    }
    crate::retain_marked(cands, &keep)
}
