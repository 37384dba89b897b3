//! One loop path from summary to the accelerated paths to add (the paper's `π~`, eq. 7).
//!
//! For a path `π` this computes, over the state at the head (`X` = `X(0)`):
//! - `n` with `1 ≤ n ≤ cap ≤ 2^30` (`n = 0` is the skip the loop already has);
//! - `last.x = f_x(n − 1)` for every recurrent `x` — the state at the start of the last
//!   iteration — from the closed forms ([`crate::closed_form`]);
//! - per split of the path condition ([`crate::feasibility`]): every literal at `j = 0`
//!   (over `X`) and at `j = n − 1` (over `last`), with the guards that make it convex;
//! - guards that no closed form leaves the range of its width at `n − 1` or `n` (Sec. 3.4);
//! - the final value of every assigned variable: `π`'s own update applied to `last` — the
//!   last iteration executed exactly — or ⊥ when it needs a variable without closed form;
//! - the memory effect ([`crate::memory`]).
//!
//! Soundness (every state the accelerated path reaches is reached by `π^n`): by induction on
//! `j`, `X(j) = f_X(j)` for `j ≤ n − 1` — `f_X(0) = X`, and the step is the proved formula (4)
//! whose hypotheses (the path condition at `j`, the linearization's side conditions at `j`)
//! hold for every `j ∈ [0, n − 1]` because the split's literals and the range guards hold at
//! both ends and are convex. So every iteration `j < n` is enabled (its condition holds at
//! `X(j)`), and after the last the state is `π`'s update of `X(n − 1) = last`. ⊥ variables
//! get arbitrary values, which [`crate::dismiss`] prevents anything from observing.

use crate::build::{self, and, and_all, bin, int, subst};
use crate::closed_form::{self, Forms};
use crate::feasibility::{self, Lit};
use crate::fnbuild::FnBuilder;
use crate::memory::{self, MemPlan};
use crate::overflow::{in_range, in_range_either, minus_one};
use crate::poly::{Interp, Lin, J_TY};
use crate::summary::{summarize, Summary};
use qicc_ir::{BinOp, EdgeId, Expr, Function, HavocKind, LocalId, Ty, VarRef};
use std::collections::HashMap;
use std::time::Instant;

/// One accelerated path to emit.
pub(crate) struct SplitPlan {
    /// The split's own literals, for reports ("" when the condition needed no split).
    pub desc: String,
    /// Conditions to assume, each over the pre-state and the `last` locals.
    pub assumes: Vec<Expr>,
}

/// Everything the instrumentation needs about one loop path.
pub(crate) struct PathPlan {
    pub summary: Summary,
    pub n: LocalId,
    /// `last.x` locals with their closed form at `n − 1`, in recurrent order.
    pub last: Vec<(VarRef, LocalId, Expr)>,
    pub forms: Forms,
    /// Assigned variables without a final value (⊥).
    pub bottom: Vec<VarRef>,
    /// Final values of the other assigned variables (over `last`, witnesses, invariants).
    pub finals: Vec<(VarRef, Expr)>,
    /// Assumptions shared by all splits: `n ≥ 1`, then value guards, side conditions and
    /// memory guards.
    pub common: Vec<Expr>,
    pub splits: Vec<SplitPlan>,
    /// Memory variants: each split is accelerated once per variant.
    pub mems: Vec<MemPlan>,
}

pub(crate) struct Limits {
    pub max_splits: usize,
    pub deadline: Option<Instant>,
}

/// `path` of `orig` executed symbolically ([`summarize`]), each havoc's witness variable a
/// new local of `fb`.
pub(crate) fn summarize_path(
    fb: &mut FnBuilder,
    orig: &Function,
    k: usize,
    path: &[EdgeId],
) -> Result<Summary, String> {
    let mut widx = 0;
    summarize(orig, path, &mut |v, _| {
        widx += 1;
        let ty = qicc_ir::TypeEnv::var_ty(&*fb, v);
        fb.new_local(&format!("impulse.{k}.w{widx}"), ty)
    })
}

/// What a path's closed forms are computed from, and the forms.
pub(crate) struct PathForms {
    pub assigned: Vec<VarRef>,
    /// The assigned variables whose pre-iteration value the path reads.
    pub recurrent: Vec<VarRef>,
    pub loads_invariant: bool,
    pub forms: Forms,
}

/// The closed forms of the path `summary` describes ([`closed_form::closed_forms`]), with `n`
/// the iteration variable of their induction proofs.
pub(crate) fn path_forms(
    fb: &FnBuilder,
    summary: &Summary,
    n: &Expr,
    deadline: Option<Instant>,
) -> PathForms {
    let assigned = summary.assigned();
    let mut used: Vec<VarRef> = Vec::new();
    for e in summary
        .atoms
        .iter()
        .chain(summary.post.iter().map(|(_, e)| e))
        .chain(summary.stores.iter().flat_map(|s| [&s.addr, &s.value]))
    {
        for v in e.vars() {
            if !used.contains(&v) {
                used.push(v);
            }
        }
    }
    let recurrent: Vec<VarRef> = assigned
        .iter()
        .filter(|v| used.contains(v))
        .copied()
        .collect();
    let loads_invariant = summary.stores.is_empty();
    let forms = closed_form::closed_forms(&closed_form::Inputs {
        env: fb,
        layout: fb.program.layout,
        summary,
        assigned: &assigned,
        recurrent: &recurrent,
        loads_invariant,
        n: n.clone(),
        deadline,
    });
    PathForms {
        assigned,
        recurrent,
        loads_invariant,
        forms,
    }
}

