//! Impulse: deep counterexamples by loop under-approximation with closed forms (Kroening,
//! Lewis, Weissenbacher, *Under-approximating loops in C programs for fast counterexample
//! detection*).
//!
//! A bounded model checker finds a bug that needs `n` loop iterations only after unwinding
//! `n` times. [`instrument()`] adds to each loop head, for a few loop paths `π`, an
//! *accelerated path* `π~` that performs a symbolic number `n ≥ 1` of iterations of `π` in
//! one step: closed forms of the updated variables, the path condition for all `n`
//! iterations without quantifiers, guards against overflow, and the memory effect of `π`'s
//! stores. Every state reachable through `π~` is reachable through `π^n` in the original
//! program (bit-precisely), so [`verify`] runs the BMC at depth 2 on the instrumented program
//! and still finds only real bugs; each one is expanded back into concrete iterations and
//! run on the original program before it is reported.
//!
//! Modules, in pipeline order: `loops` (natural loops and their acyclic
//! bodies), `paths` (path selection with distinguishers, Sec. 3.5),
//! `summary` (one iteration over the pre-state), `poly`
//! (polynomials in the iteration number, linearization), `closed_form`
//! (Sec. 3.1: syntactic and constraint-based, induction-checked),
//! `feasibility` (Sec. 3.3/4.1: splits and convex literals),
//! `overflow` (Sec. 3.4), `memory` (Sec. 3.2, Lemma 3),
//! `accel` (one path's plan), `instrument` and
//! `dismiss` (the program transformation and ⊥/overlay guards),
//! `expand` (witness expansion), `smt` (IR to solver terms), `forms` (the closed forms
//! handed to the invariant prover),
//! and this file (the engine).
//!
//! # Choices where the paper leaves room
//!
//! - **Closed forms** are polynomials of degree ≤ 2 in the binomial basis
//!   `c0 + c1·j + c2·j(j−1)/2` with loop-invariant coefficients, exact modulo `2^w`. Syntactic
//!   matching (eq. 1) runs first; the constraint-based method (eq. 2, Theorem 1's points)
//!   handles the rest; *every* form is then proved by induction (formula 4) with the solver.
//!   Only variables whose pre-iteration value the path reads need one; every other variable's
//!   final value is the path's own update applied to the state of the last iteration, which
//!   is exact without any closed form.
//! - **⊥** (Sec. 3.3) is a Boolean flag per variable: the accelerated path havocs the
//!   variable and sets the flag; every later edge that reads it is blocked until it is
//!   overwritten (see `dismiss` for why that is sound). Conditions or
//!   stores that need a ⊥ variable make the path not acceleratable.
//! - **Havocs inside `π`** use one value `w` for all iterations (a witness variable, havoced
//!   once before the accelerated path); the conditions on it are invariant, so they are
//!   assumed once.
//! - **Quantifier elimination** (Sec. 4.1) works on *convex* literals — comparisons of
//!   linear sides, validity checks at linear addresses — under guards that make the
//!   mathematical value of each side stay in the range of the comparison's reading; then a
//!   conjunction holds for all `j ∈ [0, n)` iff at `0` and `n − 1`. The proof is in
//!   `feasibility`. `≠` and `∨` split into several accelerated paths
//!   (Fig. 4). Everything else (loads whose address moves, products of changing values, ...)
//!   is not accelerated.
//! - **Overflow** (Sec. 3.4): `n ≤ 2^30`, guards computed exactly in 64 bits (with overflow
//!   checks where 64 bits could overflow), closed-form values may not wrap as signed *or* as
//!   unsigned numbers at `n`.
//! - **Memory** (Sec. 3.2): the IR has `store`, `memset` and `memcpy` but no operation that
//!   writes an arithmetic progression, and qicc-ir is not ours to extend. So dense stores
//!   become `memset` (bytes), `memcpy` (copies), one `store` (fixed address), or an
//!   *overlay*: the written range and the value polynomial are kept in locals and every later
//!   load of the function is redirected through them; a few later stores of whole elements
//!   are recorded as patches, and anything else that could observe the stale bytes behind
//!   the overlay is blocked (`dismiss`). A symbolic invariant value wider
//!   than a byte also gets a `memset` variant under the assumption that its bytes are equal
//!   (`memory`). An IR operation `fill.iN(dst, count, first, step)` (or
//!   array lambdas in the IR) would replace overlays by real memory.
//!
//! Impulse never answers TRUE: an under-approximation proves nothing. Its statuses are
//! `Violated` (the expanded run of the original program reaches the property assertion) or
//! `Unknown` with a reason.

mod accel;
mod build;
mod closed_form;
mod dismiss;
mod expand;
mod feasibility;
mod fnbuild;
pub mod forms;
mod instrument;
pub mod interrupt;
mod loops;
mod memory;
mod overflow;
mod paths;
mod poly;
mod smt;
mod summary;

