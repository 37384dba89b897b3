//! Constructors of float terms: [`TermStore::fp`], the one way to build a float operation.
//!
//! Floats are bit-vectors of their IEEE bits, as the IR holds them. The bit operations
//! (`fneg`, `fabs`, `fsignbit`, the bit casts) and the classification predicates are built
//! from bit-vector operators here (they then simplify and fold like any other bit-vector
//! term); `fne` is the negation of `feq`; every other operation is a [`Node::Fp1`],
//! [`Node::Fp2`] or [`Node::Fp3`] node. With constant operands it folds through
//! `qicc_ir::semantics::float::eval_fp`, the one definition of its meaning.

use crate::store::TermStore;
use crate::term::{BvBinOp, Node, Sort, TermId};
use qicc_ir::semantics::float::eval_fp;
use qicc_ir::{FpOp, Ty};

/// Whether the operation is built from bit-vector operators rather than a float node.
pub(crate) fn is_bit_op(op: FpOp) -> bool {
    matches!(
        op,
        FpOp::FromBits
            | FpOp::ToBits
            | FpOp::Neg
            | FpOp::Abs
            | FpOp::SignBit
            | FpOp::IsNan
            | FpOp::IsInf
            | FpOp::IsZero
            | FpOp::IsNormal
            | FpOp::IsSubnormal
    )
}

/// The IR type of an operation's first operand of width `w`, as `eval_fp` wants it: an int
/// for the int-to-float conversions and `bitstofp`, a float otherwise.
pub(crate) fn operand_ty(op: FpOp, w: u16) -> Ty {
    match op {
        FpOp::FromSInt { .. } | FpOp::FromUInt { .. } | FpOp::FromBits => Ty::Int(w),
        _ => Ty::Float(w),
    }
}

/// The sort of the result of `op` on a first operand of width `w`.
pub(crate) fn result_sort(op: FpOp, w: u16) -> Sort {
    crate::ir::sort_of(op.result_ty(operand_ty(op, w)))
}

/// The IEEE bits of `2^k` (`k` at most 64, exact in both formats) in the format of width `w`.
pub(crate) fn pow2_bits(w: u16, k: u16) -> u64 {
    let (bias, frac) = if w == 32 { (127u64, 23) } else { (1023, 52) };
    (bias + k as u64) << frac
}

impl TermStore {
    /// The float operation `op` on `args` (`op.arity()` terms of the IR's representations:
    /// bit-vectors of IEEE bits of width 32 or 64, ints for `sitofp`/`uitofp`/`bitstofp`).
    /// Panics on ill-sorted arguments (an engine bug: the IR's verifier rejects them).
    pub fn fp(&mut self, op: FpOp, args: &[TermId]) -> TermId {
        assert_eq!(
            args.len(),
            op.arity(),
            "internal error: {} takes {} operands",
            op.name(),
            op.arity()
        );
        let w = self.width(args[0]);
        let float_operand = !matches!(op, FpOp::FromSInt { .. } | FpOp::FromUInt { .. });
        assert!(
            !float_operand || w == 32 || w == 64,
            "internal error: a float operand of width {w}"
        );
        for &b in &args[1..] {
            assert_eq!(
                self.sort(b),
                Sort::BitVec(w),
                "internal error: float operands of different sorts"
            );
        }
        if let Some(to) = op.target_width() {
            let ok = match op {
                FpOp::ToSInt { .. } | FpOp::ToUInt { .. } => (1..=64).contains(&to),
                _ => to == 32 || to == 64,
            };
            assert!(ok, "internal error: {} to width {to}", op.name());
        }
        if is_bit_op(op) {
            return self.fp_bits(op, args[0]);
        }
        if op == FpOp::Ne {
            let eq = self.fp(FpOp::Eq, args);
            return self.not(eq);
        }
        let sort = result_sort(op, w);
        let consts: Option<Vec<u64>> = args.iter().map(|&a| self.as_bv_const(a)).collect();
        if let Some(vals) = consts {
            let v = eval_fp(op, operand_ty(op, w), &vals);
            return match sort {
                Sort::Bool => self.bool_const(v != 0),
                Sort::BitVec(rw) => self.bv_const(rw, v),
                Sort::Array { .. } => unreachable!("no float operation gives an array"),
            };
        }
        let node = match *args {
            [a] => Node::Fp1(op, a),
            [a, b] => Node::Fp2(op, a, b),
            [a, b, c] => Node::Fp3(op, a, b, c),
            _ => unreachable!("arity is 1 to 3, checked above"),
        };
        self.intern(node, sort)
    }

    /// The bit operations and classification predicates ([`is_bit_op`]) on the IEEE bits `a`.
    fn fp_bits(&mut self, op: FpOp, a: TermId) -> TermId {
        let w = self.width(a);
        let (exp_bits, frac_bits) = if w == 32 { (8, 23) } else { (11, 52) };
        let exp = |s: &mut TermStore| s.extract(w - 2, frac_bits, a);
        let frac = |s: &mut TermStore| s.extract(frac_bits - 1, 0, a);
        let exp_is = |s: &mut TermStore, v: u64| {
            let e = exp(s);
            let c = s.bv_const(exp_bits, v);
            s.eq(e, c)
        };
        let frac_zero = |s: &mut TermStore| {
            let f = frac(s);
            let z = s.bv_const(frac_bits, 0);
            s.eq(f, z)
        };
        let ones = (1u64 << exp_bits) - 1;
        let sign = 1u64 << (w - 1);
        match op {
            FpOp::Neg => {
                let m = self.bv_const(w, sign);
                self.bv_bin(BvBinOp::Xor, a, m)
            }
            FpOp::Abs => {
                let m = self.bv_const(w, !sign & qicc_ir::types::mask(w));
                self.bv_bin(BvBinOp::And, a, m)
            }
            FpOp::SignBit => {
                let b = self.extract(w - 1, w - 1, a);
                let one = self.bv_const(1, 1);
                self.eq(b, one)
            }
            FpOp::IsNan | FpOp::IsInf => {
                let e = exp_is(self, ones);
                let fz = frac_zero(self);
                let f = if op == FpOp::IsNan { self.not(fz) } else { fz };
                self.and(e, f)
            }
            FpOp::IsZero | FpOp::IsSubnormal => {
                let e = exp_is(self, 0);
                let fz = frac_zero(self);
                let f = if op == FpOp::IsZero { fz } else { self.not(fz) };
                self.and(e, f)
            }
            FpOp::IsNormal => {
                let e0 = exp_is(self, 0);
                let e1 = exp_is(self, ones);
                let n0 = self.not(e0);
                let n1 = self.not(e1);
                self.and(n0, n1)
            }
            // FromBits, ToBits: the bits are the value.
            _ => a,
        }
    }
}
