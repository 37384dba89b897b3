//! Loop invariants: found once, proven once, and the proofs of unbounded loops they give.
//!
//! The pipeline (one home for each step):
//! 1. `qicc_analysis::loop_cut::add_ghosts`: the program with a ghost of each variable a loop
//!    changes, holding its value at loop entry.
//! 2. [`candidates`]: conditions that may hold at each loop head, from the program text, and
//!    from the states runs of the program show at the heads (`sampled`: polynomial
//!    equalities, octagon bounds); those a random run of the program on the interpreter
//!    refutes are dropped at once (`observe`).
//! 3. Houdini (Flanagan & Leino; Corral's paper, Sec. 4.2) in [`prove`]: the program with every
//!    loop cut at its head (`qicc_analysis::loop_cut::cut_loops`: each candidate checked on
//!    entry and at the end of each iteration, all of them assumed after the head's havocs)
//!    goes to the BMC, which looks for every violated check; the candidates whose check is
//!    not proven safe are dropped, and the rest are cut again, until a round drops nothing.
//!    That round proves every remaining candidate at once (the induction of `loop_cut`'s
//!    docs), and with them every original assertion the same round proved safe.
//! 4. Stages after the first, each only while an assertion is open, each over what the
//!    stages before proved (settled, not asked again): the observed states' candidates; the
//!    elements stage (arrays that later loops read: cell conditions for every element, their
//!    instances at the elements each loop reads, and sums over them); phases, constants and
//!    closed forms.
//!
//! Answers are sound one way only: an assertion is `Safe` when the final round proved it;
//! everything else is `Unknown` (a violation of the cut program need not be one of the
//! program, so this engine never answers FALSE).
//!
//! [`Invariants`] is the one place for proven invariants: each loop's head, its source
//! location, and the conditions proven there; [`c_text`] renders them as C for the report
//! ([`Invariants::to_report`]), and [`Invariants::publish`] hands those over the original
//! program's variables to engines running beside this one (`qicc_engine::HeadFacts`: the
//! gamble assumes them at its region heads).

pub mod c_text;
pub mod candidates;
pub mod cells;
pub mod closed;
pub mod kinduction;
mod observe;
mod sampled;
mod vc;

use qicc_analysis::{add_ghosts, cut_loops, CutMode, LoopInfo, Prepared};
use qicc_bmc::BmcOptions;
use qicc_engine::{
    AssertionStatus, Budget, EngineResult, HeadFacts, InvariantCondition, LoopInvariant, Stats,
};
use qicc_facts::Facts;
use qicc_ir::{AssertionId, Expr, Program};

/// The one-VC Houdini's time when the budget has no deadline.
const VC_TIME: std::time::Duration = std::time::Duration::from_secs(10);

/// The proven invariants of a program's loops.
#[derive(Clone, Debug)]
pub struct Invariants {
    /// The program with ghosts, in which the invariants are stated.
    pub prepared: Prepared,
    /// Parallel to `prepared.loops`: the conditions proven at each head.
    pub proven: Vec<Vec<Expr>>,
    /// Parallel to `prepared.loops` (or empty: none): whether the loop is closed by exact
    /// acceleration ([`closed::exactly_accelerated`]).
    pub accelerated: Vec<bool>,
}

impl Invariants {
    /// Each loop with its proven conditions (loops with none left out).
    pub fn iter(&self) -> impl Iterator<Item = (&LoopInfo, &[Expr])> {
        self.prepared
            .loops
            .iter()
            .zip(&self.proven)
            .filter(|(_, p)| !p.is_empty())
            .map(|(l, p)| (l, p.as_slice()))
    }

    pub fn count(&self) -> usize {
        self.proven.iter().map(Vec::len).sum()
    }

    /// Per loop, how many conditions are proven (what a later Houdini stage, given these
    /// first, counts as settled).
    fn counts(&self) -> Vec<usize> {
        self.proven.iter().map(Vec::len).collect()
    }

