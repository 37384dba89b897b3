//! Smart constructors for IR expressions: constant folding (with the IR's own concrete
//! semantics, so folding never changes a value) and a few local simplifications that keep the
//! printed IR readable (`ne(ite(c, 1, 0), 0)` is `c`, `not(slt(a, b))` is `sle(b, a)`).
//!
//! Invariant: every function returns an expression equal in value to the one it was asked to
//! build, of the same type.

use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::{BinOp, CastOp, Expr, Ty, UnOp};

fn konst(e: &Expr) -> Option<(Ty, u64)> {
    match e {
        Expr::Const { ty, value } => Some((*ty, *value)),
        _ => None,
    }
}

pub fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    if let (Some((ta, va)), Some((_, vb))) = (konst(&a), konst(&b)) {
        let v = eval_binop(op, ta, va, vb);
        let ty = if op.is_comparison() { Ty::Bool } else { ta };
        return Expr::konst(ty, v);
    }
    // (x + c1) + c2 is x + (c1 + c2); (x + c1) - c2 is x + (c1 - c2): member and index
    // offsets fold into one constant.
    if let (BinOp::Add | BinOp::Sub, Some((t2, c2))) = (op, konst(&b)) {
        if let Expr::Binary(BinOp::Add, x, c1) = &a {
            if let Some((t1, c1)) = konst(c1) {
                if t1 == t2 {
                    let c = eval_binop(op, t1, c1, c2);
                    return bin(BinOp::Add, (**x).clone(), Expr::konst(t1, c));
                }
            }
        }
    }
    let is_zero = |e: &Expr| {
        matches!(
            e,
            Expr::Const {
                ty: Ty::Int(_),
                value: 0
            }
        )
    };
    let is_one = |e: &Expr| {
        matches!(
            e,
            Expr::Const {
                ty: Ty::Int(_),
                value: 1
            }
        )
    };
    match op {
        BinOp::Add | BinOp::Or | BinOp::Xor if is_zero(&b) => return a,
        BinOp::Add | BinOp::Or | BinOp::Xor if is_zero(&a) => return b,
        BinOp::Sub | BinOp::Shl | BinOp::LShr | BinOp::AShr if is_zero(&b) => return a,
        BinOp::Mul if is_one(&b) => return a,
        BinOp::Mul if is_one(&a) => return b,
        // (ite(c, 1, 0) != 0) is c; (ite(c, 1, 0) == 0) is not(c).
        BinOp::Ne | BinOp::Eq if is_zero(&b) && bool_of_ite(&a).is_some() => {
            if let Some(c) = bool_of_ite(&a) {
                return if op == BinOp::Ne { c } else { not(c) };
            }
        }
        BinOp::And if a.is_true() => return b,
        BinOp::And if b.is_true() => return a,
        BinOp::And if a.is_false() || b.is_false() => return Expr::bool(false),
        BinOp::Or if a.is_false() => return b,
        BinOp::Or if b.is_false() => return a,
        BinOp::Or if a.is_true() || b.is_true() => return Expr::bool(true),
        _ => {}
    }
    Expr::binary(op, a, b)
}

/// `c` for `ite(c, 1, 0)` and `not(c)` for `ite(c, 0, 1)`.
fn bool_of_ite(e: &Expr) -> Option<Expr> {
    if let Expr::Ite(c, x, y) = e {
        match (konst(x), konst(y)) {
            (Some((Ty::Int(_), 1)), Some((Ty::Int(_), 0))) => return Some((**c).clone()),
            (Some((Ty::Int(_), 0)), Some((Ty::Int(_), 1))) => return Some(not((**c).clone())),
            _ => {}
        }
    }
    None
}

