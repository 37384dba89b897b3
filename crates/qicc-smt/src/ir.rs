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
//! float variables, memory and havoc need nothing new. Every float operation is one call of
//! [`TermStore::fp`]: the bit operations (bit casts, `fneg`, `fabs`, `fsignbit`) and the
//! classification predicates become bit-vector terms, the arithmetic, comparisons and
//! conversions float nodes that the Z3 back-end translates into its floating-point theory,
//! exactly to `qicc_ir::semantics::float` (default NaN, signed zeros, C's `fmin`/`fmax` and
//! `fmod`, saturating float-to-int casts). [`unsupported_in`] names any operation that is
//! not translated exactly (none today); every engine asks it before encoding so that such a
//! program would be answered UNKNOWN, never with a model that misreads the operation.

use crate::{BvBinOp, BvCmpOp, BvUnOp, Sort, TermId, TermStore};
use qicc_ir::{Access, BinOp, CastOp, Expr, FpOp, ObjectId, Program, Ty, UnOp, VarRef};

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

/// Whether [`encode_expr`] translates the float operation exactly (every one does: the bit
/// operations as bit-vector terms, the rest through the solver's floating-point theory).
pub fn fp_op_supported(op: FpOp) -> bool {
    match op {
        FpOp::Add(_)
        | FpOp::Sub(_)
        | FpOp::Mul(_)
        | FpOp::Div(_)
        | FpOp::Sqrt(_)
        | FpOp::Fma(_)
        | FpOp::Fmod
        | FpOp::RoundToIntegral(_)
        | FpOp::Min
        | FpOp::Max
        | FpOp::Neg
        | FpOp::Abs
        | FpOp::Eq
        | FpOp::Lt
        | FpOp::Le
        | FpOp::Ne
        | FpOp::IsNan
        | FpOp::IsInf
        | FpOp::IsZero
        | FpOp::IsNormal
        | FpOp::IsSubnormal
        | FpOp::SignBit
        | FpOp::Convert { .. }
        | FpOp::FromSInt { .. }
        | FpOp::FromUInt { .. }
        | FpOp::ToSInt { .. }
        | FpOp::ToUInt { .. }
        | FpOp::FromBits
        | FpOp::ToBits => true,
    }
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
    /// Whether `bytes` bytes from `addr` lie in one live object (writable, for a write).
    fn valid(&mut self, s: &mut TermStore, access: Access, bytes: u32, addr: TermId) -> TermId;
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
        Expr::Valid(k, n, a) => {
            let a = encode_expr(s, view, a);
            view.valid(s, *k, *n, a)
        }
        Expr::Fp(op, args) => {
            let args: Vec<TermId> = args.iter().map(|a| encode_expr(s, view, a)).collect();
            s.fp(*op, &args)
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