    /// Hands the proven conditions to engines running beside this one, keyed by the
    /// (function, head) of `original`, the program [`prove`] was given; returns how many the
    /// slot kept. The prepared program only appends ghost locals and locations to
    /// `original`'s functions, so its local ids and loop heads are the original's, and the
    /// conditions that read no ghost are conditions over `original` (the slot drops the
    /// others). They hold at every visit of the head in every execution of `original` up to
    /// its first assertion violation: the prepared program's run is the original's up to
    /// there (ghosts only record values; [`cells`] restricts assertions, which changes
    /// nothing before the first violation).
    pub fn publish(&self, original: &Program, heads: &HeadFacts) -> usize {
        self.prepared
            .loops
            .iter()
            .zip(&self.proven)
            .map(|(l, conds)| heads.publish(original, l.func, l.head, conds.iter().cloned()))
            .sum()
    }

    /// The invariants as the engine result carries them: per loop with a proven condition,
    /// its function and source location, and each condition as text ([`c_text`]).
    pub fn to_report(&self) -> Vec<LoopInvariant> {
        let p = &self.prepared.program;
        self.prepared
            .loops
            .iter()
            .zip(&self.proven)
            .enumerate()
            .filter(|(_, (_, c))| !c.is_empty())
            .map(|(i, (l, conds))| {
                let f = p.function(l.func);
                LoopInvariant {
                    exact_acceleration: self.accelerated.get(i).copied().unwrap_or(false),
                    function: f.name.clone(),
                    file: p
                        .files
                        .get(l.span.file as usize)
                        .cloned()
                        .unwrap_or_default(),
                    line: l.span.line,
                    col: l.span.col,
                    conditions: conds
                        .iter()
                        .map(|e| {
                            let t = c_text::render(p, f, Some(l), e);
                            InvariantCondition {
                                text: t.text,
                                c: t.c,
                                quantified: t.quantified,
                            }
                        })
                        .collect(),
                }
            })
            .collect()
    }
}

/// What [`prove`] found.
pub struct Proof {
    pub invariants: Invariants,
    /// The original assertions the final round proved safe.
    pub safe: Vec<AssertionId>,
    /// Parallel to the loops: every candidate tried.
    pub candidates: Vec<Vec<Expr>>,
    /// Solver checks on the one VC, or BMC runs when Houdini fell back to the BMC.
    pub rounds: u64,
}

impl Proof {
    pub fn candidate_count(&self) -> usize {
        self.candidates.iter().map(Vec::len).sum()
    }
}

/// Keeps the candidates whose mark in `keep` (parallel to `cands`) is true; how many went.
pub(crate) fn retain_marked(cands: &mut [Vec<Expr>], keep: &[Vec<bool>]) -> usize {
    let mut dropped = 0;
    for (c, k) in cands.iter_mut().zip(keep) {
        let mut it = k.iter();
        c.retain(|_| {
            let keep = it.next().copied().unwrap_or(true);
            dropped += usize::from(!keep);
            keep
        });
    }
    dropped
}

/// Which candidate sources [`prove_with`] uses beyond the program text's families.
#[derive(Clone, Copy, Debug)]
pub struct ProveOptions {
    /// The candidates of observed states (`sampled`), in a stage of their own.
    pub sampled: bool,
    /// The stage of arrays that later loops read ([`elements`]).
    pub elements: bool,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions {
            sampled: true,
            elements: true,
        }
    }
}

