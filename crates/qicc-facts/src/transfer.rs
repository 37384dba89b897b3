//! Abstract evaluation of expressions and abstract effect of edge operations.
//!
//! Every function here over-approximates: the concrete value of an expression always lies in
//! the returned [`Val`], and every concrete state that passes an assumption is kept by
//! [`refine`]. Operations are computed exactly on mathematical integers and given up on (top)
//! as soon as the exact result could leave the range of a view, which is where bit-vector
//! wrap-around would make the result set non-convex.

use crate::domain::{signed_full, unsigned_full, Range, Val};
use qicc_ir::{BinOp, CastOp, Expr, Op, Ty, TypeEnv, UnOp, VarRef};

/// An abstract state: a value per tracked variable, or `None` for "unreachable".
pub type State = Option<Vec<Option<Val>>>;

/// Maps variables to slots of a [`State`] (locals of one function, then globals).
pub struct Slots {
    pub num_locals: usize,
}

impl Slots {
    pub fn index(&self, v: VarRef) -> usize {
        match v {
            VarRef::Local(l) => l.index(),
            VarRef::Global(g) => self.num_locals + g.index(),
        }
    }
}

fn int_width(ty: Ty) -> Option<u16> {
    match ty {
        Ty::Int(w) if (1..=64).contains(&w) => Some(w),
        _ => None,
    }
}

/// Keeps `r` as a view of width `w` if it fits, else the full view.
fn fit(r: Option<Range>, full: Range) -> Range {
    r.filter(|r| full.contains(*r)).unwrap_or(full)
}

fn arith(op: BinOp, a: Range, b: Range) -> Option<Range> {
    match op {
        BinOp::Add => Range::new(a.lo.checked_add(b.lo)?, a.hi.checked_add(b.hi)?),
        BinOp::Sub => Range::new(a.lo.checked_sub(b.hi)?, a.hi.checked_sub(b.lo)?),
        BinOp::Mul => {
            let c = [
                a.lo.checked_mul(b.lo)?,
                a.lo.checked_mul(b.hi)?,
                a.hi.checked_mul(b.lo)?,
                a.hi.checked_mul(b.hi)?,
            ];
            Range::new(*c.iter().min()?, *c.iter().max()?)
        }
        _ => None,
    }
}

