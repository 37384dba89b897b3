//! Candidates refuted by runs: before any solver work, the program runs on the interpreter
//! (the reference semantics) with random inputs (half of the runs with inputs around the
//! program's constants, `sampled::ProgramValues`), and every candidate that is false at some
//! head visit of a run is dropped. A candidate refuted by a real run is no invariant, so
//! dropping it loses nothing Houdini could prove; most wrong candidates go this way, for a
//! few milliseconds instead of a solver check each.

use qicc_analysis::{record_at_heads, Prepared};
use qicc_engine::Budget;
use qicc_interp::{Interpreter, Outcome, RandomOracle, RunConfig, StopCheck};
use qicc_ir::Expr;

/// Runs made, and the steps each may take.
const RUNS: u64 = 16;
const MAX_STEPS: u64 = 100_000;
/// When a short run hit its step limit, a few long runs, each stopped after `LONG_TIME` at
/// the latest, that record only the first `SAMPLED_VISITS` visits of each head and the
/// visits that exit the loop (`record_at_heads`' sampling): they reach the loops that come
/// after long ones (an array initialised by a loop of 100000 iterations, then copied, then
/// checked), whose heads the short runs never visit, and the exit of each. A run stopped
/// early still refutes soundly: every state it visited is a state of the program.
const LONG_RUNS: u64 = 2;
const LONG_MAX_STEPS: u64 = 10_000_000;
const SAMPLED_VISITS: u32 = 64;
const LONG_TIME: std::time::Duration = std::time::Duration::from_millis(150);

/// How far [`drop_refuted`] runs the program.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Depth {
    /// The short runs, and the long ones when a short run hit its step limit.
    Deep,
    /// The short runs only: for candidates proposed from states runs already showed
    /// (`sampled`), at heads the short runs reach; the long runs cost 0.3 s on a nested
    /// product inside two loops, a tenth of its proof.
    Short,
}

/// `cands` (parallel to `prep.loops`) without those a random run refutes; how many went.
pub(crate) fn drop_refuted(
    prep: &Prepared,
    cands: &mut [Vec<Expr>],
    budget: &Budget,
    depth: Depth,
) -> usize {
    let (program, flags) = record_at_heads(prep, cands, None);
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
    let mut cut_short = false;
    let constants = crate::sampled::program_constants(&program);
    for seed in 0..RUNS {
        if budget.exhausted().is_some() {
            break;
        }
        // Every other run with inputs around the program's constants: random ones rarely
        // pass an assumption such as `10 <= n && n <= 10000`, and a run that stops there
        // refutes nothing.
        let (run, globals) = if seed % 2 == 0 {
            interp.run_with_globals(&mut RandomOracle::new(seed), &config)
        } else {
            let mut o = crate::sampled::ProgramValues::new(seed, &constants);
            interp.run_with_globals(&mut o, &config)
        };
        cut_short |= matches!(run.outcome, Outcome::StepLimit);
        for (k, &(g, _, _)) in flags.iter().enumerate() {
            refuted[k] |= globals.get(g.index()).is_some_and(|&v| v != 0);
        }
    }
    if cut_short && depth == Depth::Deep {
        // The same flags in the same order: `record_at_heads` numbers them alike.
        let (sampled, long_flags) = record_at_heads(prep, cands, Some(SAMPLED_VISITS));
        if let Ok(interp) = Interpreter::new(&sampled) {
            for seed in RUNS..RUNS + LONG_RUNS {
                if budget.exhausted().is_some() {
                    break;
                }
                let cap = std::time::Instant::now() + LONG_TIME;
                let config = RunConfig {
                    max_steps: LONG_MAX_STEPS,
                    deadline: Some(budget.deadline.map_or(cap, |d| d.min(cap))),
                    ..config.clone()
                };
                let (_, globals) = interp.run_with_globals(&mut RandomOracle::new(seed), &config);
                for (k, &(g, _, _)) in long_flags.iter().enumerate() {
                    refuted[k] |= globals.get(g.index()).is_some_and(|&v| v != 0);
                }
            }
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
