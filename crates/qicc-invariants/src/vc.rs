//! Houdini on one verification condition: the program cut with a literal per candidate
//! (`CutMode::Literals`) is executed symbolically once; each round is a set of assumptions
//! over the same solver stack.
//!
//! A round assumes the literals of the candidates still in, and asks whether some check of
//! theirs can fail. A model drops *every* candidate whose check fails in it (no replay is
//! needed: dropping a candidate is always sound, it only weakens what is assumed). UNSAT is
//! the fixpoint: the candidates left are inductive together. That conclusion needs the
//! symbolic execution to have covered every path, so a path it cut (a loop the cut left, a
//! recursion) that is reachable under the final literals makes this return `Err` and the
//! caller use the BMC, which deepens.
//!
//! The original assertions the final literals prove unreachable are proven.

use qicc_analysis::{cut_loops, CutMode, Prepared};
use qicc_engine::Budget;
use qicc_ir::{AssertionId, BinOp, Expr, GlobalId, Program};
use qicc_smt::{CheckMode, CheckResult, SmtSolver, Solver, TermId, TermStore};
use qicc_symex::{Bounds, FnInfo, MemModel};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

/// How long the query over every check at once may take before the checks are asked one by
/// one.
const ALL_AT_ONCE: Duration = Duration::from_millis(250);
/// Checks asked in one query in the passes one by one (a model drops every candidate whose
/// check fails in it; an UNSAT answer passes them all).
const CHUNK: usize = 12;
/// How long one check may take before its candidate is dropped (see `undecided`).
const ONE_QUERY: Duration = Duration::from_secs(1);
/// How long one check may take on the incremental solver before it is asked on a fresh one
/// (for `ONE_QUERY`). Most checks take milliseconds there (it keeps what earlier checks
/// learned: 2 s for a nested product's sampled stage, against 10 s on fresh solvers); a check
/// with products of changing variables often none of the solver's second, and a few
/// milliseconds on a fresh solver (Cohen's cube in a loop).
const INCREMENTAL_FIRST: Duration = Duration::from_millis(300);
/// The most terms a VC may have for Z3's equation solving ([`SmtSolver::solve_equations`]):
/// it ignores interrupts while it runs, which on a large query would keep a cancelled
/// portfolio member, and the verdict, waiting.
const SMALL_VC: usize = 5_000;
/// How long a check on the fresh solver may take the first way (see [`Fresh`]) before it is
/// asked the other way for the rest of `ONE_QUERY`: while no way has decided a check yet,
/// and once one has.
const FIRST_WAY: Duration = Duration::from_millis(200);
const CONFIRMED_WAY: Duration = Duration::from_millis(500);

/// What the fixpoint left: `keep[i][j]` for candidate `j` of loop `i`, the original
/// assertions proven, and the solver checks made.
pub(crate) struct Fixpoint {
    pub keep: Vec<Vec<bool>>,
    pub safe: Vec<AssertionId>,
    pub checks: u64,
}

/// Why the one-VC Houdini gave no answer: the budget, or something it cannot cover (then
/// the BMC-based rounds may).
pub(crate) enum NoAnswer {
    Stopped(String),
    Incomplete,
}