/// The abstract value of an int expression (`None` for bools and unknown types).
pub fn eval(e: &Expr, st: &[Option<Val>], slots: &Slots, env: &dyn TypeEnv) -> Option<Val> {
    let w = int_width(e.ty(env))?;
    let top = Val::top(w);
    let (sf, uf) = (signed_full(w), unsigned_full(w));
    let v = match e {
        Expr::Const { value, .. } => Val::constant(w, *value),
        Expr::Var(v) => st.get(slots.index(*v)).copied().flatten().unwrap_or(top),
        Expr::Binary(op, a, b) => {
            let (Some(x), Some(y)) = (eval(a, st, slots, env), eval(b, st, slots, env)) else {
                return Some(top);
            };
            match op {
                BinOp::Add | BinOp::Sub | BinOp::Mul => {
                    let s = fit(arith(*op, x.s, y.s), sf);
                    let u = fit(arith(*op, x.u, y.u), uf);
                    Val { w, s, u }.reduce().unwrap_or(top)
                }
                BinOp::UDiv if y.u.lo > 0 => {
                    Val::from_unsigned(w, Range::new(x.u.lo / y.u.hi, x.u.hi / y.u.lo))
                }
                BinOp::URem if y.u.lo > 0 => {
                    Val::from_unsigned(w, Range::new(0, (y.u.hi - 1).min(x.u.hi)))
                }
                BinOp::And => Val::from_unsigned(w, Range::new(0, x.u.hi.min(y.u.hi))),
                BinOp::LShr => match y.u.singleton() {
                    Some(k) if k < w as i128 => {
                        Val::from_unsigned(w, Range::new(x.u.lo >> k, x.u.hi >> k))
                    }
                    _ => top,
                },
                _ => top,
            }
        }
        Expr::Unary(UnOp::Neg, a) => match eval(a, st, slots, env) {
            Some(x) => Val::from_signed(w, Range::new(-x.s.hi, -x.s.lo)),
            None => top,
        },
        Expr::Cast(op, _, a) => {
            let Some(x) = eval(a, st, slots, env) else {
                return Some(top);
            };
            match op {
                CastOp::Zext => Val::from_unsigned(w, Some(x.u)),
                CastOp::Sext => Val::from_signed(w, Some(x.s)),
                CastOp::Trunc => {
                    let s = fit(Some(x.s), sf);
                    let u = fit(Some(x.u), uf);
                    Val { w, s, u }.reduce().unwrap_or(top)
                }
            }
        }
        Expr::Ite(_, a, b) => match (eval(a, st, slots, env), eval(b, st, slots, env)) {
            (Some(x), Some(y)) => x.join(y),
            _ => top,
        },
        _ => top,
    };
    Some(v)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum View {
    Signed,
    Unsigned,
}

/// Restricts the variable behind `e` (a variable, or a sign/zero extension of one) to values
/// whose `view` lies in `r`. Returns false if that leaves no value.
fn restrict(
    e: &Expr,
    view: View,
    r: Range,
    st: &mut [Option<Val>],
    slots: &Slots,
    env: &dyn TypeEnv,
) -> bool {
    let (var, view) = match e {
        Expr::Var(v) => (*v, view),
        Expr::Cast(CastOp::Sext, _, inner) if view == View::Signed => match inner.as_ref() {
            Expr::Var(v) => (*v, View::Signed),
            _ => return true,
        },
        Expr::Cast(CastOp::Zext, _, inner) if view == View::Unsigned => match inner.as_ref() {
            Expr::Var(v) => (*v, View::Unsigned),
            _ => return true,
        },
        _ => return true,
    };
    let Some(w) = int_width(env.var_ty(var)) else {
        return true;
    };
    let i = slots.index(var);
    let Some(slot) = st.get_mut(i) else {
        return true;
    };
    let cur = slot.unwrap_or(Val::top(w));
    let narrowed = match view {
        View::Signed => cur.s.meet(r).map(|s| Val { s, ..cur }),
        View::Unsigned => cur.u.meet(r).map(|u| Val { u, ..cur }),
    };
    match narrowed.and_then(Val::reduce) {
        Some(v) => {
            *slot = Some(v);
            true
        }
        None => false,
    }
}

/// Refines `state` by the assumption that `cond` evaluates to `positive`.
pub fn refine(
    state: State,
    cond: &Expr,
    positive: bool,
    slots: &Slots,
    env: &dyn TypeEnv,
) -> State {
    let mut st = state?;
    match cond {
        Expr::Const { value, .. } => ((*value != 0) == positive).then_some(st),
        Expr::Unary(UnOp::Not, a) => refine(Some(st), a, !positive, slots, env),
        Expr::Binary(BinOp::And, a, b) if positive => {
            let s = refine(Some(st), a, true, slots, env);
            refine(s, b, true, slots, env)
        }
        Expr::Binary(BinOp::Or, a, b) if !positive => {
            let s = refine(Some(st), a, false, slots, env);
            refine(s, b, false, slots, env)
        }
        Expr::Binary(BinOp::And, a, b) | Expr::Binary(BinOp::Or, a, b) => {
            // `not (a and b)` or `a or b`: either disjunct may hold.
            let p = matches!(cond, Expr::Binary(BinOp::Or, ..));
            let x = refine(Some(st.clone()), a, p, slots, env);
            let y = refine(Some(st), b, p, slots, env);
            join_states(x, y)
        }
        Expr::Binary(op, a, b) if op.is_comparison() => {
            // Normalise to a positive comparison l OP r.
            let (op, l, r) = match (op, positive) {
                (_, true) => (*op, a.as_ref(), b.as_ref()),
                (BinOp::Eq, false) => (BinOp::Ne, a.as_ref(), b.as_ref()),
                (BinOp::Ne, false) => (BinOp::Eq, a.as_ref(), b.as_ref()),
                (BinOp::Slt, false) => (BinOp::Sle, b.as_ref(), a.as_ref()),
                (BinOp::Sle, false) => (BinOp::Slt, b.as_ref(), a.as_ref()),
                (BinOp::Ult, false) => (BinOp::Ule, b.as_ref(), a.as_ref()),
                (BinOp::Ule, false) => (BinOp::Ult, b.as_ref(), a.as_ref()),
                _ => return Some(st),
            };
            let (Some(lv), Some(rv)) = (eval(l, &st, slots, env), eval(r, &st, slots, env)) else {
                return Some(st);
            };
            let ok = match op {
                BinOp::Eq => {
                    let m = lv.meet(rv);
                    match m {
                        None => false,
                        Some(m) => {
                            restrict(l, View::Signed, m.s, &mut st, slots, env)
                                && restrict(l, View::Unsigned, m.u, &mut st, slots, env)
                                && restrict(r, View::Signed, m.s, &mut st, slots, env)
                                && restrict(r, View::Unsigned, m.u, &mut st, slots, env)
                        }
                    }
                }
                BinOp::Ne => {
                    let mut ok = true;
                    for (x, yv) in [(l, rv), (r, lv)] {
                        let xv = eval(x, &st, slots, env);
                        if let (Some(c), Some(xv)) = (yv.s.singleton(), xv) {
                            if xv.s.lo == c {
                                ok &= restrict(
                                    x,
                                    View::Signed,
                                    Range {
                                        lo: c + 1,
                                        hi: xv.s.hi,
                                    },
                                    &mut st,
                                    slots,
                                    env,
                                );
                            } else if xv.s.hi == c {
                                ok &= restrict(
                                    x,
                                    View::Signed,
                                    Range {
                                        lo: xv.s.lo,
                                        hi: c - 1,
                                    },
                                    &mut st,
                                    slots,
                                    env,
                                );
                            }
                        }
                    }
                    ok
                }
                BinOp::Slt | BinOp::Sle | BinOp::Ult | BinOp::Ule => {
                    let strict = matches!(op, BinOp::Slt | BinOp::Ult) as i128;
                    let view = if matches!(op, BinOp::Slt | BinOp::Sle) {
                        View::Signed
                    } else {
                        View::Unsigned
                    };
                    let (lr, rr, full) = match view {
                        View::Signed => (lv.s, rv.s, signed_full(lv.w)),
                        View::Unsigned => (lv.u, rv.u, unsigned_full(lv.w)),
                    };
                    // l <= r - strict  and  r >= l + strict
                    Range::new(full.lo, rr.hi - strict)
                        .is_some_and(|b| restrict(l, view, b, &mut st, slots, env))
                        && Range::new(lr.lo + strict, full.hi)
                            .is_some_and(|b| restrict(r, view, b, &mut st, slots, env))
                }
                _ => true,
            };
            ok.then_some(st)
        }
        _ => Some(st),
    }
}

pub fn join_states(a: State, b: State) -> State {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(
            x.into_iter()
                .zip(y)
                .map(|(p, q)| match (p, q) {
                    (Some(p), Some(q)) => Some(p.join(q)),
                    _ => None,
                })
                .collect(),
        ),
    }
}

