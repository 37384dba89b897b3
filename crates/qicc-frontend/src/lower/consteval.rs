//! Constant expressions: integer constant expressions (array sizes, enumerators, case labels,
//! designators) and the constant initialisers of static storage (numbers, addresses of static
//! objects plus offsets).
//!
//! They are evaluated by the ordinary expression lowering in *constant mode*
//! (`Ctx::const_depth > 0`): reading a variable or emitting any edge is an error there, and
//! constant folding uses the IR's own operator semantics, so a constant means exactly what the
//! same expression means at run time.

use super::{Ctx, R};
use crate::types::CType;
use lang_c::ast::Expression;
use lang_c::span::Node;
use qicc_ir::{BinOp, Expr, Ty};

/// `v` (the low bits of a value of type `ty`) as a signed number.
pub fn sign_extend(v: u64, ty: Option<Ty>) -> i64 {
    match ty {
        Some(t) => qicc_ir::semantics::to_signed(v, t.bits()),
        None => v as i64,
    }
}

/// Whether the IR accepts `e` as the initial value of static storage.
pub fn is_const_form(e: &Expr) -> bool {
    let mut ok = true;
    e.visit(&mut |x| {
        ok &= matches!(
            x,
            Expr::Const { .. }
                | Expr::ObjAddr(_)
                | Expr::Binary(BinOp::Add | BinOp::Sub, ..)
                | Expr::Cast(..)
        )
    });
    ok
}

impl<'a> Ctx<'a> {
    /// An integer constant expression: its value (low bits) and type.
    pub fn const_int(&mut self, e: &'a Node<Expression>) -> R<(u64, CType)> {
        self.const_depth += 1;
        let r = self.rvalue(e);
        self.const_depth -= 1;
        let rv = r?;
        match (&rv.e, &rv.ty) {
            (Expr::Const { value, .. }, CType::Int(_)) => Ok((*value, rv.ty.clone())),
            _ => Err(self.type_err(
                e.span.start,
                "expression is not an integer constant expression",
            )),
        }
    }

    /// The constant value of `e` converted to the scalar type `ty`, for static storage.
    pub fn const_scalar(&mut self, e: &'a Node<Expression>, ty: &CType) -> R<Expr> {
        self.const_depth += 1;
        let r = (|| {
            let rv = self.rvalue(e)?;
            self.convert(rv, ty, e.span.start)
        })();
        self.const_depth -= 1;
        let v = r?;
        if !is_const_form(&v) {
            return Err(self.type_err(
                e.span.start,
                "initializer element is not a constant expression",
            ));
        }
        Ok(v)
    }
}