pub(crate) fn houdini(
    p: &Program,
    prep: &Prepared,
    cands: &[Vec<Expr>],
    settled: &[usize],
    budget: &Budget,
) -> Result<Fixpoint, NoAnswer> {
    let cut = cut_loops(prep, cands, CutMode::Literals);
    let q = &cut.program;
    let mut s = TermStore::new();
    let mm = MemModel::new(q, &mut s).map_err(|_| NoAnswer::Incomplete)?;
    let info = FnInfo::of_program(q);
    let bounds = Bounds {
        default: 1,
        loops: HashMap::new(),
    };
    let enc =
        qicc_symex::symex::run(q, &mut s, &info, &mm, &bounds, budget).map_err(|e| match e {
            qicc_symex::SymexError::Stopped(r) => NoAnswer::Stopped(r.describe().to_string()),
            _ => NoAnswer::Incomplete,
        })?;
    // The literals: the prelude holds the globals without initialiser, in global order.
    let mut prelude = enc.prelude.iter();
    let mut global_sym: BTreeMap<GlobalId, TermId> = BTreeMap::new();
    for (g, global) in q.globals.iter().enumerate() {
        if global.init.is_none() {
            if let Some(&t) = prelude.next() {
                global_sym.insert(GlobalId(g as u32), t);
            }
        }
    }
    let mut guard_of: BTreeMap<AssertionId, Vec<TermId>> = BTreeMap::new();
    for h in &enc.errors {
        guard_of.entry(h.assertion).or_default().push(h.guard);
    }
    let fails = |s: &mut TermStore, a: AssertionId| {
        let gs = guard_of.get(&a).cloned().unwrap_or_default();
        s.or_all(&gs)
    };
    let mut keep: Vec<Vec<bool>> = cands.iter().map(|c| vec![true; c.len()]).collect();
    let mut lit = vec![Vec::new(); cands.len()];
    for c in &cut.literals {
        let t = global_sym.get(&c.0).copied().ok_or(NoAnswer::Incomplete)?;
        lit[c.1].push((c.2, t));
    }
    // The settled candidates' checks hold under any superset of their literals: not asked.
    let check_of: Vec<(usize, usize, TermId)> = cut
        .checks
        .iter()
        .filter(|&&(_, i, j)| j >= settled.get(i).copied().unwrap_or(0))
        .map(|&(a, i, j)| (i, j, fails(&mut s, a)))
        .collect();
    // Interrupted by the watcher of `lib::houdini` once the budget is exhausted (the
    // portfolio stops this member when another has the answer).
    let mut solver = qicc_impulse::interrupt::solver(CheckMode::Incremental);
    // The original assertions' checks, and the checks the incremental solver leaves
    // undecided, on a fresh solver each: one-shot queries, with plain assertions where the
    // incremental solver has assumptions, which Z3 bit-blasts after solving equations
    // (`k == i*j` on a nested loop: 0.23 s, against more than 1 s on the incremental solver
    // after the checks before it).
    let mut fresh = Fresh {
        solver: SmtSolver::new(CheckMode::FreshPerCheck),
        small: s.len() <= SMALL_VC,
        prefer: None,
    };
    solver.solve_equations(s.len() <= SMALL_VC);
    let mut checks = 0u64;
    // `cap`: a limit of this check below the budget's.
    let mut ask = |solver: &mut SmtSolver, s: &TermStore, a: &[TermId], cap: Option<Duration>| {
        checks += 1;
        let left = budget
            .deadline
            .map(|d| d.saturating_duration_since(std::time::Instant::now()));
        solver.set_timeout(match (left, cap) {
            (Some(l), Some(c)) => Some(l.min(c)),
            (l, c) => l.or(c),
        });
        if budget.exhausted().is_some() {
            return CheckResult::Unknown("the budget ran out".into());
        }
        solver.check(s, a)
    };
    let active = |keep: &Vec<Vec<bool>>| -> Vec<TermId> {
        lit.iter()
            .enumerate()
            .flat_map(|(i, ls)| ls.iter().filter(move |(j, _)| keep[i][*j]).map(|(_, t)| *t))
            .collect()
    };
    // A check left undecided within `ONE_QUERY` drops its candidate; should the fixpoint then
    // not prove every assertion, the BMC's rounds (whose fresh solvers often decide such
    // checks at once) get their turn with every candidate.
    let mut undecided = false;
    // The candidates whose check the incremental solver left undecided within
    // `INCREMENTAL_FIRST` once: in later passes their checks go to the fresh solver at once,
    // and stay out of the chunks' disjunctions, which they would only make time out (a
    // nested product's sampled stage: two such checks cost 0.25 s in a chunk and 0.3 s
    // alone in each pass, and 5 ms on the fresh solver).
    // A candidate with a product of two variables starts out hard: its check is one the
    // incremental solver rarely decides in time, and asking it there first cost a nested
    // product's sampled stage 0.8 s of timeouts (the disjunction of every check, its chunk's,
    // its own) before the fresh solver proved it in 5 ms.
    let mut hard: Vec<Vec<bool>> = (cands.iter())
        .map(|c| c.iter().map(has_product).collect())
        .collect();
    // The chunks whose disjunction was too hard once: in later passes their checks are asked
    // one by one at once (a pass after a drop asks them under fewer literals, which makes
    // the disjunction no easier; a nested product's sampled stage lost 0.25 s a pass).
    let mut slow_chunk = vec![false; check_of.len().div_ceil(CHUNK)];
    // Once the disjunction of the checks was too hard, later rounds (fewer literals, a
    // harder query) go straight to the checks one by one; so does the first round when a
    // check is hard (the disjunction of every check would hold it).
    let mut one_by_one = check_of.iter().any(|&(i, j, _)| hard[i][j]);
    loop {
        let goals: Vec<TermId> = check_of
            .iter()
            .filter(|(i, j, _)| keep[*i][*j])
            .map(|&(_, _, g)| g)
            .collect();
        let goal = s.or_all(&goals);
        if goal == s.ff() {
            break;
        }
        let lits = active(&keep);
        let mut a = lits.clone();
        a.push(goal);
        let mut verdict = if one_by_one {
            CheckResult::Unknown(String::new())
        } else {
            ask(&mut solver, &s, &a, Some(ALL_AT_ONCE))
        };
        if matches!(verdict, CheckResult::Unknown(_)) && budget.exhausted().is_none() {
            one_by_one = true;
            // The disjunction of every check is too hard in one query: the checks in chunks
            // (and one by one where a chunk is too hard), in passes. A model of a failing
            // check drops every candidate whose check fails in it, and the pass goes on under
            // the literals left (restarting at the first check after each drop costs a pass
            // per drop: 1344 checks on a nested loop with a hundred candidates); a pass
            // without a drop saw every check UNSAT under the same literals, which is the
            // fixpoint. A check the solver cannot decide within `ONE_QUERY` drops its
            // candidate (see `undecided`): on a nested loop, `k == i*j` at the outer head
            // needs `j == m` from two inequalities before the products agree, which
            // bit-blasting does not find in 20 s, while `k == i*m` beside it proves at once.
            verdict = CheckResult::Unsat;
            for (c, chunk) in check_of.chunks(CHUNK).enumerate() {
                // The chunk's checks in one query first (again after each drop, until it
                // passes); one by one when that is too hard.
                let singles: Vec<(usize, usize, TermId)> = loop {
                    let goals: Vec<TermId> = (chunk.iter())
                        .filter(|(i, j, _)| keep[*i][*j] && !hard[*i][*j])
                        .map(|&(_, _, g)| g)
                        .collect();
                    if goals.len() <= 1 || slow_chunk[c] {
                        break chunk.to_vec();
                    }
                    let mut a = active(&keep);
                    a.push(s.or_all(&goals));
                    match ask(&mut solver, &s, &a, Some(ALL_AT_ONCE)) {
                        CheckResult::Unsat => {
                            break (chunk.iter())
                                .filter(|(i, j, _)| hard[*i][*j])
                                .copied()
                                .collect()
                        }
                        CheckResult::Sat => {
                            if !drop_failing(&mut solver, &s, &check_of, &mut keep) {
                                return Err(NoAnswer::Incomplete);
                            }
                            verdict = CheckResult::Sat;
                        }
                        CheckResult::Unknown(why) if budget.exhausted().is_some() => {
                            return Err(NoAnswer::Stopped(why))
                        }
                        CheckResult::Unknown(_) => {
                            slow_chunk[c] = true;
                            break chunk.to_vec();
                        }
                    }
                };
                for (i, j, g) in singles {
                    if !keep[i][j] {
                        continue;
                    }
                    let mut a = active(&keep);
                    a.push(g);
                    let mut answer = if hard[i][j] {
                        CheckResult::Unknown(String::new())
                    } else {
                        ask(&mut solver, &s, &a, Some(INCREMENTAL_FIRST))
                    };
                    let mut by = &mut solver;
                    if matches!(answer, CheckResult::Unknown(_)) && budget.exhausted().is_none() {
                        hard[i][j] = true;
                        answer = fresh.check(&mut ask, &s, &a, budget);
                        by = &mut fresh.solver;
                    }
                    match answer {
                        CheckResult::Unsat => {}
                        CheckResult::Unknown(_) if budget.exhausted().is_none() => {
                            // Dropped as if it failed (always sound: the candidates left
                            // must still prove themselves without it).
                            keep[i][j] = false;
                            undecided = true;
                            verdict = CheckResult::Sat;
                        }
                        CheckResult::Sat => {
                            if !drop_failing(by, &s, &check_of, &mut keep) {
                                return Err(NoAnswer::Incomplete);
                            }
                            verdict = CheckResult::Sat;
                        }
                        CheckResult::Unknown(why) => return Err(NoAnswer::Stopped(why)),
                    }
                }
            }
            if matches!(verdict, CheckResult::Sat) {
                continue;
            }
        }
        match verdict {
            CheckResult::Unsat => break,
            CheckResult::Unknown(why) => return Err(NoAnswer::Stopped(why)),
            CheckResult::Sat => {
                if !drop_failing(&mut solver, &s, &check_of, &mut keep) {
                    return Err(NoAnswer::Incomplete);
                }
            }
        }
    }
    let lits = active(&keep);
    // Complete only if no path the symbolic execution cut short is reachable.
    let cuts: Vec<TermId> = enc.cuts.iter().map(|c| c.guard).collect();
    let any_cut = s.or_all(&cuts);
    if any_cut != s.ff() {
        let mut a = lits.clone();
        a.push(any_cut);
        match ask(&mut solver, &s, &a, Some(ONE_QUERY)) {
            CheckResult::Unsat => {}
            CheckResult::Sat => return Err(NoAnswer::Incomplete),
            CheckResult::Unknown(_) if budget.exhausted().is_none() => {
                return Err(NoAnswer::Incomplete)
            }
            CheckResult::Unknown(why) => return Err(NoAnswer::Stopped(why)),
        }
    }
    // The original assertions on the fresh solver: once the invariants are fixed, an
    // assertion's check is a one-shot query, which bit-blasting decides far faster than the
    // incremental solver (half_2: 0.05 s against 0.6 s).
    let mut safe = Vec::new();
    for a in (0..p.assertions.len() as u32).map(AssertionId) {
        let g = fails(&mut s, a);
        if g == s.ff() {
            safe.push(a);
            continue;
        }
        let mut x = lits.clone();
        x.push(g);
        match fresh.check(&mut ask, &s, &x, budget) {
            CheckResult::Unsat => safe.push(a),
            CheckResult::Sat => {}
            // As for a check too hard in the rounds: the BMC's rounds take over.
            CheckResult::Unknown(_) if budget.exhausted().is_none() => {
                return Err(NoAnswer::Incomplete)
            }
            CheckResult::Unknown(why) => return Err(NoAnswer::Stopped(why)),
        }
    }
    if undecided && safe.len() < p.assertions.len() {
        return Err(NoAnswer::Incomplete);
    }
    Ok(Fixpoint { keep, safe, checks })
}

