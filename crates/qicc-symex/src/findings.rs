//! What a solver-based engine has found so far, and how it becomes an [`EngineResult`].
//!
//! One rule for every engine on this seam: a violated assertion is one whose counterexample
//! replayed; an assertion with a recorded reason is UNKNOWN with it; every other assertion
//! gets the status the engine's final argument gives (safe after a proof; after a bounded
//! search, safe only if no run can reach it at all, else UNKNOWN with why the search stopped).

use qicc_analysis::reach::{reachable_assertions, reachable_edges};
use qicc_engine::{AssertionStatus, EngineResult, Stats};
use qicc_ir::{AssertionId, Program, Witness};
use std::collections::{BTreeMap, HashSet};

#[derive(Default)]
pub struct Findings {
    /// Replayed violations, in the order found.
    pub violations: Vec<(AssertionId, Witness)>,
    /// Assertions no longer searched for (violated, not replayable, or settled otherwise).
    pub done: HashSet<AssertionId>,
    /// Assertions whose status is known to be inconclusive, and why.
    pub unknown: BTreeMap<AssertionId, String>,
    /// The first undefined-behaviour check found reachable whose model replayed to it
    /// ([`EngineResult::ub_witness`]).
    pub ub_witness: Option<(AssertionId, Witness)>,
}

impl Findings {
    /// Undefined-behaviour check `a` is reachable (a verdict TRUE is then impossible; the
    /// check is UNKNOWN with where it is).
    pub fn ub_reachable(&mut self, p: &Program, a: AssertionId) {
        let asr = p.assertion(a);
        let msg = match asr.kind {
            qicc_ir::AssertKind::Ub(u) => qicc_engine::ub_reachable_reason(&format!(
                "{} at {} ({})",
                u.describe(),
                p.span_str(asr.span),
                p.assertion_label(a)
            )),
            _ => format!("{a} reachable"),
        };
        self.done.insert(a);
        self.unknown.insert(a, msg);
    }

    /// A proof covered every assertion not violated and not recorded as unknown.
    pub fn proven(self, p: &Program, stats: Stats) -> EngineResult {
        let reason = self.unknown.values().next().cloned();
        self.finish(p, reason, stats, |_| AssertionStatus::Safe)
    }

    /// Bounded mode: every execution within `bound` was searched (the cut ones not), with
    /// undefined behaviour settled as for a proof; `cuts` says what the bound cut.
    pub fn proven_within(
        self,
        p: &Program,
        bound: u32,
        cuts: String,
        stats: Stats,
    ) -> EngineResult {
        let reason = self.unknown.values().next().cloned().or(Some(cuts));
        self.finish(p, reason, stats, |_| AssertionStatus::SafeWithin(bound))
    }

    /// The search stopped with the violations found (if any); `reason` is what is open.
    pub fn stopped(self, p: &Program, reason: Option<String>, stats: Stats) -> EngineResult {
        let open = reason
            .clone()
            .unwrap_or_else(|| "not checked: the run stopped at the first violation".into());
        let reachable = reachable_assertions(p, &reachable_edges(p));
        self.finish(p, None, stats, |a| {
            if !reachable.contains(&a) {
                AssertionStatus::Safe
            } else {
                AssertionStatus::Unknown(open.clone())
            }
        })
    }

    /// No answer: `reason` says why (after the first recorded unknown, if any).
    pub fn unknown(self, p: &Program, reason: String, stats: Stats) -> EngineResult {
        if !self.violations.is_empty() {
            return self.stopped(p, Some(reason), stats);
        }
        let reachable = reachable_assertions(p, &reachable_edges(p));
        let why = reason.clone();
        let reason = match self.unknown.values().next() {
            Some(first) => format!("{first}; {reason}"),
            None => reason,
        };
        self.finish(p, Some(reason), stats, |a| {
            if !reachable.contains(&a) {
                AssertionStatus::Safe
            } else {
                AssertionStatus::Unknown(why.clone())
            }
        })
    }

    /// Statuses: violated, then the recorded unknowns, then `default` for the rest.
    fn finish(
        self,
        p: &Program,
        reason: Option<String>,
        stats: Stats,
        default: impl Fn(AssertionId) -> AssertionStatus,
    ) -> EngineResult {
        let violated: HashSet<AssertionId> = self.violations.iter().map(|(a, _)| *a).collect();
        let statuses = p
            .assertion_ids()
            .map(|a| {
                let st = if violated.contains(&a) {
                    AssertionStatus::Violated
                } else if let Some(m) = self.unknown.get(&a) {
                    AssertionStatus::Unknown(m.clone())
                } else {
                    default(a)
                };
                (a, st)
            })
            .collect();
        let violation = self.violations.into_iter().next();
        let reason = if violation.is_some() { None } else { reason };
        EngineResult {
            statuses,
            violation,
            unconfirmed_violations: Vec::new(),
            ub_witness: self.ub_witness,
            tool_witness: None,
            invariants: Vec::new(),
            reason,
            stats,
        }
    }
}