use qicc_engine::{AssertionStatus, Budget, EngineResult, Stats};
use qicc_ir::{EdgeId, FuncId, Loc, LocalId, Program};
use std::time::{Duration, Instant};

/// Caps tried, smallest first, when a counterexample needs too many iterations.
const RETRY_CAPS: [u64; 6] = [1 << 4, 1 << 8, 1 << 12, 1 << 16, 1 << 20, 1 << 24];

fn add_ms(figure: &mut Option<u64>, since: Instant) {
    Stats::add(figure, since.elapsed().as_millis() as u64);
}

/// Options of [`instrument()`] and [`verify`].
#[derive(Clone, Debug)]
pub struct ImpulseOptions {
    /// The BMC's unwinding bound on the instrumented program (the paper uses 2).
    pub unwind: u32,
    /// Loop paths tried per loop (path selection stops earlier when none is left).
    pub max_paths_per_loop: usize,
    /// Accelerated paths per loop path (splits of its condition, Fig. 4).
    pub max_splits: usize,
    /// Step limit of the runs that expand and replay a counterexample.
    pub max_replay_steps: u64,
    /// A counterexample whose replay takes more interpreter steps than this (in its
    /// accelerated loops) is looked for again with smaller caps on the iteration counts
    /// (16, 256, ... up to 2^24), which keeps the replay short when the bug does not need
    /// so many iterations. One BMC run per cap tried.
    pub retry_above_steps: u64,
    /// Limit of each solver check of the BMC.
    pub bmc_check_timeout: Option<Duration>,
}

impl Default for ImpulseOptions {
    fn default() -> Self {
        ImpulseOptions {
            unwind: 2,
            max_paths_per_loop: 8,
            max_splits: 4,
            max_replay_steps: 2_000_000_000,
            retry_above_steps: 50_000_000,
            bmc_check_timeout: None,
        }
    }
}

/// A witness variable: the one value an accelerated path uses for every execution of a
/// havoc edge of its loop path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessVar {
    /// The havoc edge of the loop path (an original edge).
    pub path_edge: EdgeId,
    /// The local holding the value.
    pub var: LocalId,
    /// The instrumented edge that havocs it.
    pub havoc_edge: EdgeId,
}

/// One accelerated path added to the program.
#[derive(Clone, Debug)]
pub struct Acceleration {
    pub func: FuncId,
    pub head: Loc,
    /// The loop path `π` (original edges, from the head back to it).
    pub path: Vec<EdgeId>,
    /// The split of `π`'s condition this path takes ("" when none was needed).
    pub split: String,
    /// The iteration count (local of `func` in the instrumented program).
    pub n_var: LocalId,
    pub witnesses: Vec<WitnessVar>,
    /// The closed form of each recurrent variable, and the ⊥ ones with the reason.
    pub closed_forms: Vec<String>,
    /// Variables left undefined (⊥) after the path.
    pub bottom: Vec<String>,
    /// The memory effect, in words.
    pub memory: String,
    /// First (`havoc n`) and last (back to the head) edge in the instrumented function.
    pub entry_edge: EdgeId,
    /// The edge assuming `n ≤ cap` (see [`Instrumented::with_cap`]).
    pub cap_edge: EdgeId,
    pub exit_edge: EdgeId,
}

/// A loop no path of which was accelerated, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub func: FuncId,
    pub head: Loc,
    pub reason: String,
}

/// The result of [`instrument()`].
#[derive(Clone, Debug)]
pub struct Instrumented {
    pub program: Program,
    pub accelerations: Vec<Acceleration>,
    pub skipped: Vec<Skipped>,
    /// Loops found (accelerated or not).
    pub loops_seen: usize,
}

impl Instrumented {
    /// The instrumented program with every accelerated path limited to `n ≤ cap` (at most
    /// 2^30, the default): a smaller cap makes the BMC look for counterexamples with fewer
    /// iterations, which expand and replay faster.
    pub fn with_cap(&self, cap: u64) -> Program {
        let mut p = self.program.clone();
        for a in &self.accelerations {
            let f = p.function_mut(a.func);
            if let Some(e) = f.edges.get_mut(a.cap_edge.index()) {
                e.op = qicc_ir::Op::Assume(instrument::cap_condition(a.n_var, cap));
            }
        }
        p
    }

    /// Loops with at least one accelerated path.
    pub fn loops_accelerated(&self) -> usize {
        let mut heads: Vec<(FuncId, Loc)> = self
            .accelerations
            .iter()
            .map(|a| (a.func, a.head))
            .collect();
        heads.sort();
        heads.dedup();
        heads.len()
    }
}

