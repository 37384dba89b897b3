//! The meaning of every operator on concrete bit-vectors.
//!
//! This is the one definition the interpreter, constant folding and the closed-form
//! acceleration share, and it matches SMT-LIB's `QF_BV` exactly, so that a model found by the
//! solver replays unchanged: `udiv x 0 = ~0`, `urem x 0 = x`, `sdiv x 0 = (x < 0 ? 1 : -1)`,
//! `srem x 0 = x`, shifts by at least the width give 0 (or the sign fill for `ashr`).
//! Values are `u64` holding the low `bits` bits; bools are 0 or 1.
//!
//! Floating-point operations (IEEE 754 binary32/binary64 on bit patterns, with their NaN,
//! signed-zero, rounding-mode and conversion decisions) are defined in [`float`].
//!
//! Memory (objects, allocation, liveness, `valid`, `havoc_memory`) is defined in
//! [`crate::memory`].

pub mod float;

use crate::expr::{BinOp, CastOp, UnOp};
use crate::types::{mask, Ty};

/// `value` (low `bits` bits) as a signed integer.
pub fn to_signed(value: u64, bits: u16) -> i64 {
    if bits >= 64 {
        value as i64
    } else {
        let shift = 64 - bits as u32;
        ((value << shift) as i64) >> shift
    }
}

/// The low `bits` bits of `value`.
pub fn truncate(value: u64, bits: u16) -> u64 {
    value & mask(bits)
}

pub fn eval_unop(op: UnOp, ty: Ty, a: u64) -> u64 {
    match (op, ty) {
        (UnOp::Not, Ty::Bool) => (a == 0) as u64,
        (UnOp::Not, _) => !a & ty.mask(),
        (UnOp::Neg, _) => a.wrapping_neg() & ty.mask(),
    }
}

/// `ty` is the operands' type.
pub fn eval_binop(op: BinOp, ty: Ty, a: u64, b: u64) -> u64 {
    let bits = ty.bits();
    let m = ty.mask();
    let (a, b) = (a & m, b & m);
    let sa = to_signed(a, bits);
    let sb = to_signed(b, bits);
    match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => a.wrapping_mul(b) & m,
        BinOp::UDiv => {
            if b == 0 {
                m
            } else {
                a / b
            }
        }
        BinOp::URem => {
            if b == 0 {
                a
            } else {
                a % b
            }
        }
        BinOp::SDiv => {
            if b == 0 {
                if sa < 0 {
                    1
                } else {
                    m
                }
            } else {
                (sa.wrapping_div(sb) as u64) & m
            }
        }
        BinOp::SRem => {
            if b == 0 {
                a
            } else {
                (sa.wrapping_rem(sb) as u64) & m
            }
        }
        BinOp::Shl => {
            if b >= bits as u64 {
                0
            } else {
                (a << b) & m
            }
        }
        BinOp::LShr => {
            if b >= bits as u64 {
                0
            } else {
                a >> b
            }
        }
        BinOp::AShr => {
            let sh = b.min(bits as u64 - 1) as u32;
            if b >= bits as u64 {
                if sa < 0 {
                    m
                } else {
                    0
                }
            } else {
                ((sa >> sh) as u64) & m
            }
        }
        BinOp::And => a & b,
        BinOp::Or => a | b,
        BinOp::Xor => a ^ b,
        BinOp::Eq => (a == b) as u64,
        BinOp::Ne => (a != b) as u64,
        BinOp::Ult => (a < b) as u64,
        BinOp::Ule => (a <= b) as u64,
        BinOp::Slt => (sa < sb) as u64,
        BinOp::Sle => (sa <= sb) as u64,
    }
}

/// Converts `a` of type `from` to the int type `to`.
pub fn eval_cast(op: CastOp, from: Ty, to: Ty, a: u64) -> u64 {
    match op {
        CastOp::Zext | CastOp::Trunc => a & from.mask() & to.mask(),
        CastOp::Sext => (to_signed(a, from.bits()) as u64) & to.mask(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_edge_cases_follow_smtlib() {
        let t = Ty::I32;
        assert_eq!(eval_binop(BinOp::UDiv, t, 7, 0), 0xffff_ffff);
        assert_eq!(eval_binop(BinOp::URem, t, 7, 0), 7);
        assert_eq!(eval_binop(BinOp::SDiv, t, 7, 0), 0xffff_ffff);
        assert_eq!(eval_binop(BinOp::SDiv, t, 0xffff_fff9, 0), 1);
        assert_eq!(
            eval_binop(BinOp::SDiv, t, 0x8000_0000, 0xffff_ffff),
            0x8000_0000
        );
        assert_eq!(eval_binop(BinOp::SRem, t, 0x8000_0000, 0xffff_ffff), 0);
        assert_eq!(
            eval_binop(BinOp::SDiv, t, (-7i32) as u32 as u64, 2),
            (-3i32) as u32 as u64
        );
        assert_eq!(
            eval_binop(BinOp::SRem, t, (-7i32) as u32 as u64, 2),
            (-1i32) as u32 as u64
        );
    }

    #[test]
    fn shifts_saturate_at_width() {
        let t = Ty::I8;
        assert_eq!(eval_binop(BinOp::Shl, t, 1, 7), 0x80);
        assert_eq!(eval_binop(BinOp::Shl, t, 1, 8), 0);
        assert_eq!(eval_binop(BinOp::LShr, t, 0x80, 9), 0);
        assert_eq!(eval_binop(BinOp::AShr, t, 0x80, 3), 0xf0);
        assert_eq!(eval_binop(BinOp::AShr, t, 0x80, 200), 0xff);
        assert_eq!(eval_binop(BinOp::AShr, t, 0x40, 200), 0);
    }

    #[test]
    fn casts_and_signed_compare() {
        assert_eq!(eval_cast(CastOp::Sext, Ty::I8, Ty::I32, 0x80), 0xffff_ff80);
        assert_eq!(eval_cast(CastOp::Zext, Ty::I8, Ty::I32, 0x80), 0x80);
        assert_eq!(eval_cast(CastOp::Trunc, Ty::I32, Ty::I8, 0x1234), 0x34);
        assert_eq!(eval_binop(BinOp::Slt, Ty::I8, 0xff, 0), 1);
        assert_eq!(eval_binop(BinOp::Ult, Ty::I8, 0xff, 0), 0);
        assert_eq!(eval_unop(UnOp::Neg, Ty::I64, 1), u64::MAX);
        assert_eq!(eval_unop(UnOp::Not, Ty::Bool, 1), 0);
    }
}