/// Logical negation of a bool, or bitwise complement of an int.
pub fn not(e: Expr) -> Expr {
    if let Some((ty, v)) = konst(&e) {
        return Expr::konst(ty, eval_unop(UnOp::Not, ty, v));
    }
    match e {
        Expr::Unary(UnOp::Not, inner) => *inner,
        Expr::Binary(op, a, b) => match op {
            BinOp::Eq => Expr::binary(BinOp::Ne, *a, *b),
            BinOp::Ne => Expr::binary(BinOp::Eq, *a, *b),
            BinOp::Slt => Expr::binary(BinOp::Sle, *b, *a),
            BinOp::Sle => Expr::binary(BinOp::Slt, *b, *a),
            BinOp::Ult => Expr::binary(BinOp::Ule, *b, *a),
            BinOp::Ule => Expr::binary(BinOp::Ult, *b, *a),
            _ => Expr::unary(UnOp::Not, Expr::Binary(op, a, b)),
        },
        other => Expr::unary(UnOp::Not, other),
    }
}

pub fn neg(e: Expr) -> Expr {
    if let Some((ty, v)) = konst(&e) {
        return Expr::konst(ty, eval_unop(UnOp::Neg, ty, v));
    }
    Expr::unary(UnOp::Neg, e)
}

/// Width change of an int from `from` to `to` (sign- or zero-extending when widening).
pub fn resize(e: Expr, from: Ty, to: Ty, signed: bool) -> Expr {
    if from == to {
        return e;
    }
    let op = if to.bits() < from.bits() {
        CastOp::Trunc
    } else if signed {
        CastOp::Sext
    } else {
        CastOp::Zext
    };
    cast(op, from, to, e)
}

pub fn cast(op: CastOp, from: Ty, to: Ty, e: Expr) -> Expr {
    if from == to {
        return e;
    }
    if let Some((ty, v)) = konst(&e) {
        return Expr::konst(to, eval_cast(op, ty, to, v));
    }
    // Casts distribute over an ite of constants: zext(ite(c, 1, 0)) is ite(c, 1, 0) wider.
    if let Expr::Ite(c, x, y) = &e {
        if let (Some((tx, vx)), Some((ty_, vy))) = (konst(x), konst(y)) {
            return Expr::ite(
                (**c).clone(),
                Expr::konst(to, eval_cast(op, tx, to, vx)),
                Expr::konst(to, eval_cast(op, ty_, to, vy)),
            );
        }
    }
    // trunc(zext/sext(x)) back to x's own width is x.
    if op == CastOp::Trunc {
        if let Expr::Cast(CastOp::Zext | CastOp::Sext, _, inner) = &e {
            if let Some(w) = inner_width(inner) {
                if w == to.bits() {
                    return (**inner).clone();
                }
            }
        }
    }
    Expr::cast(op, to, e)
}

/// The width of an expression when it is evident from the expression alone.
fn inner_width(e: &Expr) -> Option<u16> {
    match e {
        Expr::Const { ty, .. } => Some(ty.bits()),
        Expr::Cast(_, ty, _) | Expr::Load(ty, _) => Some(ty.bits()),
        _ => None,
    }
}

pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
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

/// `e != 0` for an int `e` of type `ty`, as a bool.
pub fn to_bool(e: Expr, ty: Ty) -> Expr {
    bin(BinOp::Ne, e, Expr::konst(ty, 0))
}

