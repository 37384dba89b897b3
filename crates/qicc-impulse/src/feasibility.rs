//! Feasibility of `π^n` without quantifiers (paper, Sec. 3.3, 4.1 and Fig. 4).
//!
//! `π^n` is feasible iff `∀j ∈ [0, n). C(X(j))` where `C` is `π`'s path condition over the
//! pre-state and `X(j)` the closed forms (Lemma 2). This module brings `C` into a form where
//! the quantifier can be dropped: a disjunction of *splits*, each a conjunction of
//! [`Lit`]erals, where every literal is one of
//! - **invariant**: the same value in every iteration; it holds for all `j` iff at `j = 0`;
//! - a **comparison** `eq | ult | ule | slt | sle` of two int expressions;
//! - a **validity check** `valid.N(addr)`.
//!
//! Splitting (Fig. 4): `P₁ ∨ P₂` is not convex in general, so each disjunct becomes its own
//! accelerated path, `π` restricted to `P₁` and `π` restricted to `P₂` — every run through
//! either is a run of `π^n`, so reachability is preserved as an under-approximation (and as a
//! whole when both are kept). `ne(a, b)` is split into `slt(a, b) ∨ slt(b, a)` (the paper's
//! template for `x ≠ c`); negations are pushed to the comparisons.
//!
//! **Why comparisons and validity checks are convex** (their truth set over `j ∈ [0, n)` is
//! an interval, so a conjunction of them holds on `[0, n)` iff it holds at `0` and `n − 1`):
//! [`crate::accel`] accepts a comparison only when both sides are linear, `a(j) = a0 + a1·j`,
//! and guards (via [`crate::overflow`]) that the *mathematical* value `La(j) = I(a0) +
//! s(a1)·j` stays inside the range of the comparison's reading `I` (signed for `slt`/`sle`,
//! unsigned for `ult`/`ule`; for `eq` either reading, both sides the same one) at `j = n − 1`
//! — hence on all of `[0, n − 1]`, since it is linear and holds at 0. Then the comparison
//! compares `La(j)` with `Lb(j)`, and `{j : La(j) − Lb(j) < 0}` (or `≤ 0`, or `= 0`) for a
//! linear function is an interval: a half-line, a point, empty or everything. A signed
//! reading without the guard would break this (a value passing 2^(w−1) flips the order),
//! which is exactly the overflow the guard excludes. For `valid.N(a(j))` with `a` linear and
//! unsigned non-wrapping on `[0, n − 1]`: if `a(0)` and `a(n − 1)` are valid in the *same*
//! object (the guard compares their object bits), every `a(j)` lies between them, inside
//! that object's valid range `[base, base + size − N]`, and objects neither change size nor
//! liveness along `π` (it has no allocation or `free`).

use qicc_ir::{BinOp, Expr, TypeEnv, UnOp};

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Lit {
    Inv(Expr),
    /// `op(a, b)`; `split`: the literal is one side of a split disjunction.
    Cmp {
        op: BinOp,
        a: Expr,
        b: Expr,
        split: bool,
    },
    Valid(qicc_ir::Access, u32, Expr),
}

impl Lit {
    /// The literal as an IR condition over the pre-state.
    pub fn expr(&self) -> Expr {
        match self {
            Lit::Inv(e) => e.clone(),
            Lit::Cmp { op, a, b, .. } => Expr::binary(*op, a.clone(), b.clone()),
            Lit::Valid(k, n, a) => Expr::Valid(*k, *n, Box::new(a.clone())),
        }
    }
}

type Dnf = Vec<Vec<Lit>>;

/// The conjunction of `atoms` as splits; `invariant` tells which expressions have the same
/// value in every iteration. At most `max` splits.
pub(crate) fn splits(
    atoms: &[Expr],
    invariant: &dyn Fn(&Expr) -> bool,
    env: &dyn TypeEnv,
    max: usize,
) -> Result<Dnf, String> {
    let mut acc: Dnf = vec![Vec::new()];
    for a in atoms {
        let d = normalize(a, true, invariant, env, max)?;
        acc = product(acc, d, max)?;
    }
    Ok(acc)
}

fn product(a: Dnf, b: Dnf, max: usize) -> Result<Dnf, String> {
    if a.len() * b.len() > max {
        return Err(format!("the path condition needs more than {max} splits"));
    }
    let mut out = Vec::new();
    for x in &a {
        for y in &b {
            let mut c = x.clone();
            c.extend(y.iter().cloned());
            out.push(c);
        }
    }
    Ok(out)
}

fn union(mut a: Dnf, b: Dnf, max: usize) -> Result<Dnf, String> {
    a.extend(b);
    if a.len() > max {
        return Err(format!("the path condition needs more than {max} splits"));
    }
    Ok(a)
}

fn normalize(
    e: &Expr,
    positive: bool,
    invariant: &dyn Fn(&Expr) -> bool,
    env: &dyn TypeEnv,
    max: usize,
) -> Result<Dnf, String> {
    if let Expr::Const { value, .. } = e {
        // true: one empty conjunction; false: no disjunct at all.
        return Ok(if (*value != 0) == positive {
            vec![Vec::new()]
        } else {
            Vec::new()
        });
    }
    if invariant(e) {
        let lit = if positive {
            e.clone()
        } else {
            Expr::not(e.clone())
        };
        return Ok(vec![vec![Lit::Inv(lit)]]);
    }
    let cmp = |op, a: &Expr, b: &Expr, split| Lit::Cmp {
        op,
        a: a.clone(),
        b: b.clone(),
        split,
    };
    match e {
        Expr::Unary(UnOp::Not, a) => normalize(a, !positive, invariant, env, max),
        Expr::Binary(op @ (BinOp::And | BinOp::Or), a, b) if a.ty(env).is_bool() => {
            let da = normalize(a, positive, invariant, env, max)?;
            let db = normalize(b, positive, invariant, env, max)?;
            // De Morgan: a negated `and` is an `or` of negations and vice versa.
            if (*op == BinOp::And) == positive {
                product(da, db, max)
            } else {
                union(da, db, max)
            }
        }
        Expr::Binary(op, a, b) if op.is_comparison() && a.ty(env).is_int() => {
            let (op, a, b) = if positive {
                (*op, a, b)
            } else {
                match op {
                    BinOp::Eq => (BinOp::Ne, a, b),
                    BinOp::Ne => (BinOp::Eq, a, b),
                    BinOp::Ult => (BinOp::Ule, b, a),
                    BinOp::Ule => (BinOp::Ult, b, a),
                    BinOp::Slt => (BinOp::Sle, b, a),
                    _ => (BinOp::Slt, b, a),
                }
            };
            Ok(match op {
                BinOp::Ne => vec![
                    vec![cmp(BinOp::Slt, a, b, true)],
                    vec![cmp(BinOp::Slt, b, a, true)],
                ],
                _ => vec![vec![cmp(op, a, b, false)]],
            })
        }
        Expr::Valid(k, n, a) if positive => Ok(vec![vec![Lit::Valid(*k, *n, (**a).clone())]]),
        Expr::Valid(..) => Err("a failing validity check on the path".into()),
        _ => Err("a condition that is neither a comparison nor invariant".into()),
    }
}