/// The effect of one edge. Calls are delegated to `call_post`, which knows the callee's
/// summary: the caller's state after the call, or `None` if the call cannot return.
pub fn transfer(
    state: &State,
    op: &Op,
    slots: &Slots,
    env: &dyn TypeEnv,
    call_post: &dyn Fn(&Op, &[Option<Val>]) -> State,
) -> State {
    let st = state.as_ref()?;
    match op {
        Op::Assume(c) => refine(Some(st.clone()), c, true, slots, env),
        Op::Error(_) | Op::Halt(_) => None,
        Op::Assign(v, e) => {
            let val = eval(e, st, slots, env);
            let mut st = st.clone();
            if let Some(slot) = st.get_mut(slots.index(*v)) {
                *slot = val;
            }
            Some(st)
        }
        Op::Havoc(v, _) | Op::Alloc { dst: v, .. } => {
            let mut st = st.clone();
            if let Some(slot) = st.get_mut(slots.index(*v)) {
                *slot = None;
            }
            Some(st)
        }
        Op::Call { .. } => call_post(op, st),
        Op::Skip
        | Op::NoWrap(_)
        | Op::Store { .. }
        | Op::Free(_)
        | Op::MemCopy { .. }
        | Op::MemSet { .. }
        | Op::HavocBytes { .. }
        | Op::HavocMemory
        | Op::HavocContents => Some(st.clone()),
    }
}