/// The stage of arrays that later loops read, after `first`: where a loop stores into an
/// array and no assertion reads an element (so the first stage had no cell ghost), the
/// cells' candidates of those functions (`cells::Ghosted::ByStores`) beside what `first`
/// proved; then every proven cell condition at the elements each loop reads
/// (`cells::instances`), assumed as settled, with the sums of bounded terms over them
/// (`candidates::sums`) as candidates. The proof when it proves at least what `first` did
/// (its invariants: the scalar ones, the instances, the cell conditions), and every
/// candidate tried (parallel to the loops).
fn elements(
    p: &Program,
    prep: &Prepared,
    stepped: &[Vec<(qicc_ir::VarRef, i128, u16)>],
    first: &Proof,
    budget: &Budget,
) -> (Option<Proof>, Vec<Vec<Expr>>) {
    let mut tried: Vec<Vec<Expr>> = vec![Vec::new(); prep.loops.len()];
    let mut prep2 = prep.clone();
    let mut new = cells::add_cells_with(&mut prep2, cells::Ghosted::ByStores);
    let mut cell_proof = None;
    if new.iter().any(|n| !n.is_empty()) {
        for (t, n) in tried.iter_mut().zip(&new) {
            t.extend(n.iter().cloned());
        }
        observe::drop_refuted(&prep2, &mut new, budget, observe::Depth::Short);
        let settled = first.invariants.counts();
        let mut more = first.invariants.proven.clone();
        for (m, n) in more.iter_mut().zip(new) {
            m.extend(n);
        }
        match houdini_with(p, prep2.clone(), more, &settled, budget, 2) {
            Ok(c) => cell_proof = Some(c),
            Err(_) => return (None, tried),
        }
    }
    let proven = cell_proof
        .as_ref()
        .map_or(&first.invariants.proven, |c| &c.invariants.proven);
    let instances = cells::instances(&prep2, proven);
    let mut sums: Vec<Vec<Expr>> = (prep2.loops.iter().enumerate())
        .map(|(i, l)| {
            let st = stepped.get(i).map_or(&[][..], |s| s.as_slice());
            candidates::sums(&prep2.program, &prep2.loops, l, st, &instances[i])
        })
        .collect();
    for (t, s) in tried.iter_mut().zip(&sums) {
        t.extend(s.iter().cloned());
    }
    observe::drop_refuted(&prep2, &mut sums, budget, observe::Depth::Short);
    let better = |c: Proof| (c.safe.len() > first.safe.len()).then_some(c);
    if sums.iter().all(Vec::is_empty) {
        return (cell_proof.and_then(better), tried);
    }
    // The scalar invariants and the instances, settled; the cell conditions stay out (the
    // instances say what the loops use of them), so that the one VC takes the stage.
    let over =
        |i: usize, e: &Expr| cells::over_cell(prep2.program.function(prep2.loops[i].func), e);
    let mut base: Vec<Vec<Expr>> = (proven.iter().enumerate())
        .map(|(i, c)| c.iter().filter(|e| !over(i, e)).cloned().collect())
        .collect();
    for (b, n) in base.iter_mut().zip(instances) {
        for e in n {
            if !b.contains(&e) {
                b.push(e);
            }
        }
    }
    let settled: Vec<usize> = base.iter().map(Vec::len).collect();
    for (b, s) in base.iter_mut().zip(sums) {
        b.extend(s);
    }
    let cells_proven: Vec<Vec<Expr>> = (proven.iter().enumerate())
        .map(|(i, c)| c.iter().filter(|e| over(i, e)).cloned().collect())
        .collect();
    let sums_proof = houdini_with(p, prep2, base, &settled, budget, 2)
        .ok()
        .map(|mut d| {
            for (pr, c) in d.invariants.proven.iter_mut().zip(cells_proven) {
                pr.extend(c);
            }
            d
        });
    let best = [cell_proof, sums_proof]
        .into_iter()
        .flatten()
        .max_by_key(|c| c.safe.len());
    (best.and_then(better), tried)
}

/// Houdini over the candidates of every loop of `p` (see the crate docs). `Err`: why no
/// round could finish (the budget ran out, or the program has no loop to cut).
pub fn prove(p: &Program, budget: &Budget) -> Result<Proof, String> {
    prove_with(p, budget, &ProveOptions::default())
}

