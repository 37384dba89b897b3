//! The one translation of IR expressions into terms, shared by every engine (the BMC, Impulse,
//! and the engines to come).
//!
//! One IR operator is one term constructor with the same SMT-LIB meaning: the IR chose
//! SMT-LIB semantics for every operator (`qicc_ir::semantics`), so nothing here adds side
//! conditions. What an engine decides is only how the *state* is read — variables, object
//! addresses, memory loads and `valid` — which it supplies as an [`ExprView`]: the BMC reads
//! through its symbolic state and memory model, Impulse through symbols of one loop iteration
//! and an over-approximating memory array.
//!
//! Floats (`Ty::Float`) are held as bit-vectors of their IEEE bits, as the IR holds them, so
//! float variables, memory and havoc need nothing new. Of the float operations only the bit
//! operations (bit casts, `fneg`, `fabs`, `fsignbit`) and the classification predicates are
//! translated here; the arithmetic, comparisons and conversions are not yet (Z3's
//! floating-point theory is a later step): [`unsupported_in`] names them, and every engine
//! asks it before encoding so that such a program is answered UNKNOWN, never with a model
//! that misreads the operation.

use crate::{BvBinOp, BvCmpOp, BvUnOp, Sort, TermId, TermStore};
use qicc_ir::{BinOp, CastOp, Expr, FpOp, ObjectId, Program, Ty, UnOp, VarRef};

/// The sort of an IR type.
pub fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::Bool,
        Ty::Int(w) | Ty::Float(w) => Sort::BitVec(w),
    }
}

/// The value a fresh local starts with: `false` or 0.
pub fn zero_of(s: &mut TermStore, ty: Ty) -> TermId {
    const_of(s, ty, 0)
}

/// The constant of type `ty` whose value (as the interpreter holds it) is `v`.
pub fn const_of(s: &mut TermStore, ty: Ty, v: u64) -> TermId {
    match ty {
        Ty::Bool => s.bool_const(v != 0),
        Ty::Int(w) | Ty::Float(w) => s.bv_const(w, v),
    }
}

