//! The instrumented program: every accelerated path as an extra alternative at its loop head
//! (paper, Fig. 2), then the ⊥/overlay guards of [`crate::dismiss`].
//!
//! An accelerated path is a chain of edges from the head back to the head:
//!
//! ```text
//! havoc %impulse.K.n region                 ; entry edge: the iteration count n
//! assume n <= cap                           ; cap edge (2^30, lowered by `with_cap`)
//! assume 1 <= n [and no active overlay of this path]
//! havoc %impulse.K.wI region                ; one value per havoc of π, used by every iteration
//! %impulse.K.last.x := f_x(n - 1)           ; the state at the start of the last iteration
//! assume ...                                ; guards, then each literal at 0 and n - 1
//! memory effect                             ; store / memset / overlay bookkeeping
//! %x := update_x(last)                      ; final values (simultaneous: they read only
//!                                           ; last.*, witnesses and loop-invariant values)
//! havoc %y region; %impulse.bot.y := true   ; ⊥ variables
//! ```
//!
//! Loops are processed innermost first; each loop gets at most `max_paths_per_loop` paths
//! from [`crate::paths`], each path one accelerated path per convex split. The original
//! edges keep their ids ([`crate::fnbuild`]), which is what [`crate::expand`] relies on.

use crate::accel::{self, aux_havoc, Limits, PathPlan};
use crate::closed_form::{describe, Method};
use crate::dismiss::{self, OverlaySlot};
use crate::fnbuild::FnBuilder;
use crate::loops::natural_loops;
use crate::memory::MemEffect;
use crate::paths::select_paths;
use crate::poly::{Poly, J_TY, N_MAX};
use crate::{Acceleration, ImpulseOptions, Instrumented, Skipped, WitnessVar};
use qicc_ir::{expr_str, EdgeId, Expr, FuncId, Loc, LocalId, Op, Program, Span, Ty, VarRef};
use std::collections::{HashMap, HashSet};
use std::time::Instant;

/// Instruments every function of `program` (see the crate docs). `stopped` (the budget's
/// cancellation: the portfolio stops Impulse when another engine has the answer) and the
/// `deadline` are checked before each loop; a loop not reached is skipped.
pub(crate) fn instrument(
    program: &Program,
    opts: &ImpulseOptions,
    deadline: Option<Instant>,
    stopped: &dyn Fn() -> bool,
) -> Instrumented {
    let mut out = program.clone();
    let mut accelerations = Vec::new();
    let mut skipped = Vec::new();
    let mut loops_seen = 0;
    let touches = dismiss::touches_memory(program);
    for fid in program.function_ids() {
        let orig = program.function(fid);
        let mut fb = FnBuilder::new(program, orig);
        let mut st = FnState::default();
        let (loops, irreducible) = natural_loops(orig);
        loops_seen += loops.len() + irreducible.len();
        for (head, reason) in irreducible {
            skipped.push(Skipped {
                func: fid,
                head,
                reason,
            });
        }
        for lp in &loops {
            if opts.max_paths_per_loop == 0 {
                skipped.push(Skipped {
                    func: fid,
                    head: lp.head,
                    reason: "acceleration is disabled (no paths per loop)".into(),
                });
                continue;
            }
            if deadline.is_some_and(|d| Instant::now() >= d) || stopped() {
                skipped.push(Skipped {
                    func: fid,
                    head: lp.head,
                    reason: "time limit reached before this loop".into(),
                });
                continue;
            }
            let paths = match select_paths(program, orig, lp, opts.max_paths_per_loop, deadline) {
                Ok(p) => p,
                Err(why) => {
                    skipped.push(Skipped {
                        func: fid,
                        head: lp.head,
                        reason: why,
                    });
                    continue;
                }
            };
            if paths.is_empty() {
                skipped.push(Skipped {
                    func: fid,
                    head: lp.head,
                    reason: "no loop path can run twice in a row".into(),
                });
                continue;
            }
            let before = accelerations.len();
            let mut reasons = Vec::new();
            for path in paths {
                let k = accelerations.len();
                let cp = fb.checkpoint();
                let limits = Limits {
                    max_splits: opts.max_splits,
                    deadline,
                };
                match accel::analyze(&mut fb, orig, k, &path, &limits) {
                    Ok(plan) => {
                        emit(
                            &mut fb,
                            &mut st,
                            fid,
                            lp.head,
                            &path,
                            &plan,
                            &mut accelerations,
                        );
                    }
                    Err(why) => {
                        fb.rollback(cp);
                        let shown: Vec<String> = path.iter().map(|e| e.0.to_string()).collect();
                        reasons.push(format!("path [{}]: {why}", shown.join(" ")));
                    }
                }
            }
            if accelerations.len() == before {
                skipped.push(Skipped {
                    func: fid,
                    head: lp.head,
                    reason: reasons.join("; "),
                });
            }
        }
        dismiss::apply(
            &mut fb,
            &dismiss::Input {
                flags: &st.flags,
                overlays: &st.overlays,
                skip: &st.skip,
                is_entry: fid == program.entry,
                touches_memory: &touches,
            },
        );
        out.functions[fid.index()] = fb.func;
    }
    Instrumented {
        program: out,
        accelerations,
        skipped,
        loops_seen,
    }
}