/// [`prove`] with the candidate sources of `opts`.
pub fn prove_with(p: &Program, budget: &Budget, opts: &ProveOptions) -> Result<Proof, String> {
    let mut prep = add_ghosts(p);
    if prep.loops.is_empty() {
        return Err("no loop to cut".into());
    }
    let stop = || budget.exhausted().is_some();
    // Stopped with the budget: in a portfolio whose answer is in, the analysis must not
    // hold the answer back (many_globals_500: 1 s of interval analysis over 500 globals).
    let facts = Facts::analyze_until(&prep.program, &stop).ok_or_else(|| {
        budget
            .exhausted()
            .unwrap_or(qicc_engine::StopReason::Cancelled)
            .describe()
            .to_string()
    })?;
    let mut cands = candidates::candidates(&prep.program, &prep.loops, &facts, &stop);
    if let Some(why) = budget.exhausted() {
        return Err(why.describe().to_string());
    }
    // The cell ghost restricts assertions: after the candidates that read them.
    for (b, c) in cands.basic.iter_mut().zip(cells::add_cells(&mut prep)) {
        b.extend(c);
    }
    let mut basic = cands.basic.clone();
    observe::drop_refuted(&prep, &mut basic, budget, observe::Depth::Deep);
    let mut first = houdini(p, prep.clone(), basic, budget)?;
    // What the observed states propose (`sampled`), with what the first stage proved: only
    // when that is not enough (the runs cost time, and the tasks the program text's families
    // prove stay as fast), and as a stage of its own (its polynomial equalities are hard
    // checks for the solver, far cheaper among a few proven invariants than among a hundred
    // candidates).
    let mut tried_sampled: Vec<Vec<Expr>> = vec![Vec::new(); prep.loops.len()];
    if opts.sampled && first.safe.len() < p.assertions.len() {
        // Only what the first stage did not try; what a random run refutes goes at once.
        for (t, s) in tried_sampled
            .iter_mut()
            .zip(sampled::candidates(&prep, budget))
        {
            for e in s {
                if !cands.basic.iter().flatten().any(|b| *b == e) && !t.contains(&e) {
                    t.push(e);
                }
            }
        }
        let mut new = tried_sampled.clone();
        observe::drop_refuted(&prep, &mut new, budget, observe::Depth::Short);
        if new.iter().any(|n| !n.is_empty()) {
            // Again, the guards' and assertions' conditions the first stage dropped (no run
            // refuted them): such a condition is often inductive only beside a relation the
            // samples propose (`k <= 101` beside `k <= i + 1`, where `i` steps by at least 1
            // while `i < 100`). Those that are no invariant cost a check each.
            for (i, n) in new.iter_mut().enumerate() {
                let stated = &cands.basic[i][..cands.stated[i]];
                n.extend(
                    (first.candidates[i].iter())
                        .filter(|e| stated.contains(e) && !first.invariants.proven[i].contains(e))
                        .cloned(),
                );
            }
            let settled = first.invariants.counts();
            let mut more: Vec<Vec<Expr>> = first.invariants.proven.clone();
            for (m, n) in more.iter_mut().zip(new) {
                m.extend(n);
            }
            // Its one VC gets half of the time left: the BMC's rounds it would fall back to ask
            // every check at once, over products (a nested product's stage: its one VC needs
            // 2.6 s on a loaded machine, a third of 9 s is 3 s, and the rounds after it used
            // the rest of the time in vain).
            let mid = houdini_with(p, prep.clone(), more, &settled, budget, 2);
            if let Ok(mid) = mid {
                if mid.safe.len() >= first.safe.len() {
                    first = mid;
                }
            }
        }
    }
    // Arrays that later loops read (`s += a[i]`): what holds of every element, then of the
    // elements each loop reads, and the sums over them (`elements`). Only where the stages
    // above leave an assertion open: its cell candidates go to the BMC's rounds.
    let mut tried_elements: Vec<Vec<Expr>> = vec![Vec::new(); prep.loops.len()];
    if opts.elements && first.safe.len() < p.assertions.len() {
        let (better, tried) = elements(p, &prep, &cands.stepped, &first, budget);
        tried_elements = tried;
        if let Some(better) = better {
            prep = better.invariants.prepared.clone();
            first = better;
        }
    }
    let all_safe = first.safe.len() == p.assertions.len();
    // The closed forms only for the second stage: finding them costs solver time.
    let closed: Vec<closed::Closed> = if all_safe {
        Vec::new()
    } else {
        (prep.loops.iter().zip(&cands.stepped))
            .map(|(l, s)| closed::candidates(&prep.program, l, s, budget.deadline))
            .collect()
    };
    for (e, c) in cands.extra.iter_mut().zip(&closed) {
        e.extend(c.candidates.iter().cloned());
    }
    let second_stage = !all_safe && cands.extra.iter().any(|e| !e.is_empty());
    let mut proof = if !second_stage {
        first
    } else {
        // The second stage: what the first proved, and the extra families.
        let mut more: Vec<Vec<Expr>> = first.invariants.proven.clone();
        let mut extra = cands.extra.clone();
        observe::drop_refuted(&prep, &mut extra, budget, observe::Depth::Deep);
        for (m, e) in more.iter_mut().zip(extra) {
            m.extend(e);
        }
        let settled = first.invariants.counts();
        match houdini_with(p, prep, more, &settled, budget, 3) {
            Ok(second) if second.safe.len() >= first.safe.len() => second,
            _ => first,
        }
    };
    let mut all = cands.basic;
    for (a, t) in all.iter_mut().zip(tried_sampled) {
        a.extend(t);
    }
    for (a, t) in all.iter_mut().zip(tried_elements) {
        a.extend(t);
    }
    if second_stage {
        for (a, e) in all.iter_mut().zip(cands.extra) {
            a.extend(e);
        }
    }
    // Report every candidate tried, the refuted ones too.
    proof.candidates = all;
    let inv = &mut proof.invariants;
    inv.accelerated = (inv.prepared.loops.iter().zip(&inv.proven))
        .zip(&closed)
        .map(|((l, p), c)| closed::exactly_accelerated(&inv.prepared.program, l, p, c))
        .collect();
    Ok(proof)
}

