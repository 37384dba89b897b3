//! Floats in the term translation: held as their bits, the bit operations and classification
//! predicates encoded exactly as bit-vector terms (checked against `qicc_ir::semantics::float`
//! by constant folding); no float operation is named by `unsupported_in` (the others go
//! through the solvers' floating-point theory, checked in `float_solvers.rs`).

use proptest::prelude::*;
use qicc_ir::semantics::float::eval_fp;
use qicc_ir::{parse_program, Expr, FpOp, ObjectId, RoundingMode, Ty, VarRef};
use qicc_smt::ir::{encode_expr, fp_op_supported, unsupported_in, ExprView};
use qicc_smt::{TermId, TermStore};

/// Constant expressions only: nothing to read.
struct NoState;
impl ExprView for NoState {
    fn var(&mut self, s: &mut TermStore, _: VarRef) -> TermId {
        s.bool_const(false)
    }
    fn obj_addr(&mut self, s: &mut TermStore, _: ObjectId) -> TermId {
        s.bv_const(32, 0)
    }
    fn load(&mut self, s: &mut TermStore, bytes: u16, _: TermId) -> TermId {
        s.bv_const(bytes * 8, 0)
    }
    fn valid(&mut self, s: &mut TermStore, _: qicc_ir::Access, _: u32, _: TermId) -> TermId {
        s.bool_const(false)
    }
}

const EXACT: [FpOp; 10] = [
    FpOp::FromBits,
    FpOp::ToBits,
    FpOp::Neg,
    FpOp::Abs,
    FpOp::SignBit,
    FpOp::IsNan,
    FpOp::IsInf,
    FpOp::IsZero,
    FpOp::IsNormal,
    FpOp::IsSubnormal,
];

fn check(ty: Ty, bits: u64) {
    let mut s = TermStore::new();
    for op in EXACT {
        assert!(fp_op_supported(op));
        let operand_ty = if op == FpOp::FromBits {
            Ty::Int(ty.bits())
        } else {
            ty
        };
        let e = Expr::fp(op, vec![Expr::konst(operand_ty, bits)]);
        let t = encode_expr(&mut s, &mut NoState, &e);
        let want = eval_fp(op, operand_ty, &[bits]);
        let got = match op.result_ty(operand_ty) {
            Ty::Bool => s.as_bool_const(t).map(|b| b as u64),
            _ => s.as_bv_const(t),
        };
        assert_eq!(got, Some(want), "{op:?} of {bits:#x}: {ty}");
    }
}

proptest! {
    #[test]
    fn bit_operations_fold_to_the_semantics(b in any::<u64>(), k in 0u64..4) {
        // Bias the exponent towards its all-zeros and all-ones values.
        let b32 = match k { 0 => b & 0x807f_ffff, 1 => b | 0x7f80_0000, _ => b } & 0xffff_ffff;
        let b64 = match k { 0 => b & 0x800f_ffff_ffff_ffff, 1 => b | 0x7ff0_0000_0000_0000, _ => b };
        check(Ty::F32, b32);
        check(Ty::F64, b64);
    }
}

#[test]
fn every_float_operation_is_supported() {
    // Arithmetic, comparisons, fmod, min/max and conversions go through Z3's floating-point
    // theory now (tests/float_solvers.rs): nothing is named unsupported.
    let text = "data-model ilp32\nentry @main\nfn @main() {\n  local %x: f32\n  local %i: i32\n  locs 7 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %x := fneg(%x)\n  L4 -> L5: %x := fadd.rtz(%x, 1.0:f32)\n  L5 -> L6: %x := fmod(%x, 3.0:f32)\n  L6 -> L1: %i := fptosi.i32(%x)\n}\n";
    let p = parse_program(text).expect("parses");
    assert_eq!(unsupported_in(&p), None);
    let ops = [
        FpOp::Add(RoundingMode::Rne),
        FpOp::Fma(RoundingMode::Rtz),
        FpOp::Fmod,
        FpOp::Min,
        FpOp::Eq,
        FpOp::Ne,
        FpOp::Convert {
            to: 32,
            rm: RoundingMode::Rna,
        },
        FpOp::ToUInt { to: 8 },
    ];
    for op in ops {
        assert!(fp_op_supported(op), "{op:?}");
    }
}