/// Analyses `path` of `orig` (the function as the program has it); new locals go to `fb`.
/// On `Err` the caller rolls `fb` back.
pub(crate) fn analyze(
    fb: &mut FnBuilder,
    orig: &Function,
    k: usize,
    path: &[EdgeId],
    limits: &Limits,
) -> Result<PathPlan, String> {
    let n = fb.new_local(&format!("impulse.{k}.n"), J_TY);
    let summary = summarize_path(fb, orig, k, path)?;
    let reads = loads_to_check(&summary)?;
    let n_expr = Expr::local(n);
    let PathForms {
        assigned,
        recurrent,
        loads_invariant,
        forms,
    } = path_forms(fb, &summary, &n_expr, limits.deadline);
    let failed: Vec<VarRef> = forms.failed.iter().map(|(v, _)| *v).collect();
    let why_failed = |v: VarRef, fb: &FnBuilder| -> String {
        let reason = forms
            .failed
            .iter()
            .find(|(x, _)| *x == v)
            .map_or("no closed form", |(_, r)| r.as_str());
        format!("{} has no closed form ({reason})", fb.var_name(v))
    };
    for e in summary
        .atoms
        .iter()
        .chain(summary.stores.iter().flat_map(|s| [&s.addr, &s.value]))
    {
        if let Some(v) = e.vars().into_iter().find(|v| failed.contains(v)) {
            return Err(format!("the path condition needs {}", why_failed(v, fb)));
        }
    }
    // The state at the start of the last iteration.
    let m = minus_one(&n_expr);
    let mut last = Vec::new();
    let mut last_of: HashMap<VarRef, LocalId> = HashMap::new();
    for &x in &recurrent {
        let Some(p) = forms.forms.get(&x) else {
            continue;
        };
        let name = fb.var_name(x).trim_start_matches(['%', '$']).to_string();
        let ty = qicc_ir::TypeEnv::var_ty(&*fb, x);
        let l = fb.new_local(&format!("impulse.{k}.last.{name}"), ty);
        last.push((x, l, p.at(&m)));
        last_of.insert(x, l);
    }
    let at_last = |e: &Expr| subst(e, &|v| last_of.get(&v).map(|l| Expr::local(*l)));
    // Final values and ⊥.
    let mut bottom = Vec::new();
    let mut finals = Vec::new();
    for (x, e) in &summary.post {
        if e.vars().iter().any(|v| failed.contains(v)) {
            bottom.push(*x);
        } else {
            finals.push((*x, at_last(e)));
        }
    }
    let mut lin = Lin {
        env: &*fb,
        assigned: &assigned,
        forms: &forms.forms,
        loads_invariant,
        side: Vec::new(),
    };
    // Guards shared by every split.
    // `common[0]` is `n ≥ 1`; the upper bound `n ≤ cap` is an edge of its own (see
    // `crate::instrument`), so that the cap can be lowered without a new analysis.
    let mut common = vec![bin(BinOp::Ule, int(J_TY, 1), n_expr.clone())];
    let mut value_guards = Vec::new();
    for &x in &recurrent {
        if let Some(p) = forms.forms.get(&x) {
            // A linear value in range at 0 and n is in range in between.
            if p.degree() > 1 {
                value_guards.push(in_range_either(p, &m));
            }
            value_guards.push(in_range_either(p, &n_expr));
        }
    }
    for c in &forms.side {
        value_guards.push(in_range(&c.poly, c.interp, &m));
    }
    let mut mems = memory::plan(&summary.stores, &reads, &mut lin, &n_expr, &at_last)?;
    mems.retain(|m| !m.guards.iter().any(|g| g.is_false()));
    if mems.is_empty() {
        return Err("the path's memory accesses overlap".into());
    }
    for c in std::mem::take(&mut lin.side) {
        value_guards.push(in_range(&c.poly, c.interp, &m));
    }
    let vg = and_all(value_guards);
    if vg.is_false() {
        return Err("the overflow guards exclude every iteration count".into());
    }
    if !vg.is_true() {
        common.push(vg);
    }
    // Splits of the path condition.
    let env: &dyn qicc_ir::TypeEnv = &*fb;
    let dnf = feasibility::splits(
        &summary.atoms,
        &|e| lin.invariant(e),
        env,
        limits.max_splits,
    )?;
    if dnf.is_empty() {
        return Err("the path condition is unsatisfiable".into());
    }
    let mut splits = Vec::new();
    let mut split_failures = Vec::new();
    for conj in &dnf {
        match split_assumes(
            &mut lin,
            conj,
            &m,
            &at_last,
            fb.program.layout.offset_bits(),
        ) {
            Ok(assumes) => {
                let desc: Vec<String> = conj
                    .iter()
                    .filter(|l| matches!(l, Lit::Cmp { split: true, .. }))
                    .map(|l| qicc_ir::expr_str(fb.program, Some(&fb.func), &l.expr()))
                    .collect();
                splits.push(SplitPlan {
                    desc: desc.join(" and "),
                    assumes,
                });
            }
            Err(e) => split_failures.push(e),
        }
    }
    if splits.is_empty() {
        return Err(split_failures
            .first()
            .cloned()
            .unwrap_or_else(|| "no split of the path condition is convex".into()));
    }
    Ok(PathPlan {
        summary,
        n,
        last,
        forms,
        bottom,
        finals,
        common,
        splits,
        mems,
    })
}