/// Houdini from the candidates `cands` (parallel to `prep.loops`) of `p`'s prepared program:
/// the largest subset that proves itself, and what its final round proved (see the crate
/// docs).
pub fn houdini(
    p: &Program,
    prep: Prepared,
    cands: Vec<Vec<Expr>>,
    budget: &Budget,
) -> Result<Proof, String> {
    houdini_with(p, prep, cands, &[], budget, 2)
}

/// [`houdini`] where the first `settled[i]` candidates of loop `i` are known inductive
/// together (a stage before proved them): their checks hold under any superset of their
/// assumptions, so they are not asked again, and they stay (the next stages add candidates to
/// the invariants proven so far; on a nested loop that halves the checks). The one VC gets
/// `1/part` of the time left before the BMC's rounds take over.
fn houdini_with(
    p: &Program,
    prep: Prepared,
    cands: Vec<Vec<Expr>>,
    settled: &[usize],
    budget: &Budget,
    part: u32,
) -> Result<Proof, String> {
    let all = cands.clone();
    // One VC with a literal per candidate first; the BMC's rounds where it cannot cover the
    // cut program (loops the cut leaves, recursion).
    // The one VC gets a part of the time (`part`), not all of it: on some programs (several
    // nested loops, hundreds of candidates) its queries are much harder than the BMC's
    // rounds. Half for the first and the sampled stage: with a third, the geometric series
    // in a loop (its one VC: 4 s beside the portfolio's other members) fell back to the
    // rounds at 3.4 s, and they proved it at 8 s. Candidates over array
    // cells go to the BMC's rounds at once: the incremental solver of the one VC decides
    // their checks far more slowly than the BMC's fresh solvers.
    let share = budget.remaining().map_or(VC_TIME, |r| r / part.max(1));
    let over_cells = cands.iter().enumerate().any(|(i, c)| {
        let f = prep.program.function(prep.loops[i].func);
        c.iter().any(|e| cells::over_cell(f, e))
    });
    let one_vc = if over_cells {
        Err(vc::NoAnswer::Incomplete)
    } else {
        let b = budget.child(Some(share));
        qicc_impulse::interrupt::watched(&b, || vc::houdini(p, &prep, &cands, settled, &b))
    };
    match one_vc {
        Ok(fix) => {
            let mut proven = cands;
            retain_marked(&mut proven, &fix.keep);
            return Ok(Proof {
                invariants: Invariants {
                    prepared: prep,
                    proven,
                    accelerated: Vec::new(),
                },
                safe: fix.safe,
                candidates: all,
                rounds: fix.checks,
            });
        }
        Err(vc::NoAnswer::Stopped(why)) if budget.exhausted().is_some() => {
            return Err(format!("{why} in Houdini"))
        }
        Err(vc::NoAnswer::Stopped(_)) => {}
        // The BMC deepens where the one VC stopped short (the reason is the same one the BMC
        // will meet, so it is not kept).
        Err(vc::NoAnswer::Incomplete) => {}
    }
    let mut cands = cands;
    let opts = BmcOptions {
        all_violations: true,
        ..Default::default()
    };
    let mut rounds = 0;
    loop {
        rounds += 1;
        let cut = cut_loops(&prep, &cands, CutMode::Check);
        let r = qicc_bmc::verify(&cut.program, &opts, budget);
        if let Some(stop) = budget.exhausted() {
            return Err(format!("{} in Houdini round {rounds}", stop.describe()));
        }
        let safe = |a: AssertionId| {
            r.statuses
                .iter()
                .any(|(x, s)| *x == a && *s == AssertionStatus::Safe)
        };
        let mut keep: Vec<Vec<bool>> = cands.iter().map(|c| vec![true; c.len()]).collect();
        for &(a, i, j) in &cut.checks {
            keep[i][j] = safe(a) || j < settled.get(i).copied().unwrap_or(0);
        }
        if keep.iter().flatten().all(|k| *k) {
            let safe = (0..p.assertions.len() as u32)
                .map(AssertionId)
                .filter(|&a| safe(a))
                .collect();
            return Ok(Proof {
                invariants: Invariants {
                    prepared: prep,
                    proven: cands,
                    accelerated: Vec::new(),
                },
                safe,
                candidates: all,
                rounds,
            });
        }
        retain_marked(&mut cands, &keep);
    }
}