/// Per-function instrumentation state shared by its accelerated paths.
#[derive(Default)]
struct FnState {
    flags: HashMap<VarRef, LocalId>,
    overlays: Vec<OverlaySlot>,
    skip: HashSet<EdgeId>,
}

/// Emits one accelerated path per split of `plan`.
fn emit(
    fb: &mut FnBuilder,
    st: &mut FnState,
    fid: FuncId,
    head: Loc,
    path: &[EdgeId],
    plan: &PathPlan,
    out: &mut Vec<Acceleration>,
) {
    let span = path
        .first()
        .map(|e| fb.func.edge(*e).span)
        .unwrap_or(Span::UNKNOWN);
    let closed_forms = describe_forms(fb, plan);
    let bottom_names: Vec<String> = plan.bottom.iter().map(|v| fb.var_name(*v)).collect();
    for v in &plan.bottom {
        if !st.flags.contains_key(v) {
            let name = fb.var_name(*v).trim_start_matches(['%', '$']).to_string();
            let f = fb.new_local(&format!("impulse.bot.{name}"), Ty::Bool);
            st.flags.insert(*v, f);
        }
    }
    for (split, mem) in plan
        .splits
        .iter()
        .flat_map(|s| plan.mems.iter().map(move |m| (s, m)))
    {
        let k = out.len();
        let n = Expr::local(plan.n);
        let mut ops: Vec<(Op, Role)> = Vec::new();
        ops.push((Op::Havoc(VarRef::Local(plan.n), aux_havoc()), Role::Entry));
        ops.push((Op::Assume(cap_condition(plan.n, N_MAX)), Role::Cap));
        let mut first = plan.common[0].clone();
        // One overlay slot per overlay effect; re-entering the path while one is active is
        // blocked (the slot holds only one range).
        let mut slots: Vec<Option<Slot>> = Vec::new();
        for (i, effect) in mem.effects.iter().enumerate() {
            let slot = match effect {
                MemEffect::Overlay {
                    width,
                    value,
                    decreasing,
                    ..
                } => Some(new_slot(
                    fb,
                    &format!("{k}.ov{i}"),
                    *width,
                    value,
                    *decreasing,
                )),
                _ => None,
            };
            if let Some((s, _)) = &slot {
                first = crate::build::and(crate::build::not(Expr::local(s.on)), first);
            }
            slots.push(slot);
        }
        ops.push((Op::Assume(first), Role::Other));
        for (_, w) in plan.summary.havocs.iter().map(|(e, _, w)| (e, w)) {
            ops.push((Op::Havoc(VarRef::Local(*w), aux_havoc()), Role::Witness));
        }
        for (_, l, e) in &plan.last {
            ops.push((Op::Assign(VarRef::Local(*l), e.clone()), Role::Other));
        }
        for a in plan.common[1..]
            .iter()
            .chain(mem.guards.iter().filter(|g| !g.is_true()))
            .chain(&split.assumes)
        {
            ops.push((Op::Assume(a.clone()), Role::Other));
        }
        // Stores and memsets first, then the overlays are switched on (the ranges are
        // disjoint, so the order does not matter; this one keeps the dismissal guards of the
        // first kind trivially true).
        let mut memory = Vec::new();
        for overlays in [false, true] {
            for (effect, slot) in mem.effects.iter().zip(&slots) {
                if matches!(effect, MemEffect::Overlay { .. }) == overlays {
                    memory.push(memory_ops(fb, effect, slot.as_ref(), &n, &mut ops));
                }
            }
        }
        if memory.is_empty() {
            memory.push("none".to_string());
        }
        let memory = memory.join("; ");
        for (x, e) in &plan.finals {
            ops.push((Op::Assign(*x, e.clone()), Role::Other));
        }
        for v in &plan.bottom {
            ops.push((Op::Havoc(*v, aux_havoc()), Role::Book));
            let f = st.flags[v];
            ops.push((Op::Assign(VarRef::Local(f), Expr::bool(true)), Role::Book));
        }
        let (op_list, roles): (Vec<Op>, Vec<Role>) = ops.into_iter().unzip();
        let ids = fb.chain(head, op_list, head, span);
        let mut witnesses = Vec::new();
        let mut havoc_iter = plan.summary.havocs.iter();
        for (id, role) in ids.iter().zip(&roles) {
            match role {
                Role::Book => {
                    st.skip.insert(*id);
                }
                Role::Witness => {
                    if let Some((pe, _, w)) = havoc_iter.next() {
                        witnesses.push(WitnessVar {
                            path_edge: *pe,
                            var: *w,
                            havoc_edge: *id,
                        });
                    }
                }
                _ => {}
            }
        }
        st.overlays
            .extend(slots.into_iter().flatten().map(|(s, _)| s));
        out.push(Acceleration {
            func: fid,
            head,
            path: path.to_vec(),
            split: [split.desc.as_str(), mem.desc.as_str()]
                .iter()
                .filter(|d| !d.is_empty())
                .copied()
                .collect::<Vec<_>>()
                .join("; "),
            n_var: plan.n,
            witnesses,
            closed_forms: closed_forms.clone(),
            bottom: bottom_names.clone(),
            memory,
            entry_edge: ids[0],
            cap_edge: ids[1],
            exit_edge: *ids.last().expect("an accelerated path has edges"),
        });
    }
}