/// The fresh solver of one-shot checks, which asks each check two ways within `ONE_QUERY`
/// (on Z3; other back-ends have one way): with Z3's equation solving and without it (only without on a VC that is not small, see
/// `SMALL_VC`). Each way decides checks over products the other does not: a nested product's
/// `k == i*m + j` in 5 ms with it, more than 1 s without; a triangle's `i*i == i + 2*k` after
/// its inner loop in 0.15 s without, 7 s with. The way that decided the last check goes
/// first (for `CONFIRMED_WAY`; before any has, equation solving for `FIRST_WAY`): the
/// checks of one VC tend to favour one way.
struct Fresh {
    solver: SmtSolver,
    small: bool,
    /// Whether the last check decided was decided with equation solving (`None`: none yet).
    prefer: Option<bool>,
}

type Ask<'a> =
    dyn FnMut(&mut SmtSolver, &TermStore, &[TermId], Option<Duration>) -> CheckResult + 'a;

impl Fresh {
    fn check(
        &mut self,
        ask: &mut Ask<'_>,
        s: &TermStore,
        a: &[TermId],
        budget: &Budget,
    ) -> CheckResult {
        // One way only for a large VC, and on a back-end without the switch.
        if !self.small || !self.solver.has_equation_solving() {
            self.solver.solve_equations(false);
            return ask(&mut self.solver, s, a, Some(ONE_QUERY));
        }
        let first = self.prefer.unwrap_or(true);
        let cap = if self.prefer.is_some() {
            CONFIRMED_WAY
        } else {
            FIRST_WAY
        };
        let mut way = first;
        for limit in [cap, ONE_QUERY - cap] {
            self.solver.solve_equations(way);
            let answer = ask(&mut self.solver, s, a, Some(limit));
            if !matches!(answer, CheckResult::Unknown(_)) {
                self.prefer = Some(way);
                return answer;
            }
            if budget.exhausted().is_some() {
                return answer;
            }
            way = !way;
        }
        CheckResult::Unknown(format!("undecided within {ONE_QUERY:?} either way"))
    }
}

/// Drops every candidate still kept whose check fails in the solver's model; whether one
/// went (none: the model is of no check, and the one VC cannot go on).
fn drop_failing(
    solver: &mut SmtSolver,
    s: &TermStore,
    check_of: &[(usize, usize, TermId)],
    keep: &mut [Vec<bool>],
) -> bool {
    let mut dropped = false;
    for &(i, j, g) in check_of {
        if keep[i][j] && solver.value(s, g).map(|v| v.as_u64()) == Some(1) {
            keep[i][j] = false;
            dropped = true;
        }
    }
    dropped
}

/// Whether `e` multiplies two non-constant terms (`k == m*i + j`, not `k == 4*i`).
fn has_product(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let Expr::Binary(BinOp::Mul, a, b) = x {
            found |= a.as_const().is_none() && b.as_const().is_none();
        }
    });
    found
}
