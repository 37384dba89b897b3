//! Overflow guards (paper, Sec. 3.4): IR conditions saying that the *mathematical* value of a
//! polynomial at an iteration `j` lies inside the range of its width under a reading
//! (signed or unsigned).
//!
//! For `p(j) = c0 + c1·j + c2·C(j,2)` of width `w` read as `I`, the mathematical value is
//! `L(j) = I(c0) + s(c1)·j + s(c2)·C(j,2)` over the integers, where `s` is the signed reading
//! (so adding `0xff…f` counts down). `L(j) ≡ p(j) (mod 2^w)` always; if `L(j)` lies in the
//! range of `I` then `I(p(j)) = L(j)`, i.e. the program's bit-vector value *is* the
//! polynomial's value. For a linear `p`, `L` is monotone, so the range holds on all of
//! `[0, m]` iff it holds at `m` (it holds at 0 trivially).
//!
//! The value is computed in 64 bits. Products and sums carry explicit overflow checks
//! (`a·b` with `b ≥ 0` is exact iff `b = 0 ∨ (a·b)/b = a`; a signed sum overflows iff both
//! operands have one sign and the result the other), so the guard is exact for every width
//! up to 64; for unsigned 64-bit values, where `L` may exceed the signed 64-bit range, the
//! check is made relative to `c0`.

use crate::build::{self, add, and, and_all, bin, int, is_zero, mul, neg, not, or, resize, sub};
use crate::poly::{choose2, Interp, Poly, J_TY};
use qicc_ir::{BinOp, Expr, Ty};

const I64: Ty = Ty::I64;

/// Largest `j` an iteration number takes (`n ≤ 2^30`), and the largest `C(j, 2)`.
const J_MAX: u128 = 1 << 30;
const C2_MAX: u128 = J_MAX * J_MAX / 2;
/// Magnitudes below this cannot overflow a signed 64-bit sum or product.
const SAFE: u128 = 1 << 63;

/// A 64-bit term with a bound on its absolute value, so that overflow checks are only
/// emitted where an overflow is possible.
struct Term {
    e: Expr,
    max_abs: u128,
}

fn slt0(a: &Expr) -> Expr {
    bin(BinOp::Slt, a.clone(), int(I64, 0))
}

/// `a + b` (64 bits) and whether it did not overflow as a signed sum.
fn checked_add(a: Term, b: Term) -> (Term, Expr) {
    if is_zero(&b.e) {
        return (a, Expr::bool(true));
    }
    let s = add(a.e.clone(), b.e.clone());
    let max_abs = a.max_abs + b.max_abs;
    let ok = if max_abs < SAFE {
        Expr::bool(true)
    } else {
        let same_sign = bin(BinOp::Eq, slt0(&a.e), slt0(&b.e));
        let flipped = bin(BinOp::Ne, slt0(&s), slt0(&a.e));
        not(and(same_sign, flipped))
    };
    (Term { e: s, max_abs }, ok)
}

/// `a · k` (64 bits, `0 ≤ k ≤ k_max`) and whether it did not overflow as a signed product.
fn checked_mul(a: Term, k: Expr, k_max: u128) -> (Term, Expr) {
    if is_zero(&a.e) {
        return (
            Term {
                e: int(I64, 0),
                max_abs: 0,
            },
            Expr::bool(true),
        );
    }
    let p = mul(a.e.clone(), k.clone());
    let max_abs = a.max_abs.saturating_mul(k_max);
    let ok = if max_abs < SAFE {
        Expr::bool(true)
    } else {
        let exact = bin(BinOp::Eq, bin(BinOp::SDiv, p.clone(), k.clone()), a.e);
        or(bin(BinOp::Eq, k, int(I64, 0)), exact)
    };
    (Term { e: p, max_abs }, ok)
}