/// The loads of the path's final values and stored values (other than copy sources, which
/// [`crate::memory`] plans itself); `Err` if a condition or a store address loads while the
/// path stores (what it reads could be what an earlier iteration wrote).
fn loads_to_check(summary: &Summary) -> Result<Vec<(Ty, Expr)>, String> {
    let mut out = Vec::new();
    let mut collect = |e: &Expr| {
        e.visit(&mut |x| {
            if let Expr::Load(ty, a) = x {
                out.push((*ty, (**a).clone()));
            }
        })
    };
    for (_, e) in &summary.post {
        collect(e);
    }
    for s in &summary.stores {
        match &s.value {
            Expr::Load(ty, src) if *ty == s.ty => collect(src),
            v => collect(v),
        }
    }
    if summary.stores.is_empty() {
        return Ok(out);
    }
    let has_load = |e: &Expr| {
        let mut l = false;
        e.visit(&mut |x| l |= matches!(x, Expr::Load(..)));
        l
    };
    if summary.atoms.iter().any(has_load) || summary.stores.iter().any(|s| has_load(&s.addr)) {
        return Err("a condition or a store address loads from memory the path stores to".into());
    }
    Ok(out)
}

/// The assumptions of one split: each literal at `j = 0` and `j = n − 1` with its guards.
fn split_assumes(
    lin: &mut Lin,
    conj: &[Lit],
    m: &Expr,
    at_last: &dyn Fn(&Expr) -> Expr,
    offset_bits: u16,
) -> Result<Vec<Expr>, String> {
    let mut inv = Vec::new();
    let mut out = Vec::new();
    let ptr = lin.env.pointer_ty();
    for lit in conj {
        match lit {
            Lit::Inv(e) => inv.push(e.clone()),
            Lit::Cmp { op, a, b, .. } => {
                let (pa, pb) = (lin.lin(a)?, lin.lin(b)?);
                if pa.degree() > 1 || pb.degree() > 1 {
                    return Err("a condition on a quadratic value".into());
                }
                let c0 = lit.expr();
                let guard = match op {
                    BinOp::Slt | BinOp::Sle => and(
                        in_range(&pa, Interp::Signed, m),
                        in_range(&pb, Interp::Signed, m),
                    ),
                    BinOp::Ult | BinOp::Ule => and(
                        in_range(&pa, Interp::Unsigned, m),
                        in_range(&pb, Interp::Unsigned, m),
                    ),
                    _ => build::or(
                        and(
                            in_range(&pa, Interp::Signed, m),
                            in_range(&pb, Interp::Signed, m),
                        ),
                        and(
                            in_range(&pa, Interp::Unsigned, m),
                            in_range(&pb, Interp::Unsigned, m),
                        ),
                    ),
                };
                out.push(and_all([c0.clone(), at_last(&c0), guard]));
            }
            Lit::Valid(access, bytes, a) => {
                let pa = lin.lin(a)?;
                if pa.degree() > 1 {
                    return Err("a validity check at a quadratic address".into());
                }
                let c0 = lit.expr();
                let am = at_last(a);
                let obj = |x: Expr| bin(BinOp::LShr, x, int(ptr, offset_bits as u64));
                let same_object = bin(BinOp::Eq, obj(a.clone()), obj(am.clone()));
                out.push(and_all([
                    c0,
                    Expr::Valid(*access, *bytes, Box::new(am)),
                    in_range(&pa, Interp::Unsigned, m),
                    same_object,
                ]));
            }
        }
    }
    for c in std::mem::take(&mut lin.side) {
        out.push(in_range(&c.poly, c.interp, m));
    }
    let inv = and_all(inv);
    if inv.is_false() {
        return Err("an invariant condition of the split is false".into());
    }
    let mut all = Vec::new();
    if !inv.is_true() {
        all.push(inv);
    }
    all.extend(out.into_iter().filter(|e| !e.is_true()));
    Ok(all)
}

/// The havoc kind of the variables the instrumentation introduces.
pub(crate) fn aux_havoc() -> HavocKind {
    HavocKind::Region
}