/// Adds accelerated paths to every loop of `program` that has acceleratable paths.
pub fn instrument(program: &Program, opts: &ImpulseOptions) -> Instrumented {
    instrument::instrument(program, opts, None, &|| false)
}

/// Finds a violation by BMC at depth `opts.unwind` on the instrumented program, expanded and
/// replayed on `program`. Never answers `Safe`.
pub fn verify(program: &Program, opts: &ImpulseOptions, budget: &Budget) -> EngineResult {
    let t0 = Instant::now();
    let stop = budget.stop_fn();
    let instr = interrupt::watched(budget, || {
        instrument::instrument(program, opts, budget.deadline, &stop)
    });
    let instrument_ms = t0.elapsed().as_millis() as u64;
    let mut stats = Stats {
        loops_seen: Some(instr.loops_seen as u64),
        loops_accelerated: Some(instr.loops_accelerated() as u64),
        paths_accelerated: Some(instr.accelerations.len() as u64),
        instrumentation_ms: Some(instrument_ms),
        ..Default::default()
    };
    let unknown_all = |reason: String, stats| EngineResult::unknown(program, &reason, stats);
    if let Some(stop) = budget.exhausted() {
        return unknown_all(stop.describe().to_string(), stats);
    }
    // What the term translation cannot encode (see `unsupported_in`) is unknown here too,
    // before any query sees it.
    if let Some(why) = qicc_smt::ir::unsupported_in(program) {
        return unknown_all(format!("impulse: {why}"), stats);
    }
    if let Err(errs) = qicc_ir::verify_program(&instr.program) {
        let first = errs.first().cloned().unwrap_or_default();
        return unknown_all(
            format!("internal error: the instrumented program is ill-formed: {first}"),
            stats,
        );
    }
    let bmc = |p: &Program, stats: &mut Stats| {
        let bmc_opts = qicc_bmc::BmcOptions {
            unwind: Some(opts.unwind),
            check_timeout: opts.bmc_check_timeout,
            ..Default::default()
        };
        let t = Instant::now();
        let r = qicc_bmc::verify(p, &bmc_opts, budget);
        add_ms(&mut stats.bmc_ms, t);
        // The BMC's solver time, as the other engines report it (the instrumentation's own
        // checks, path selection and closed-form proofs, are inside "instrumentation ms").
        Stats::add(
            &mut stats.solver_time_ms,
            r.stats.solver_time_ms.unwrap_or(0),
        );
        r
    };
    let r = bmc(&instr.program, &mut stats);
    let Some((_, witness)) = r.violation else {
        let why = r.reason.unwrap_or_else(|| {
            format!(
                "no counterexample within unwind {} of the instrumented program",
                opts.unwind
            )
        });
        return unknown_all(format!("impulse: {why}"), stats);
    };
    let limits = expand::Limits {
        max_steps: opts.max_replay_steps,
        deadline: budget.deadline,
        stop: qicc_interp::StopCheck::new(budget.stop_fn()),
    };
    let t2 = Instant::now();
    let mut read = expand::read(
        program,
        &instr.program,
        &instr.accelerations,
        &witness,
        &limits,
    );
    let mut witness = witness;
    // A counterexample that needs many iterations costs as many interpreter steps to replay;
    // the solver picks iteration counts freely, so ask again with a smaller cap first.
    if let Ok(first) = &read {
        if first.steps > opts.retry_above_steps {
            let max_n = first.max_n;
            for cap in RETRY_CAPS.iter().copied().filter(|c| *c < max_n) {
                if budget.exhausted().is_some() {
                    break;
                }
                let capped = instr.with_cap(cap);
                let r2 = bmc(&capped, &mut stats);
                let Some((_, w2)) = r2.violation else {
                    continue;
                };
                if let Ok(e2) = expand::read(program, &capped, &instr.accelerations, &w2, &limits) {
                    stats.iteration_cap = Some(cap);
                    read = Ok(e2);
                    witness = w2;
                    break;
                }
            }
        }
    }
    let expanded = read.and_then(|e| {
        stats.iterations_expanded = Some(e.iterations);
        expand::run_plan(program, &e, &witness, &limits)
    });
    add_ms(&mut stats.expansion_ms, t2);
    match expanded {
        Ok((assertion, w)) => EngineResult {
            statuses: program
                .assertion_ids()
                .map(|a| {
                    let s = if a == assertion {
                        AssertionStatus::Violated
                    } else {
                        AssertionStatus::Unknown("impulse only looks for one violation".into())
                    };
                    (a, s)
                })
                .collect(),
            violation: Some((assertion, w)),
            unconfirmed_violations: Vec::new(),
            ub_witness: None,
            tool_witness: None,
            invariants: Vec::new(),
            reason: None,
            stats,
        },
        Err(why) => unknown_all(
            format!("accelerated counterexample did not replay: {why}"),
            stats,
        ),
    }
}
