//! The portfolio: the one place where several engines run on one program side by side, and
//! the one rule that combines their answers.
//!
//! Members: the *prover* (the gamble, which proves and finds) and *members* beside it, each a
//! finder (Impulse, which only finds violations) or a finder that also proves (Corral, whose
//! safe statuses are proofs too). Each runs on a thread of its own with its own child budget;
//! a member that is a bet starts [`BET_HEAD_START`] after the prover, if it is still needed.
//!
//! Sharing while running: the loop-invariant member publishes its proven invariants into the
//! gamble's `GambleOptions::head_facts` slot (the driver gives both the same
//! `qicc_engine::HeadFacts`), and region runs that start later assume them at their heads;
//! nothing else passes between running engines.
//!
//! Stopping: a member's violation stops the prover and the other members once the driver's
//! check confirms it (it replays to a property assertion as a C execution; a counterexample
//! only through a signed overflow does not stop the prover, which may still find a real one);
//! so does a member's proof of every assertion. A conclusive prover (a violation, or every
//! assertion safe) stops the members.
//!
//! Combining ([`combine`]), per assertion:
//! - a `Safe` of any run is a proof and is never overridden: a member's proof turns the
//!   prover's inconclusive status into `Safe`, and the report then shows that member's
//!   argument (and its loop invariants, when it proves with them);
//! - a member's violation replaces an inconclusive answer (the prover was stopped for it), and
//!   a violation of the prover's that the driver's check does not confirm (one only through a
//!   signed overflow, which the prover may have had no time to refine) when its own is
//!   confirmed;
//! - a violation of an assertion another run proved safe is a contradiction: one of the two
//!   engines is unsound. It is never resolved by preferring one answer; the witness is kept
//!   (as the violation when there is no other, else beside it) so that the driver replays it
//!   and, if it replays, reports an internal error naming both runs (the consistency check of
//!   `verify::report`).

use crate::report::Argument;
use qicc_engine::{AssertionStatus, Budget, EngineResult, LoopInvariant};
use qicc_gamble::{GambleOptions, GambleResult};
use qicc_ir::{AssertionId, Program, Witness};

/// A member beside the prover.
pub(crate) struct Member<'a> {
    /// How the report names it when it found the violation or proved an assertion.
    pub name: &'static str,
    /// Whether its `Safe` statuses are proofs (else it only finds violations), and the
    /// argument behind them (read from its result).
    pub proves: Option<fn(&EngineResult) -> Argument>,
    /// When it starts and at which priority.
    pub kind: MemberKind,
    pub run: Box<dyn FnOnce(&Budget) -> EngineResult + Send + 'a>,
}

/// How long the whole-program run has the machine to itself before the bets beside it start.
/// A program the prover decides at once (most of what a user runs while writing a harness)
/// then costs what `--engine bmc` costs: no solver context, analysis or C compilation of a
/// member competes with it on a machine of two cores (they doubled the time of tasks decided
/// in 0.05-0.1 s). On a program that takes longer, the members lose a tenth of a second.
pub(crate) const BET_HEAD_START: std::time::Duration = std::time::Duration::from_millis(100);

/// A member's place beside the prover.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MemberKind {
    /// A bet beside the gamble's whole-program run: it starts [`BET_HEAD_START`] after the
    /// prover, if still needed, at lower priority.
    Bet,
    /// A bet that starts likewise but keeps normal priority (it lowers its own when it
    /// chooses: the loop-invariant prover after its Houdini).
    BetAtNormalPriority,
    /// A whole-program run itself (X on the user's files): at once, at normal priority.
    WholeProgram,
}

/// What a member found: its name, its violation and whether the driver's check confirmed it
/// (asked once, in the member's thread: a deep witness's replay is long), and the assertions
/// it proved safe, with the argument and the loop invariants of that proof.
pub(crate) struct Found {
    pub by: String,
    pub violation: Option<(AssertionId, Witness)>,
    /// The external tool's own witness of that violation (X on the user's files).
    pub tool_witness: Option<String>,
    pub confirmed: bool,
    pub safe: Vec<AssertionId>,
    pub argument: Option<Argument>,
    pub invariants: Vec<LoopInvariant>,
}

