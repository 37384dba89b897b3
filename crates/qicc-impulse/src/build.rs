//! Small constant-folding constructors of IR expressions.
//!
//! Closed forms, guards and substituted path conditions are built from these, so that the
//! instrumented program stays readable (`add(%x, 0:i32)` never appears) and constant parts
//! fold away. Every fold goes through `qicc_ir::semantics`, the single definition of the
//! operators, so a folded expression means exactly what the unfolded one means.
//!
//! Invariant: each constructor returns an expression of the type the IR gives the unfolded
//! operator (callers pass operands of matching types; the crate's tests run
//! `verify_program` on everything it builds).

use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::{BinOp, CastOp, Expr, Ty, UnOp, VarRef};

pub(crate) fn int(ty: Ty, v: u64) -> Expr {
    Expr::konst(ty, v)
}

pub(crate) fn is_zero(e: &Expr) -> bool {
    matches!(e, Expr::Const { value: 0, ty } if ty.is_int())
}

fn konst(e: &Expr) -> Option<(Ty, u64)> {
    match e {
        Expr::Const { ty, value } => Some((*ty, *value)),
        _ => None,
    }
}

/// `op(a, b)` with constant folding and neutral elements.
pub(crate) fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    if let (Some((ty, x)), Some((_, y))) = (konst(&a), konst(&b)) {
        let rty = if op.is_comparison() { Ty::Bool } else { ty };
        return Expr::konst(rty, eval_binop(op, ty, x, y));
    }
    match op {
        BinOp::Add if is_zero(&a) => return b,
        BinOp::Add | BinOp::Sub if is_zero(&b) => return a,
        BinOp::Mul => {
            for (k, other) in [(&a, &b), (&b, &a)] {
                if let Some((ty, v)) = konst(k) {
                    if v == 0 {
                        return int(ty, 0);
                    }
                    if v == 1 {
                        return other.clone();
                    }
                }
            }
        }
        BinOp::And => {
            if a.is_true() {
                return b;
            }
            if b.is_true() {
                return a;
            }
            if a.is_false() || b.is_false() {
                return Expr::bool(false);
            }
        }
        BinOp::Or => {
            if a.is_false() {
                return b;
            }
            if b.is_false() {
                return a;
            }
            if a.is_true() || b.is_true() {
                return Expr::bool(true);
            }
        }
        _ => {}
    }
    Expr::binary(op, a, b)
}

pub(crate) fn add(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Add, a, b)
}

pub(crate) fn sub(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Sub, a, b)
}

pub(crate) fn mul(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Mul, a, b)
}

pub(crate) fn and(a: Expr, b: Expr) -> Expr {
    bin(BinOp::And, a, b)
}

pub(crate) fn or(a: Expr, b: Expr) -> Expr {
    bin(BinOp::Or, a, b)
}

pub(crate) fn and_all(items: impl IntoIterator<Item = Expr>) -> Expr {
    items.into_iter().fold(Expr::bool(true), and)
}

pub(crate) fn or_all(items: impl IntoIterator<Item = Expr>) -> Expr {
    items.into_iter().fold(Expr::bool(false), or)
}

pub(crate) fn un(op: UnOp, a: Expr, ty: Ty) -> Expr {
    if let Some((t, x)) = konst(&a) {
        return Expr::konst(t, eval_unop(op, t, x));
    }
    if let Expr::Unary(inner, x) = &a {
        if *inner == op {
            // neg(neg(x)) = x, not(not(x)) = x
            return (**x).clone();
        }
    }
    let _ = ty;
    Expr::unary(op, a)
}

pub(crate) fn neg(a: Expr, ty: Ty) -> Expr {
    un(UnOp::Neg, a, ty)
}

pub(crate) fn not(a: Expr) -> Expr {
    un(UnOp::Not, a, Ty::Bool)
}

/// Width change of an int of type `from` to type `to`; the identity when the widths agree.
pub(crate) fn cast(op: CastOp, from: Ty, to: Ty, a: Expr) -> Expr {
    if from == to {
        return a;
    }
    if let Some((_, x)) = konst(&a) {
        return Expr::konst(to, eval_cast(op, from, to, x));
    }
    Expr::cast(op, to, a)
}

/// Sign- or zero-extends (or truncates) `a` of type `from` to `to`.
pub(crate) fn resize(signed: bool, from: Ty, to: Ty, a: Expr) -> Expr {
    if to.bits() < from.bits() {
        cast(CastOp::Trunc, from, to, a)
    } else if signed {
        cast(CastOp::Sext, from, to, a)
    } else {
        cast(CastOp::Zext, from, to, a)
    }
}

pub(crate) fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
    if c.is_true() {
        return a;
    }
    if c.is_false() {
        return b;
    }
    if a == b {
        return a;
    }
    Expr::ite(c, a, b)
}

/// `e` with every variable `v` for which `f` answers replaced (simultaneously).
pub(crate) fn subst(e: &Expr, f: &dyn Fn(VarRef) -> Option<Expr>) -> Expr {
    fold(&e.substitute(&mut |v| f(v)))
}

/// Re-folds an expression bottom-up (after a substitution made constants meet).
pub(crate) fn fold(e: &Expr) -> Expr {
    e.rewrite(&mut |x| match x {
        Expr::Binary(op, a, b) => bin(op, *a, *b),
        Expr::Unary(op, a) => {
            if let Some((t, v)) = konst(&a) {
                Expr::konst(t, eval_unop(op, t, v))
            } else {
                Expr::Unary(op, a)
            }
        }
        Expr::Cast(op, to, a) => {
            if let Some((from, v)) = konst(&a) {
                Expr::konst(to, eval_cast(op, from, to, v))
            } else {
                Expr::Cast(op, to, a)
            }
        }
        Expr::Ite(c, a, b) => ite(*c, *a, *b),
        other => other,
    })
}

/// Whether `e` reads any variable of `vars`.
pub(crate) fn reads_any(e: &Expr, vars: &[VarRef]) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let Expr::Var(v) = x {
            found |= vars.contains(v);
        }
    });
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_constants_and_neutral_elements() {
        let x = Expr::Var(VarRef::Global(qicc_ir::GlobalId(0)));
        assert_eq!(add(x.clone(), int(Ty::I32, 0)), x);
        assert_eq!(mul(int(Ty::I32, 1), x.clone()), x);
        assert_eq!(add(int(Ty::I8, 200), int(Ty::I8, 100)), int(Ty::I8, 44));
        assert_eq!(
            bin(BinOp::Slt, int(Ty::I8, 0xff), int(Ty::I8, 0)),
            Expr::bool(true)
        );
        assert_eq!(
            cast(CastOp::Sext, Ty::I8, Ty::I32, int(Ty::I8, 0x80)),
            int(Ty::I32, 0xffff_ff80)
        );
        assert_eq!(and(Expr::bool(true), x.clone()), x);
    }
}
