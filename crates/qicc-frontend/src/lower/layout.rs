//! Checks where a C result would depend on where the compiler places objects, or on the
//! address of an object whose lifetime has ended.
//!
//! The IR's memory model gives every object a fixed address (`qicc_ir::memory`: its number in
//! the top bits, its offset in the low ones), which is one layout a compiler may choose. C
//! promises much less: an object's address is aligned to its type, non-null and apart from
//! every other live object's, and nothing more — not its value, not the order of two objects,
//! not whether one object follows another, not whether a freed object's address comes back.
//! A verdict must hold for every layout, so wherever a program observes more than C promises,
//! the front-end inserts a check that makes the verdict UNKNOWN when reachable:
//!
//! - **`address-observed`** (not undefined, outside the model, like `alloc-too-large`): a
//!   pointer into an object converted to an integer, or two pointers compared with `==`/`!=`
//!   where one points just past an object and the other to the start of another (C11 6.5.9p6:
//!   they may compare equal).
//! - **`invalid-pointer-use`** (undefined): a pointer compared, subtracted or converted while
//!   it points into no live object (C11 6.2.4p2: its value is indeterminate once the object's
//!   lifetime ended; J.2), and pointers into different objects compared with `<`, `<=`, `>`,
//!   `>=` or subtracted (6.5.8p5, 6.5.6p9).
//!
//! Pointers in the null object (integers converted to pointers, `(T *)0 + n`) have no object
//! and are never checked: their value is the integer's. Comparing a pointer with a null
//! pointer constant is not checked either: no layout makes a pointer to an object null.
//! Function pointers are left alone (a function's address is no object of the memory model).

use super::{fold, Ctx, R};
use crate::types::CType;
use qicc_ir::{BinOp, Expr, UbKind};

impl Ctx<'_> {
    /// Whether `p` lies in the null object (its value is an integer's, not an object's).
    fn in_null_object(&self, p: &Expr) -> Expr {
        let layout = self.program.layout;
        let first = 1u64 << layout.offset_bits();
        fold::bin(
            BinOp::Ult,
            p.clone(),
            Expr::konst(layout.pointer_ty(), first),
        )
    }

    /// Whether `p` and `q` lie in the same object (the top bits agree).
    fn same_object(&self, p: &Expr, q: &Expr) -> Expr {
        let x = fold::bin(BinOp::Xor, p.clone(), q.clone());
        self.in_null_object(&x)
    }

    /// `p` points into or just past a live object, or into the null object (true when that
    /// is known statically: a constant offset into an object that lives while this runs).
    fn pointer_live(&self, p: &Expr) -> Expr {
        if !self.access_may_be_invalid(p, 0, qicc_ir::Access::Read) {
            return Expr::konst(qicc_ir::Ty::Bool, 1);
        }
        fold::bin(
            BinOp::Or,
            self.in_null_object(p),
            Expr::readable(0, p.clone()),
        )
    }

    /// Before a pointer of type `ty` with value `p` becomes an integer (other than `_Bool`).
    pub(super) fn check_pointer_to_int(&mut self, p: &Expr, ty: &CType, at: usize) -> R<()> {
        if !self.opts.ub_checks || is_function_pointer(ty) || p.as_const().is_some() {
            return Ok(());
        }
        if self.const_depth > 0 || self.fs.is_none() {
            return Err(self.unsupported(
                at,
                "a pointer converted to an integer in a constant expression (its value depends on where the compiler places the object)",
            ));
        }
        let live = self.pointer_live(p);
        self.check(live, UbKind::InvalidPointerUse, at)?;
        let ok = self.in_null_object(p);
        self.check(ok, UbKind::AddressObserved, at)
    }

    /// Before two pointers `p` (of type `tp`) and `q` are compared with `op` (an `Eq`, `Ne`
    /// or relational `BinOp`), or subtracted (`op == BinOp::Sub`).
    pub(super) fn check_pointer_pair(
        &mut self,
        op: BinOp,
        p: &Expr,
        q: &Expr,
        tp: &CType,
        at: usize,
    ) -> R<()> {
        if is_function_pointer(tp) || self.const_depth > 0 || self.fs.is_none() {
            return Ok(());
        }
        // A constant side is a null pointer constant (no layout makes a pointer into an
        // object null, dead or alive: `free(p); if (p != NULL)` is left alone) or an
        // integer's pointer (left alone, as every pointer in the null object).
        if p.as_const().is_some() || q.as_const().is_some() {
            return Ok(());
        }
        let live = fold::bin(BinOp::And, self.pointer_live(p), self.pointer_live(q));
        let apart = fold::bin(BinOp::Or, self.in_null_object(p), self.in_null_object(q));
        let apart = fold::bin(BinOp::Or, apart, self.same_object(p, q));
        match op {
            BinOp::Eq | BinOp::Ne => {
                // Different objects: equal only if one ends where the other starts.
                let offset_mask = qicc_ir::types::mask(self.program.layout.offset_bits());
                let pt = self.program.layout.pointer_ty();
                let at_start = |e: &Expr| {
                    let off = fold::bin(BinOp::And, e.clone(), Expr::konst(pt, offset_mask));
                    fold::bin(BinOp::Eq, off, Expr::konst(pt, 0))
                };
                let past = |e: &Expr| fold::not(Expr::readable(1, e.clone()));
                let touch_pq = fold::bin(BinOp::And, past(p), at_start(q));
                let touch_qp = fold::bin(BinOp::And, past(q), at_start(p));
                let touch = fold::bin(BinOp::Or, touch_pq, touch_qp);
                let ok = fold::bin(BinOp::Or, apart, fold::not(touch));
                self.check(live, UbKind::InvalidPointerUse, at)?;
                self.check(ok, UbKind::AddressObserved, at)
            }
            _ => self.check(
                fold::bin(BinOp::And, live, apart),
                UbKind::InvalidPointerUse,
                at,
            ),
        }
    }
}

fn is_function_pointer(t: &CType) -> bool {
    t.pointee().is_some_and(|p| p.is_func()) || t.is_func()
}