/// Whether [`encode_expr`] translates the float operation exactly.
pub fn fp_op_supported(op: FpOp) -> bool {
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

/// The first operation of `p` that [`encode_expr`] cannot translate, described for an
/// "unsupported" answer; `None` if every expression translates exactly.
pub fn unsupported_in(p: &Program) -> Option<String> {
    let mut found = None;
    for f in &p.functions {
        for e in &f.edges {
            e.op.exprs(&mut |x| {
                x.visit(&mut |y| {
                    if let Expr::Fp(op, _) = y {
                        if found.is_none() && !fp_op_supported(*op) {
                            found = Some(format!(
                                "floating point: the solver encoding of {} is not implemented (fn @{})",
                                qicc_ir::print::fp_op_name(*op),
                                f.name
                            ));
                        }
                    }
                })
            });
        }
    }
    found
}

/// How an engine reads the state an expression is evaluated in.
pub trait ExprView {
    /// The current value of a variable.
    fn var(&mut self, s: &mut TermStore, v: VarRef) -> TermId;
    /// The address of a static object (its base address in the data model's layout).
    fn obj_addr(&mut self, s: &mut TermStore, o: ObjectId) -> TermId;
    /// `bytes` bytes of memory from `addr`, little-endian.
    fn load(&mut self, s: &mut TermStore, bytes: u16, addr: TermId) -> TermId;
    /// Whether `bytes` bytes from `addr` lie in one live object.
    fn valid(&mut self, s: &mut TermStore, bytes: u32, addr: TermId) -> TermId;
}

/// The term of `e` read through `view`.
pub fn encode_expr(s: &mut TermStore, view: &mut dyn ExprView, e: &Expr) -> TermId {
    match e {
        Expr::Const { ty, value } => const_of(s, *ty, *value),
        Expr::Var(v) => view.var(s, *v),
        Expr::ObjAddr(o) => view.obj_addr(s, *o),
        Expr::Unary(op, a) => {
            let a = encode_expr(s, view, a);
            match (op, s.sort(a)) {
                (UnOp::Not, Sort::Bool) => s.not(a),
                (UnOp::Not, _) => s.bv_un(BvUnOp::Not, a),
                (UnOp::Neg, _) => s.bv_un(BvUnOp::Neg, a),
            }
        }
        Expr::Binary(op, a, b) => {
            let a = encode_expr(s, view, a);
            let b = encode_expr(s, view, b);
            binary(s, *op, a, b)
        }
        Expr::Cast(op, to, a) => {
            let a = encode_expr(s, view, a);
            let from = s.width(a);
            let to = to.bits();
            match op {
                _ if from == to => a,
                CastOp::Zext => s.zero_ext(to.saturating_sub(from), a),
                CastOp::Sext => s.sign_ext(to.saturating_sub(from), a),
                CastOp::Trunc => s.extract(to.min(from) - 1, 0, a),
            }
        }
        Expr::Ite(c, a, b) => {
            let c = encode_expr(s, view, c);
            let a = encode_expr(s, view, a);
            let b = encode_expr(s, view, b);
            s.ite(c, a, b)
        }
        Expr::Load(ty, a) => {
            let a = encode_expr(s, view, a);
            view.load(s, (ty.bits() / 8).max(1), a)
        }
        Expr::Valid(n, a) => {
            let a = encode_expr(s, view, a);
            view.valid(s, *n, a)
        }
        Expr::Fp(op, args) => {
            let args: Vec<TermId> = args.iter().map(|a| encode_expr(s, view, a)).collect();
            fp_bits(s, *op, &args)
        }
    }
}

/// The float operations [`fp_op_supported`] accepts, on IEEE bits. Any other operation is
/// answered by a fresh unconstrained term: engines never get here for them, because they
/// refuse programs [`unsupported_in`] flags; should one not, the fresh term over-approximates
/// (every value possible), which can only lose precision, never exclude a real behaviour.
fn fp_bits(s: &mut TermStore, op: FpOp, args: &[TermId]) -> TermId {
    let Some(&a) = args.first() else {
        return s.bool_const(false);
    };
    let w = s.width(a);
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
        FpOp::FromBits | FpOp::ToBits => a,
        FpOp::Neg => {
            let m = s.bv_const(w, sign);
            s.bv_bin(BvBinOp::Xor, a, m)
        }
        FpOp::Abs => {
            let m = s.bv_const(w, !sign & qicc_ir::types::mask(w));
            s.bv_bin(BvBinOp::And, a, m)
        }
        FpOp::SignBit => {
            let b = s.extract(w - 1, w - 1, a);
            let one = s.bv_const(1, 1);
            s.eq(b, one)
        }
        FpOp::IsNan | FpOp::IsInf => {
            let e = exp_is(s, ones);
            let fz = frac_zero(s);
            let f = if op == FpOp::IsNan { s.not(fz) } else { fz };
            s.and(e, f)
        }
        FpOp::IsZero | FpOp::IsSubnormal => {
            let e = exp_is(s, 0);
            let fz = frac_zero(s);
            let f = if op == FpOp::IsZero { fz } else { s.not(fz) };
            s.and(e, f)
        }
        FpOp::IsNormal => {
            let e0 = exp_is(s, 0);
            let e1 = exp_is(s, ones);
            let n0 = s.not(e0);
            let n1 = s.not(e1);
            s.and(n0, n1)
        }
        _ => {
            let name = format!("unsupported!fp!{}", s.len());
            let ty = op.result_ty(Ty::Float(w));
            s.symbol(&name, sort_of(ty))
        }
    }
}

/// A binary IR operator on two terms.
pub fn binary(s: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> TermId {
    if s.sort(a) == Sort::Bool {
        return match op {
            BinOp::And => s.and(a, b),
            BinOp::Or => s.or(a, b),
            BinOp::Xor | BinOp::Ne => s.xor(a, b),
            // Only and/or/xor/eq/ne take bools (checked by `verify_program`).
            _ => s.eq(a, b),
        };
    }
    let bv = match op {
        BinOp::Add => BvBinOp::Add,
        BinOp::Sub => BvBinOp::Sub,
        BinOp::Mul => BvBinOp::Mul,
        BinOp::UDiv => BvBinOp::UDiv,
        BinOp::SDiv => BvBinOp::SDiv,
        BinOp::URem => BvBinOp::URem,
        BinOp::SRem => BvBinOp::SRem,
        BinOp::Shl => BvBinOp::Shl,
        BinOp::LShr => BvBinOp::LShr,
        BinOp::AShr => BvBinOp::AShr,
        BinOp::And => BvBinOp::And,
        BinOp::Or => BvBinOp::Or,
        BinOp::Xor => BvBinOp::Xor,
        BinOp::Eq => return s.eq(a, b),
        BinOp::Ne => return s.ne(a, b),
        BinOp::Ult => return s.bv_cmp(BvCmpOp::Ult, a, b),
        BinOp::Ule => return s.bv_cmp(BvCmpOp::Ule, a, b),
        BinOp::Slt => return s.bv_cmp(BvCmpOp::Slt, a, b),
        BinOp::Sle => return s.bv_cmp(BvCmpOp::Sle, a, b),
    };
    s.bv_bin(bv, a, b)
}