/// A bool as a C truth value of type `ty` (0 or 1).
pub fn from_bool(c: Expr, ty: Ty) -> Expr {
    ite(c, Expr::konst(ty, 1), Expr::konst(ty, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_with_ir_semantics() {
        let e = bin(BinOp::SDiv, Expr::int(32, 7), Expr::int(32, 0));
        assert_eq!(e, Expr::int(32, 0xffff_ffff));
        let c = cast(CastOp::Sext, Ty::I8, Ty::I32, Expr::int(8, 0x80));
        assert_eq!(c, Expr::int(32, 0xffff_ff80));
    }

    #[test]
    fn simplifies_truth_values() {
        let x = Expr::Var(qicc_ir::VarRef::Local(qicc_ir::LocalId(0)));
        let c = Expr::binary(BinOp::Slt, x.clone(), Expr::int(32, 3));
        let v = from_bool(c.clone(), Ty::I32);
        assert_eq!(to_bool(v.clone(), Ty::I32), c);
        assert_eq!(
            bin(BinOp::Eq, v, Expr::int(32, 0)),
            Expr::binary(BinOp::Sle, Expr::int(32, 3), x)
        );
    }
}

/// The condition under which the signed `w`-bit operation `a op b` (add, sub or mul) does
/// not overflow, for a `nowrap` check; `None` for other operators.
pub fn no_signed_overflow(op: BinOp, ty: Ty, a: &Expr, b: &Expr) -> Option<Expr> {
    let w = ty.bits();
    let min = Expr::konst(ty, 1u64 << (w - 1));
    let zero = Expr::konst(ty, 0);
    let neg = |e: Expr| bin(BinOp::Slt, e, zero.clone());
    let smax = (1i128 << (w - 1)) - 1;
    let smin = -(1i128 << (w - 1));
    let konst_signed = |v: i128| Expr::konst(ty, v as u64);
    // A constant right operand (`i + 1`, `k - 2`): one comparison.
    if let Some(c) = b.as_const() {
        let c = qicc_ir::semantics::to_signed(c, w) as i128;
        let c = match op {
            BinOp::Add => Some(c),
            BinOp::Sub => Some(-c),
            _ => None,
        };
        if let Some(c) = c {
            return Some(if c == 0 {
                Expr::bool(true)
            } else if c > 0 {
                // a + c <= MAX (also `a - MIN`: c = 2^(w-1), so a <= -1)
                bin(BinOp::Sle, a.clone(), konst_signed(smax - c))
            } else {
                // a + c >= MIN
                bin(BinOp::Sle, konst_signed(smin - c), a.clone())
            });
        }
    }
    Some(match op {
        // Overflow iff both operands have the sign the result lacks.
        BinOp::Add => {
            let r = bin(BinOp::Add, a.clone(), b.clone());
            let both = bin(
                BinOp::And,
                bin(BinOp::Xor, r.clone(), a.clone()),
                bin(BinOp::Xor, r, b.clone()),
            );
            not(neg(both))
        }
        // Overflow iff the operands' signs differ and the result's differs from `a`'s.
        BinOp::Sub => {
            let r = bin(BinOp::Sub, a.clone(), b.clone());
            let both = bin(
                BinOp::And,
                bin(BinOp::Xor, a.clone(), b.clone()),
                bin(BinOp::Xor, a.clone(), r),
            );
            not(neg(both))
        }
        BinOp::Mul if w <= 32 => {
            let wide = Ty::Int(64);
            let p = bin(
                BinOp::Mul,
                resize(a.clone(), ty, wide, true),
                resize(b.clone(), ty, wide, true),
            );
            let lo = Expr::konst(wide, (-(1i64 << (w - 1))) as u64);
            let hi = Expr::konst(wide, ((1i64 << (w - 1)) - 1) as u64);
            bin(
                BinOp::And,
                bin(BinOp::Sle, lo, p.clone()),
                bin(BinOp::Sle, p, hi),
            )
        }
        // 64 bits: a == 0 || (a * b / a == b && !(a == -1 && b == MIN)).
        BinOp::Mul => {
            let r = bin(BinOp::Mul, a.clone(), b.clone());
            let back = bin(BinOp::Eq, bin(BinOp::SDiv, r, a.clone()), b.clone());
            let special = bin(
                BinOp::And,
                bin(BinOp::Eq, a.clone(), Expr::konst(ty, u64::MAX)),
                bin(BinOp::Eq, b.clone(), min),
            );
            bin(
                BinOp::Or,
                bin(BinOp::Eq, a.clone(), zero.clone()),
                bin(BinOp::And, back, not(special)),
            )
        }
        // C11 6.5.7p4: `a << b` of a signed `a` is defined iff `a >= 0` and `a * 2^b` fits,
        // i.e. no one bit of `a` reaches the sign bit (`b < w`, checked before).
        BinOp::Shl => {
            let top = bin(BinOp::Sub, Expr::konst(ty, w as u64 - 1), b.clone());
            bin(
                BinOp::And,
                not(neg(a.clone())),
                bin(BinOp::Eq, bin(BinOp::LShr, a.clone(), top), zero),
            )
        }
        _ => return None,
    })
}

#[cfg(test)]
mod overflow_tests {
    use super::*;
    use qicc_ir::semantics::{eval_binop, to_signed};

    /// The `nowrap` condition holds exactly when the mathematical result fits, for every
    /// operator, at 8 bits over all operand pairs (variables and constant right operands).
    #[test]
    fn no_signed_overflow_is_exact_at_8_bits() {
        use qicc_ir::{LocalId, VarRef};
        let ty = Ty::I8;
        let (x, y) = (
            Expr::Var(VarRef::Local(LocalId(0))),
            Expr::Var(VarRef::Local(LocalId(1))),
        );
        for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Shl] {
            for a in 0..256u64 {
                for b in 0..256u64 {
                    let (sa, sb) = (to_signed(a, 8) as i64, to_signed(b, 8) as i64);
                    // A shift's amount is in range (checked before the condition matters).
                    if op == BinOp::Shl && !(0..8).contains(&sb) {
                        continue;
                    }
                    let exact = match op {
                        BinOp::Add => sa + sb,
                        BinOp::Sub => sa - sb,
                        BinOp::Shl if sa < 0 => i64::MAX,
                        BinOp::Shl => sa << sb,
                        _ => sa * sb,
                    };
                    let fits = (-128..=127).contains(&exact);
                    for rhs in [y.clone(), Expr::konst(ty, b)] {
                        let cond = no_signed_overflow(op, ty, &x, &rhs).expect("arith");
                        let got = eval8(&cond, a, b);
                        assert_eq!(got, fits, "{op:?} {sa} {sb} rhs {rhs:?}: {cond:?}");
                    }
                }
            }
        }
        fn eval8(e: &Expr, a: u64, b: u64) -> bool {
            fn ev(e: &Expr, a: u64, b: u64) -> (u64, Ty) {
                match e {
                    Expr::Const { ty, value } => (*value, *ty),
                    Expr::Var(VarRef::Local(l)) => (if l.0 == 0 { a } else { b }, Ty::I8),
                    Expr::Unary(op, x) => {
                        let (v, t) = ev(x, a, b);
                        (qicc_ir::semantics::eval_unop(*op, t, v), t)
                    }
                    Expr::Binary(op, x, y) => {
                        let ((u, t), (v, _)) = (ev(x, a, b), ev(y, a, b));
                        let rt = if op.is_comparison() { Ty::Bool } else { t };
                        (eval_binop(*op, t, u, v), rt)
                    }
                    Expr::Cast(op, to, x) => {
                        let (v, t) = ev(x, a, b);
                        (qicc_ir::semantics::eval_cast(*op, t, *to, v), *to)
                    }
                    other => panic!("unexpected {other:?}"),
                }
            }
            ev(e, a, b).0 != 0
        }
    }
}

/// A float operation, folded when every operand is a constant (with the IR's float semantics,
/// `qicc_ir::semantics::float`, as at run time).
pub fn fp(op: qicc_ir::FpOp, args: Vec<Expr>) -> Expr {
    let consts: Option<Vec<(Ty, u64)>> = args.iter().map(konst).collect();
    if let Some(cs) = consts {
        if let Some(&(ty, _)) = cs.first() {
            let vals: Vec<u64> = cs.iter().map(|c| c.1).collect();
            let v = qicc_ir::semantics::float::eval_fp(op, ty, &vals);
            return Expr::konst(op.result_ty(ty), v);
        }
    }
    Expr::fp(op, args)
}

/// A load of a value of type `ty` from `addr`. Memory holds bytes and the IR loads integers
/// only: a float is read as the integer of its bits and reinterpreted.
pub fn load(ty: Ty, addr: Expr) -> Expr {
    match ty {
        Ty::Float(w) => fp(qicc_ir::FpOp::FromBits, vec![Expr::load(Ty::Int(w), addr)]),
        _ => Expr::load(ty, addr),
    }
}

/// The type and value a store of `value` (of type `ty`) writes: a float is written as the
/// integer of its bits (see [`load`]).
pub fn store_form(ty: Ty, value: Expr) -> (Ty, Expr) {
    match ty {
        Ty::Float(w) => (Ty::Int(w), fp(qicc_ir::FpOp::ToBits, vec![value])),
        _ => (ty, value),
    }
}