/// A coefficient read as a signed 64-bit number, with its magnitude bound.
fn coefficient(e: &Expr, ty: Ty) -> Term {
    let w = ty.bits();
    let max_abs = match e.as_const() {
        Some(v) => qicc_ir::semantics::to_signed(v, w).unsigned_abs() as u128,
        None => 1u128 << (w - 1),
    };
    Term {
        e: resize(true, ty, I64, e.clone()),
        max_abs,
    }
}

/// The sign of a constant coefficient (`None`: symbolic).
fn sign(e: &Expr, ty: Ty) -> Option<std::cmp::Ordering> {
    e.as_const()
        .map(|v| qicc_ir::semantics::to_signed(v, ty.bits()).cmp(&0))
}

/// The guard "`p(j)` read as `interp` is the mathematical value `L(j)`" (see module docs).
pub(crate) fn in_range(p: &Poly, interp: Interp, j: &Expr) -> Expr {
    use std::cmp::Ordering::{Greater, Less};
    if p.degree() == 0 {
        return Expr::bool(true);
    }
    let w = p.ty.bits();
    let jj = resize(false, J_TY, I64, j.clone());
    let (t1, ok1) = checked_mul(coefficient(&p.c1, p.ty), jj, J_MAX);
    let (t2, ok2) = if is_zero(&p.c2) {
        (
            Term {
                e: int(I64, 0),
                max_abs: 0,
            },
            Expr::bool(true),
        )
    } else {
        checked_mul(coefficient(&p.c2, p.ty), choose2(j, I64), C2_MAX)
    };
    let (delta, ok3) = checked_add(t1, t2);
    let ok = and_all([ok1, ok2, ok3]);
    // With constant coefficients of one sign the value moves one way from c0 (in range), so
    // only one end of the range can be crossed.
    let s1 = sign(&p.c1, p.ty);
    let s2 = if is_zero(&p.c2) {
        Some(std::cmp::Ordering::Equal)
    } else {
        sign(&p.c2, p.ty)
    };
    let up_only = matches!((s1, s2), (Some(a), Some(b)) if a != Less && b != Less);
    let down_only = matches!((s1, s2), (Some(a), Some(b)) if a != Greater && b != Greater);
    if w == 64 {
        let c0 = p.c0.clone();
        let base = Term {
            e: c0.clone(),
            max_abs: SAFE,
        };
        let rest = match interp {
            Interp::Signed => checked_add(base, delta).1,
            Interp::Unsigned => {
                // c0 + Δ stays in [0, 2^64): no carry when Δ ≥ 0, no borrow when Δ < 0.
                let up = bin(BinOp::Ule, c0.clone(), add(c0.clone(), delta.e.clone()));
                let down = bin(BinOp::Ule, neg(delta.e.clone(), I64), c0);
                if up_only {
                    up
                } else if down_only {
                    down
                } else {
                    build::ite(slt0(&delta.e), down, up)
                }
            }
        };
        return and(ok, rest);
    }
    let base = Term {
        e: resize(interp == Interp::Signed, p.ty, I64, p.c0.clone()),
        max_abs: 1u128 << w,
    };
    let (v, ok4) = checked_add(base, delta);
    let (lo, hi) = match interp {
        Interp::Signed => ((-(1i64 << (w - 1))) as u64, ((1i64 << (w - 1)) - 1) as u64),
        Interp::Unsigned => (0, (1u64 << w) - 1),
    };
    let above_lo = bin(BinOp::Sle, int(I64, lo), v.e.clone());
    let below_hi = bin(BinOp::Sle, v.e, int(I64, hi));
    let range = if up_only {
        below_hi
    } else if down_only {
        above_lo
    } else {
        and(above_lo, below_hi)
    };
    and_all([ok, ok4, range])
}

/// In range under either reading: the value does not wrap as a signed *or* as an unsigned
/// number (the guard for closed-form values, whose reading the program does not fix).
pub(crate) fn in_range_either(p: &Poly, j: &Expr) -> Expr {
    if p.degree() == 0 {
        return Expr::bool(true);
    }
    or(
        in_range(p, Interp::Signed, j),
        in_range(p, Interp::Unsigned, j),
    )
}

