//! IR expressions as terms over a symbolic state.
//!
//! One IR operator is one term constructor with the same SMT-LIB meaning (the IR chose
//! SMT-LIB semantics for every operator, so nothing here adds side conditions); loads and
//! `valid` go through the memory model. The term store folds whatever is constant.

use crate::memory::MemModel;
use crate::state::State;
use qicc_ir::{BinOp, CastOp, Expr, Ty, UnOp, VarRef};
use qicc_smt::{BvBinOp, BvCmpOp, BvUnOp, Sort, TermId, TermStore};

pub(crate) fn sort_of(ty: Ty) -> Sort {
    match ty {
        Ty::Bool => Sort::Bool,
        Ty::Int(w) => Sort::BitVec(w),
    }
}

/// The value a fresh local starts with: `false` or 0.
pub(crate) fn zero_of(s: &mut TermStore, ty: Ty) -> TermId {
    match ty {
        Ty::Bool => s.ff(),
        Ty::Int(w) => s.bv_const(w, 0),
    }
}

pub(crate) struct Encoder<'a> {
    pub mm: &'a MemModel,
}

impl Encoder<'_> {
    pub fn var(&self, st: &State, v: VarRef) -> TermId {
        match v {
            VarRef::Local(l) => st.locals[l.index()],
            VarRef::Global(g) => st.globals[g.index()],
        }
    }

    pub fn expr(&self, s: &mut TermStore, st: &State, e: &Expr) -> TermId {
        match e {
            Expr::Const { ty, value } => match ty {
                Ty::Bool => s.bool_const(*value != 0),
                Ty::Int(w) => s.bv_const(*w, *value),
            },
            Expr::Var(v) => self.var(st, *v),
            Expr::ObjAddr(o) => s.bv_const(self.mm.ptr_w, self.mm.base_address(o.0 as u64)),
            Expr::Unary(op, a) => {
                let a = self.expr(s, st, a);
                match (op, s.sort(a)) {
                    (UnOp::Not, Sort::Bool) => s.not(a),
                    (UnOp::Not, _) => s.bv_un(BvUnOp::Not, a),
                    (UnOp::Neg, _) => s.bv_un(BvUnOp::Neg, a),
                }
            }
            Expr::Binary(op, a, b) => {
                let a = self.expr(s, st, a);
                let b = self.expr(s, st, b);
                binary(s, *op, a, b)
            }
            Expr::Cast(op, to, a) => {
                let a = self.expr(s, st, a);
                let from = s.width(a);
                let to = to.bits();
                match op {
                    CastOp::Zext => s.zero_ext(to.saturating_sub(from), a),
                    CastOp::Sext => s.sign_ext(to.saturating_sub(from), a),
                    CastOp::Trunc => s.extract(to.min(from) - 1, 0, a),
                }
            }
            Expr::Ite(c, a, b) => {
                let c = self.expr(s, st, c);
                let a = self.expr(s, st, a);
                let b = self.expr(s, st, b);
                s.ite(c, a, b)
            }
            Expr::Load(ty, a) => {
                let a = self.expr(s, st, a);
                self.mm.load(s, st.mem, a, ty.bits() / 8)
            }
            Expr::Valid(n, a) => {
                let a = self.expr(s, st, a);
                self.mm.valid(s, st.live, st.size, *n, a)
            }
        }
    }
}

fn binary(s: &mut TermStore, op: BinOp, a: TermId, b: TermId) -> TermId {
    if s.sort(a) == Sort::Bool {
        return match op {
            BinOp::And => s.and(a, b),
            BinOp::Or => s.or(a, b),
            BinOp::Xor | BinOp::Ne => s.xor(a, b),
            // Only and/or/xor/eq/ne take bools (checked by `verify_program`).
            _ => s.eq(a, b),
        };
    }
    let arith = |op| Some(op);
    let bv = match op {
        BinOp::Add => arith(BvBinOp::Add),
        BinOp::Sub => arith(BvBinOp::Sub),
        BinOp::Mul => arith(BvBinOp::Mul),
        BinOp::UDiv => arith(BvBinOp::UDiv),
        BinOp::SDiv => arith(BvBinOp::SDiv),
        BinOp::URem => arith(BvBinOp::URem),
        BinOp::SRem => arith(BvBinOp::SRem),
        BinOp::Shl => arith(BvBinOp::Shl),
        BinOp::LShr => arith(BvBinOp::LShr),
        BinOp::AShr => arith(BvBinOp::AShr),
        BinOp::And => arith(BvBinOp::And),
        BinOp::Or => arith(BvBinOp::Or),
        BinOp::Xor => arith(BvBinOp::Xor),
        _ => None,
    };
    if let Some(bop) = bv {
        return s.bv_bin(bop, a, b);
    }
    match op {
        BinOp::Eq => s.eq(a, b),
        BinOp::Ne => s.ne(a, b),
        BinOp::Ult => s.bv_cmp(BvCmpOp::Ult, a, b),
        BinOp::Ule => s.bv_cmp(BvCmpOp::Ule, a, b),
        BinOp::Slt => s.bv_cmp(BvCmpOp::Slt, a, b),
        BinOp::Sle => s.bv_cmp(BvCmpOp::Sle, a, b),
        _ => unreachable!("arithmetic handled above"),
    }
}