/// An overlay slot with the assignments of its coefficient locals.
type Slot = (OverlaySlot, Vec<(LocalId, Expr)>);

/// An overlay slot for a value polynomial: constant coefficients stay constants, the others
/// are kept in locals (returned with the expressions to assign them).
fn new_slot(fb: &mut FnBuilder, tag: &str, width: u32, value: &Poly, decreasing: bool) -> Slot {
    let ptr = fb.program.pointer_ty();
    let mut sets = Vec::new();
    let mut coeff = |fb: &mut FnBuilder, name: &str, e: &Expr| -> Expr {
        if e.as_const().is_some() {
            e.clone()
        } else {
            let l = fb.new_local(&format!("impulse.{tag}.{name}"), value.ty);
            sets.push((l, e.clone()));
            Expr::local(l)
        }
    };
    let c0 = coeff(fb, "c0", &value.c0);
    let c1 = coeff(fb, "c1", &value.c1);
    let c2 = coeff(fb, "c2", &value.c2);
    let slot = OverlaySlot {
        on: fb.new_local(&format!("impulse.{tag}.on"), Ty::Bool),
        lo: fb.new_local(&format!("impulse.{tag}.lo"), ptr),
        len: fb.new_local(&format!("impulse.{tag}.len"), ptr),
        n: fb.new_local(&format!("impulse.{tag}.n"), J_TY),
        value: Poly {
            ty: value.ty,
            c0,
            c1,
            c2,
        },
        width,
        value_ty: value.ty,
        decreasing,
        patches: (0..dismiss::PATCHES)
            .map(|i| dismiss::Patch {
                on: fb.new_local(&format!("impulse.{tag}.p{i}.on"), Ty::Bool),
                addr: fb.new_local(&format!("impulse.{tag}.p{i}.addr"), ptr),
                value: fb.new_local(&format!("impulse.{tag}.p{i}.value"), value.ty),
                take: fb.new_local(&format!("impulse.{tag}.p{i}.take"), Ty::Bool),
            })
            .collect(),
    };
    (slot, sets)
}

