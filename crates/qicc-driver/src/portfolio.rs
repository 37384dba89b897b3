//! The portfolio: the one place where several engines run on one program side by side, and
//! the one rule that combines their answers.
//!
//! Members: a *prover* (the gamble, which proves and finds) and *finders* (Impulse today,
//! which only find violations). Each runs on a thread of its own with its own child budget.
//!
//! Stopping: a finder's violation stops the prover once the driver's check confirms it (it
//! replays to a property assertion as a C execution; a counterexample only through a signed
//! overflow does not stop the prover, which may still find a real one); a conclusive prover (a
//! violation, or every assertion safe) stops the finders.
//!
//! Combining ([`combine`]), per assertion:
//! - a member's `Safe` is a proof and is never overridden;
//! - a finder's violation replaces an inconclusive answer (the prover was stopped for it), and
//!   a violation of the prover's that the driver's check does not confirm (one only through a
//!   signed overflow, which the prover may have had no time to refine) when its own is
//!   confirmed;
//! - a violation of an assertion the prover proved safe is a contradiction: one of the two
//!   engines is unsound. It is never resolved by preferring one answer; the witness is kept
//!   (as the violation when the prover has none, else beside it) so that the driver replays it
//!   and, if it replays, reports an internal error naming both runs (the consistency check of
//!   `verify::report`).

use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_gamble::{GambleOptions, GambleResult};
use qicc_ir::{AssertionId, Program, Witness};

/// A member that only looks for violations.
pub(crate) struct Finder<'a> {
    /// How the report names it when it found the violation.
    pub name: &'static str,
    pub run: Box<dyn FnOnce(&Budget) -> EngineResult + Send + 'a>,
}

/// A violation a finder found: the finder's name, the violation, and whether the driver's
/// check confirmed it (asked once, in the finder's thread: a deep witness's replay is long).
pub(crate) struct Found {
    pub by: String,
    pub violation: (AssertionId, Witness),
    pub confirmed: bool,
}

/// Runs the gamble and the finders side by side (see the module docs for when each stops);
/// `confirmed` is the driver's check of a witness.
pub(crate) fn run(
    program: &Program,
    gamble: &GambleOptions,
    finders: Vec<Finder<'_>>,
    confirmed: &(dyn Fn(&Witness) -> bool + Sync),
    budget: &Budget,
) -> (GambleResult, Vec<Found>) {
    let prover_budget = budget.child(None);
    let finder_budget = budget.child(None);
    std::thread::scope(|scope| {
        let handles: Vec<_> = finders
            .into_iter()
            .map(|f| {
                let stop_prover = prover_budget.cancel.clone();
                let fb = &finder_budget;
                scope.spawn(move || {
                    let violation = (f.run)(fb).violation?;
                    let confirmed = confirmed(&violation.1);
                    if confirmed {
                        stop_prover.cancel();
                    }
                    Some(Found {
                        by: f.name.to_string(),
                        violation,
                        confirmed,
                    })
                })
            })
            .collect();
        let r = qicc_gamble::verify(program, gamble, &prover_budget);
        let conclusive = r.result.violation.is_some()
            || r.result
                .statuses
                .iter()
                .all(|(_, s)| *s == AssertionStatus::Safe);
        if conclusive {
            finder_budget.cancel.cancel();
        }
        let found = handles
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect();
        (r, found)
    })
}

/// Merges the finders' violations into the prover's answer by the rule of the module docs.
/// Returns which run found the answer's violation and the contradicting witnesses (with the
/// run that found each).
pub(crate) fn combine(
    r: &mut GambleResult,
    found: Vec<Found>,
    confirmed: &dyn Fn(&Witness) -> bool,
) -> (Option<String>, Vec<(AssertionId, Witness, String)>) {
    let mut by = r.violation_found_by.clone();
    let mut contradicting = Vec::new();
    for Found {
        by: name,
        violation: (a, w),
        confirmed: w_confirmed,
    } in found
    {
        let proven = r
            .result
            .statuses
            .iter()
            .any(|(id, s)| *id == a && *s == AssertionStatus::Safe);
        let replace = match &r.result.violation {
            None => true,
            // The prover's own witness is checked only here, where it competes.
            Some((_, mine)) => !proven && w_confirmed && !confirmed(mine),
        };
        if replace {
            if !proven {
                for (id, st) in r.result.statuses.iter_mut() {
                    if *id == a {
                        *st = AssertionStatus::Violated;
                    }
                }
            }
            r.result.violation = Some((a, w));
            r.result.reason = None;
            by = Some(name);
        } else if proven {
            contradicting.push((a, w, name));
        }
    }
    (by, contradicting)
}