/// `j - 1` for an iteration count `j ≥ 1`.
pub(crate) fn minus_one(j: &Expr) -> Expr {
    sub(j.clone(), int(J_TY, 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};

    fn eval(e: &Expr) -> u64 {
        fn ty(e: &Expr) -> Ty {
            match e {
                Expr::Const { ty, .. } => *ty,
                Expr::Unary(_, a) | Expr::Ite(_, a, _) => ty(a),
                Expr::Binary(op, a, _) => {
                    if op.is_comparison() {
                        Ty::Bool
                    } else {
                        ty(a)
                    }
                }
                Expr::Cast(_, t, _) => *t,
                _ => panic!("not closed: {e:?}"),
            }
        }
        match e {
            Expr::Const { value, .. } => *value,
            Expr::Unary(op, a) => eval_unop(*op, ty(a), eval(a)),
            Expr::Binary(op, a, b) => eval_binop(*op, ty(a), eval(a), eval(b)),
            Expr::Cast(op, to, a) => eval_cast(*op, ty(a), *to, eval(a)),
            Expr::Ite(c, a, b) => {
                if eval(c) != 0 {
                    eval(a)
                } else {
                    eval(b)
                }
            }
            _ => panic!("not closed: {e:?}"),
        }
    }

    fn lin(ty: Ty, c0: u64, c1: u64) -> Poly {
        Poly {
            ty,
            c0: int(ty, c0),
            c1: int(ty, c1),
            c2: int(ty, 0),
        }
    }

    /// Brute force: the guard at j holds iff no intermediate value wrapped.
    #[test]
    fn guards_agree_with_brute_force_on_i8() {
        for c0 in [0u64, 1, 100, 127, 128, 200, 255] {
            for c1 in [1u64, 2, 0xff, 0xfe] {
                for j in [0u64, 1, 5, 27, 100, 127, 128, 255, 300] {
                    let p = lin(Ty::I8, c0, c1);
                    let d = c1 as u8 as i8 as i64;
                    let su = c0 as i64 + d * j as i64;
                    let ss = c0 as u8 as i8 as i64 + d * j as i64;
                    let want_u = (0..=255).contains(&su);
                    let want_s = (-128..=127).contains(&ss);
                    let jj = int(J_TY, j);
                    assert_eq!(eval(&in_range(&p, Interp::Unsigned, &jj)) == 1, want_u);
                    assert_eq!(eval(&in_range(&p, Interp::Signed, &jj)) == 1, want_s);
                }
            }
        }
    }

    #[test]
    fn guards_are_exact_at_64_bits() {
        let big = lin(Ty::I64, u64::MAX - 10, 1);
        assert_eq!(eval(&in_range(&big, Interp::Unsigned, &int(J_TY, 10))), 1);
        assert_eq!(eval(&in_range(&big, Interp::Unsigned, &int(J_TY, 11))), 0);
        let down = lin(Ty::I64, 5, u64::MAX); // 5 - j
        assert_eq!(eval(&in_range(&down, Interp::Unsigned, &int(J_TY, 5))), 1);
        assert_eq!(eval(&in_range(&down, Interp::Unsigned, &int(J_TY, 6))), 0);
        let smax = lin(Ty::I64, i64::MAX as u64 - 3, 1);
        assert_eq!(eval(&in_range(&smax, Interp::Signed, &int(J_TY, 3))), 1);
        assert_eq!(eval(&in_range(&smax, Interp::Signed, &int(J_TY, 4))), 0);
        let steep = lin(Ty::I64, 0, 1 << 40);
        assert_eq!(
            eval(&in_range(&steep, Interp::Signed, &int(J_TY, 1 << 22))),
            1
        );
        assert_eq!(
            eval(&in_range(&steep, Interp::Signed, &int(J_TY, 1 << 23))),
            0
        );
    }
}