/// Runs the gamble and the members side by side (see the module docs for when each stops);
/// `confirmed` is the driver's check of a witness.
pub(crate) fn run(
    program: &Program,
    gamble: &GambleOptions,
    members: Vec<Member<'_>>,
    confirmed: &(dyn Fn(&Witness) -> bool + Sync),
    budget: &Budget,
) -> (GambleResult, Vec<Found>) {
    let prover_budget = budget.child(None);
    let member_budget = budget.child(None);
    std::thread::scope(|scope| {
        let handles: Vec<_> = members
            .into_iter()
            .map(|m| {
                let stop_prover = prover_budget.cancel.clone();
                let mb = &member_budget;
                scope.spawn(move || {
                    // Beside the gamble's whole-program run, a bet runs at lower priority.
                    if m.kind == MemberKind::Bet {
                        qicc_engine::priority::lower_this_thread(qicc_engine::priority::BET_NICE);
                    }
                    if m.kind != MemberKind::WholeProgram
                        && !mb.wait(Some(BET_HEAD_START), || false)
                    {
                        return None;
                    }
                    let r = (m.run)(mb);
                    let safe: Vec<AssertionId> = if m.proves.is_some() {
                        r.statuses
                            .iter()
                            .filter(|(_, s)| *s == AssertionStatus::Safe)
                            .map(|(a, _)| *a)
                            .collect()
                    } else {
                        Vec::new()
                    };
                    let proved_all = m.proves.is_some() && safe.len() == r.statuses.len();
                    let confirmed = r.violation.as_ref().is_some_and(|v| confirmed(&v.1));
                    if confirmed || proved_all {
                        stop_prover.cancel();
                        mb.cancel.cancel();
                    }
                    let argument = m.proves.map(|arg| arg(&r));
                    (r.violation.is_some() || !safe.is_empty()).then(|| Found {
                        by: m.name.to_string(),
                        violation: r.violation,
                        tool_witness: r.tool_witness,
                        confirmed,
                        safe,
                        argument,
                        invariants: r.invariants,
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
            member_budget.cancel.cancel();
        }
        let found = handles
            .into_iter()
            .filter_map(|h| h.join().ok().flatten())
            .collect();
        (r, found)
    })
}

/// What [`combine`] tells the report besides the merged answer.
#[derive(Default)]
pub(crate) struct Combined {
    /// Which run found the answer's violation.
    pub violation_by: Option<String>,
    /// Violations of assertions another run proved safe, with the run that found each.
    pub contradicting: Vec<(AssertionId, Witness, String)>,
    /// Assertions a member proved (the prover had not), with the member's name and argument.
    pub proved_by: Vec<(AssertionId, String, Option<Argument>)>,
    /// The loop invariants of the members whose proofs were taken.
    pub invariants: Vec<LoopInvariant>,
}

/// Merges the members' proofs and violations into the prover's answer by the rule of the
/// module docs.
pub(crate) fn combine(
    r: &mut GambleResult,
    found: Vec<Found>,
    confirmed: &dyn Fn(&Witness) -> bool,
) -> Combined {
    let mut out = Combined {
        violation_by: r.violation_found_by.clone(),
        ..Combined::default()
    };
    let status = |r: &GambleResult, a: AssertionId| {
        r.result
            .statuses
            .iter()
            .find(|(id, _)| *id == a)
            .map(|(_, s)| s.clone())
    };
    // Proofs first: a violation of a proven assertion is then a contradiction, whoever found it.
    for f in &found {
        let mut taken = false;
        for &a in &f.safe {
            match status(r, a) {
                Some(AssertionStatus::Safe) | None => continue,
                Some(AssertionStatus::Violated) => {
                    if let Some((va, w)) = r.result.violation.take_if(|(va, _)| *va == a) {
                        r.result.tool_witness = None;
                        let by = out
                            .violation_by
                            .take()
                            .unwrap_or_else(|| "the region search".into());
                        out.contradicting.push((va, w, by));
                    }
                }
                Some(AssertionStatus::Unknown(_) | AssertionStatus::SafeWithin(_)) => {}
            }
            for (id, st) in r.result.statuses.iter_mut() {
                if *id == a {
                    *st = AssertionStatus::Safe;
                }
            }
            out.proved_by.push((a, f.by.clone(), f.argument.clone()));
            taken = true;
        }
        if taken {
            out.invariants.extend(f.invariants.iter().cloned());
        }
    }
    for Found {
        by: name,
        violation,
        tool_witness,
        confirmed: w_confirmed,
        ..
    } in found
    {
        let Some((a, w)) = violation else { continue };
        let proven = status(r, a) == Some(AssertionStatus::Safe);
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
            r.result.tool_witness = tool_witness;
            r.result.reason = None;
            out.violation_by = Some(name);
        } else if proven {
            out.contradicting.push((a, w, name));
        }
    }
    if r.result.violation.is_none()
        && r.result
            .statuses
            .iter()
            .all(|(_, s)| *s == AssertionStatus::Safe)
    {
        r.result.reason = None;
    }
    out
}