/// The engine: the original assertions [`prove`] proves are `Safe`, the rest `Unknown`.
pub fn verify(p: &Program, budget: &Budget) -> EngineResult {
    verify_publishing(p, budget, &HeadFacts::new())
}

/// [`verify`], handing the proven invariants to `heads` as soon as Houdini finishes
/// ([`Invariants::publish`]), then marking `heads` finished (also when Houdini found
/// nothing), before k-induction and the result.
pub fn verify_publishing(p: &Program, budget: &Budget, heads: &HeadFacts) -> EngineResult {
    let proof = prove(p, budget);
    if let Ok(proof) = &proof {
        proof.invariants.publish(p, heads);
    }
    heads.finish();
    let (statuses, reason, stats, invariants) = match proof {
        Ok(proof) => {
            // k-induction for what the invariants alone leave open.
            let induction = if proof.safe.len() < p.assertions.len() {
                kinduction::prove(p, &proof, budget)
            } else {
                kinduction::Induction {
                    safe: Vec::new(),
                    k: None,
                }
            };
            let statuses: Vec<(AssertionId, AssertionStatus)> = (0..p.assertions.len() as u32)
                .map(AssertionId)
                .map(|a| {
                    let s = if proof.safe.contains(&a) || induction.safe.contains(&a) {
                        AssertionStatus::Safe
                    } else {
                        AssertionStatus::Unknown(
                            "not proven with the loop invariants found and k-induction".into(),
                        )
                    };
                    (a, s)
                })
                .collect();
            let all = statuses.iter().all(|(_, s)| *s == AssertionStatus::Safe);
            let stats = Stats {
                invariant_candidates: Some(proof.candidate_count() as u64),
                invariants_proven: Some(proof.invariants.count() as u64),
                houdini_checks: Some(proof.rounds),
                k_induction: induction.k.map(|k| k as u64),
                ..Stats::default()
            };
            let reason = (!all).then(|| {
                "not every assertion proven with the loop invariants found and k-induction".into()
            });
            (statuses, reason, stats, proof.invariants.to_report())
        }
        Err(why) => {
            let statuses = (0..p.assertions.len() as u32)
                .map(|a| (AssertionId(a), AssertionStatus::Unknown(why.clone())))
                .collect();
            (statuses, Some(why), Stats::default(), Vec::new())
        }
    };
    EngineResult {
        statuses,
        violation: None,
        unconfirmed_violations: Vec::new(),
        ub_witness: None,
        tool_witness: None,
        invariants,
        reason,
        stats,
    }
}