/// Appends the operations of one memory effect; returns its description.
fn memory_ops(
    fb: &FnBuilder,
    effect: &MemEffect,
    slot: Option<&Slot>,
    n: &Expr,
    ops: &mut Vec<(Op, Role)>,
) -> String {
    match (effect, slot) {
        (MemEffect::Last { ty, addr, value }, _) => {
            ops.push((
                Op::Store {
                    ty: *ty,
                    addr: addr.clone(),
                    value: value.clone(),
                },
                Role::Other,
            ));
            format!("the last iteration's store at {}", show(fb, addr))
        }
        (MemEffect::Copy { dst, src, len }, _) => {
            ops.push((
                Op::MemCopy {
                    dst: dst.clone(),
                    src: src.clone(),
                    len: len.clone(),
                },
                Role::Other,
            ));
            format!(
                "memcpy({}, {}, {})",
                show(fb, dst),
                show(fb, src),
                show(fb, len)
            )
        }
        (MemEffect::Fill { dst, byte, len }, _) => {
            ops.push((
                Op::MemSet {
                    dst: dst.clone(),
                    byte: byte.clone(),
                    len: len.clone(),
                },
                Role::Other,
            ));
            format!(
                "memset({}, {}, {})",
                show(fb, dst),
                show(fb, byte),
                show(fb, len)
            )
        }
        (MemEffect::Overlay { lo, value, .. }, Some((s, sets))) => {
            let ptr = fb.program.pointer_ty();
            // Not bookkeeping for the dismissal pass: the coefficients read pre-state values,
            // which a flag may mark undefined.
            let set = |v: LocalId, e: Expr| (Op::Assign(VarRef::Local(v), e), Role::Other);
            ops.push(set(s.lo, lo.clone()));
            ops.push(set(s.n, n.clone()));
            ops.push(set(s.len, dismiss::overlay_len(s, ptr)));
            for (l, e) in sets {
                ops.push(set(*l, e.clone()));
            }
            for q in &s.patches {
                ops.push(set(q.on, Expr::bool(false)));
            }
            ops.push(set(s.on, Expr::bool(true)));
            format!(
                "overlay of {}-byte elements from {} with value {}",
                s.width,
                show(fb, lo),
                describe(value, &|e| show(fb, e))
            )
        }
        (MemEffect::Overlay { .. }, None) => unreachable!("every overlay effect gets a slot"),
    }
}

/// `n ≤ cap`, the condition of an accelerated path's cap edge.
pub(crate) fn cap_condition(n: LocalId, cap: u64) -> Expr {
    crate::build::bin(
        qicc_ir::BinOp::Ule,
        Expr::local(n),
        crate::build::int(J_TY, cap.min(N_MAX)),
    )
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Entry,
    /// The `n ≤ cap` edge.
    Cap,
    Witness,
    /// Bookkeeping the dismissal pass must not guard: the ⊥ havoc and the flag it sets
    /// (guarding them would clear the flag they are about to set).
    Book,
    Other,
}

fn show(fb: &FnBuilder, e: &Expr) -> String {
    expr_str(fb.program, Some(&fb.func), e)
}

fn describe_forms(fb: &FnBuilder, plan: &PathPlan) -> Vec<String> {
    let mut out = Vec::new();
    for (x, _, _) in &plan.last {
        if let Some(p) = plan.forms.forms.get(x) {
            let how = match plan.forms.method.get(x) {
                Some(Method::Constraint) => "constraint-based",
                _ => "syntactic",
            };
            out.push(format!(
                "{}(j) = {} [{how}]",
                fb.var_name(*x),
                describe(p, &|e| show(fb, e))
            ));
        }
    }
    for (x, why) in &plan.forms.failed {
        out.push(format!("{} = ⊥ ({why})", fb.var_name(*x)));
    }
    out
}
