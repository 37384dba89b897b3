//! The one translation of IR expressions into terms, shared by every engine (the BMC, Impulse,
//! and the engines to come).
//!
//! One IR operator is one term constructor with the same SMT-LIB meaning: the IR chose
//! SMT-LIB semantics for every operator (`qicc_ir::semantics`), so nothing here adds side
//! conditions. What an engine decides is only how the *state* is read — variables, object
//! addresses, memory loads and `valid` — which it supplies as an [`ExprView`]: the BMC reads
//! through its symbolic state and memory model, Impulse through symbols of one loop iteration
//! and an over-approximating memory array.

use crate::{BvBinOp, BvCmpOp, BvUnOp, Sort, TermId, TermStore};
use qicc_ir::{BinOp, CastOp, Expr, ObjectId, Ty, UnOp, VarRef};

/// The sort of an IR type.
pub fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::Bool,
        Ty::Int(w) => Sort::BitVec(w),
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
        Ty::Int(w) => s.bv_const(w, v),
    }
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
        Expr::Const { ty, value } => match ty {
            Ty::Bool => s.bool_const(*value != 0),
            Ty::Int(w) => s.bv_const(*w, *value),
        },
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
