//! Exact acceleration as invariants: the closed forms of a loop's paths
//! (`qicc_impulse::forms`) stated at its head over the number of iterations done.
//!
//! Where some variable `c` changes by exactly +1 or −1 in every iteration (a constant step of
//! [`crate::candidates`]), the iterations done at a head visit are `j = ±(c − c0)`, `c0` being
//! `c`'s entry ghost. For each closed form `f_x` of a path of the loop, `x == f_x(j)` is a
//! candidate, with every variable the loop changes read through its entry ghost (the form is
//! over the values at iteration 0, the loop's entry) and the others as they are (the loop
//! does not change them). Nothing here is trusted: Houdini proves or drops these candidates
//! like any other — the forms Impulse proved hold only on its path and below `2^30`
//! iterations, `j` is exact only modulo `2^w`, and the loop may take other paths.
//!
//! Only forms of degree 1 become candidates (`x == x0 + e·j` with `e` loop-invariant, which
//! the constant steps of [`crate::candidates`] do not cover when `e` is not a constant). A
//! form of degree 2 multiplies two unknowns (`j·(j−1)/2`), and the bit-vector solver did not
//! decide a single Houdini round of the loop `s += i; i++` in 120 s with it.
//!
//! A loop whose every changed variable has a proven closed form (and that changes no memory)
//! is *closed by exact acceleration*: at each head visit its state is its entry state moved
//! `j` iterations along the forms, and the proof that used its invariants checked the rest of
//! the program against exactly that ([`exactly_accelerated`]).

use qicc_analysis::LoopInfo;
use qicc_impulse::forms::{loop_closed_forms, ClosedForm};
use qicc_ir::{BinOp, CastOp, Expr, Program, Ty, TypeEnv, VarRef};
use std::time::Instant;

/// The closed-form candidates of one loop, and the counter they are stated over.
#[derive(Clone, Debug, Default)]
pub struct Closed {
    pub counter: Option<VarRef>,
    pub candidates: Vec<Expr>,
}

/// The closed-form candidates of loop `l` of the prepared program `p`; `stepped` are the
/// variables with one constant step (variable, step, width).
pub(crate) fn candidates(
    p: &Program,
    l: &LoopInfo,
    stepped: &[(VarRef, i128, u16)],
    deadline: Option<Instant>,
) -> Closed {
    let Some((counter, j)) = iterations(l, stepped) else {
        return Closed::default();
    };
    let mut out = Vec::new();
    for forms in loop_closed_forms(p, l.func, l.head, deadline) {
        for f in forms {
            if f.degree() != 1 || f.var == counter {
                continue;
            }
            let e = statement(l, &f, &j);
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    Closed {
        counter: Some(counter),
        candidates: out,
    }
}

/// `x == f_x(j)` with the loop's variables read at entry.
fn statement(l: &LoopInfo, f: &ClosedForm, j: &Expr) -> Expr {
    let at_entry = f.substitute(&mut |v| l.ghost_of(v).map(Expr::local));
    Expr::binary(BinOp::Eq, Expr::Var(f.var), at_entry.at(j))
}

/// The iterations done, `±(c − c0)` as an iteration number of [`ClosedForm::at`], from the
/// first variable of `stepped` with step ±1.
fn iterations(l: &LoopInfo, stepped: &[(VarRef, i128, u16)]) -> Option<(VarRef, Expr)> {
    let &(c, d, w) = stepped.iter().find(|s| s.1 == 1 || s.1 == -1)?;
    let c0 = Expr::local(l.ghost_of(c)?);
    let j = if d == 1 {
        Expr::binary(BinOp::Sub, Expr::Var(c), c0)
    } else {
        Expr::binary(BinOp::Sub, c0, Expr::Var(c))
    };
    let to = ClosedForm::ITERATION_TY;
    let j = match w.cmp(&to.bits()) {
        std::cmp::Ordering::Equal => j,
        std::cmp::Ordering::Less => Expr::cast(CastOp::Zext, to, j),
        std::cmp::Ordering::Greater => Expr::cast(CastOp::Trunc, to, j),
    };
    Some((c, j))
}

/// Whether the proven conditions `proven` of loop `l` close it by exact acceleration: the
/// loop changes no memory, and every integer variable it changes other than the counter
/// has a proven closed form among `closed`'s candidates.
pub(crate) fn exactly_accelerated(
    p: &Program,
    l: &LoopInfo,
    proven: &[Expr],
    closed: &Closed,
) -> bool {
    let Some(counter) = closed.counter else {
        return false;
    };
    if l.memory || l.objects {
        return false;
    }
    let f = p.function(l.func);
    let env = p.env(f);
    let formed: Vec<VarRef> = proven
        .iter()
        .filter(|e| closed.candidates.contains(e))
        .filter_map(|e| match e {
            Expr::Binary(BinOp::Eq, x, _) => match **x {
                Expr::Var(v) => Some(v),
                _ => None,
            },
            _ => None,
        })
        .collect();
    !formed.is_empty()
        && l.ghosts.iter().all(|&(v, _)| {
            v == counter || !matches!(env.var_ty(v), Ty::Int(_)) || formed.contains(&v)
        })
}
