//! Expressions: C values to IR expressions and edges, with C's conversions.
//!
//! An expression lowers to a [`Val`]: an lvalue ([`LVal`]: an IR variable or a memory
//! address, with its C type), an rvalue ([`RVal`]: a pure IR expression with its C type; a
//! struct rvalue is the address of memory holding it), or a function designator. Side
//! effects (assignments, calls, checks) become edges emitted in evaluation order; the pure
//! expression returned is evaluated where it is used.
//!
//! Invariants:
//! - Sequencing: when an operand's value is computed before a sibling with side effects, it is
//!   first copied to a temporary (`stabilize`), so that evaluation is strictly left to right.
//! - Integer promotions and the usual arithmetic conversions are applied exactly as C11 6.3
//!   says, for the data model's sizes; signed overflow wraps.
//! - Undefined-behaviour checks precede the operation they guard: divisor zero and
//!   `INT_MIN / -1`, shift amount outside `[0, width)`, writes outside a live object.
//! - `&&`, `||` and `?:` evaluate only what C evaluates (control flow, unless the skipped
//!   operand has no effect and no check at all).

use super::scope::{Sym, VarId};
use super::{fold, Ctx, GStorage, LocalPlace, R};
use crate::types::{BitField, CType, IntKind};
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{Access, AssertKind, BinOp, Expr, Op, Ty, UbKind, VarRef};
use std::rc::Rc;

#[derive(Clone, Debug)]
pub struct RVal {
    pub e: Expr,
    pub ty: CType,
}

#[derive(Clone, Debug)]
pub enum Place {
    Var(VarRef),
    Mem(Expr),
}

#[derive(Clone, Debug)]
pub struct LVal {
    pub place: Place,
    pub ty: CType,
}

#[derive(Clone, Debug)]
pub enum Val {
    L(LVal),
    R(RVal),
    /// A function designator (index into the function table).
    Func(usize),
}

impl RVal {
    pub fn void() -> RVal {
        RVal {
            e: Expr::int(32, 0),
            ty: CType::Void,
        }
    }
}

/// Whether lowering `e` emits no edge other than read checks (no side effect, no call, no
/// other check): such operands of `&&`, `||` and `?:` can be evaluated without branches,
/// when they also read no memory (`Ctx::may_read_memory`: a read is checked, and C does not
/// read where the other operand decides).
/// Whether an expression has at most a few dozen nodes (cheap to copy into a guard).
fn small(e: &Expr) -> bool {
    let mut n = 0u32;
    e.visit(&mut |_| n += 1);
    n <= 32
}

pub fn is_simple(e: &Node<Expression>) -> bool {
    use BinaryOperator as B;
    match &e.node {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => true,
        Expression::Member(m) => is_simple(&m.node.expression),
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement
            | UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement => false,
            _ => is_simple(&u.node.operand),
        },
        Expression::Cast(c) => is_simple(&c.node.expression),
        Expression::BinaryOperator(b) => {
            let ok_op = match b.node.operator.node {
                B::Assign
                | B::AssignMultiply
                | B::AssignDivide
                | B::AssignModulo
                | B::AssignPlus
                | B::AssignMinus
                | B::AssignShiftLeft
                | B::AssignShiftRight
                | B::AssignBitwiseAnd
                | B::AssignBitwiseXor
                | B::AssignBitwiseOr => false,
                // Checked operations are simple only with a literal operand that makes the
                // check trivially true.
                B::Divide | B::Modulo => matches!(literal(&b.node.rhs), Some(v) if v > 1),
                B::ShiftLeft | B::ShiftRight => matches!(literal(&b.node.rhs), Some(v) if v < 32),
                _ => true,
            };
            ok_op && is_simple(&b.node.lhs) && is_simple(&b.node.rhs)
        }
        Expression::Conditional(c) => {
            !is_elvis(&c.node.then_expression)
                && is_simple(&c.node.condition)
                && is_simple(&c.node.then_expression)
                && is_simple(&c.node.else_expression)
        }
        Expression::Comma(es) => es.iter().all(is_simple),
        _ => false,
    }
}

/// Whether `e` is the omitted middle operand of GNU's `x ?: y` (see `parse::ELVIS`).
pub fn is_elvis(e: &Node<Expression>) -> bool {
    matches!(&e.node, Expression::Identifier(id) if id.node.name == crate::parse::ELVIS)
}

/// Whether evaluating `e` may change a variable or memory (assignments, `++`/`--`, calls,
/// statement expressions). Checks and reads change nothing.
pub fn modifies_state(e: &Node<Expression>) -> bool {
    effects(e).0
}

/// Whether evaluating `e` may assign a local variable held in an IR variable: only an
/// assignment, `++`/`--` or a statement expression can (a callee cannot reach them, their
/// address is never taken).
pub fn writes_registers(e: &Node<Expression>) -> bool {
    effects(e).1
}

/// (may change state, may assign register variables), syntactically.
fn effects(e: &Node<Expression>) -> (bool, bool) {
    use BinaryOperator as B;
    let both = |a: (bool, bool), b: (bool, bool)| (a.0 || b.0, a.1 || b.1);
    match &e.node {
        Expression::Identifier(_)
        | Expression::Constant(_)
        | Expression::StringLiteral(_)
        | Expression::SizeOfTy(_)
        | Expression::SizeOfVal(_)
        | Expression::AlignOf(_)
        | Expression::OffsetOf(_) => (false, false),
        Expression::Member(m) => effects(&m.node.expression),
        Expression::UnaryOperator(u) => match u.node.operator.node {
            UnaryOperator::PostIncrement
            | UnaryOperator::PostDecrement
            | UnaryOperator::PreIncrement
            | UnaryOperator::PreDecrement => (true, true),
            _ => effects(&u.node.operand),
        },
        Expression::Cast(c) => effects(&c.node.expression),
        Expression::BinaryOperator(b) => match b.node.operator.node {
            B::Assign
            | B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => (true, true),
            _ => both(effects(&b.node.lhs), effects(&b.node.rhs)),
        },
        Expression::Conditional(c) => both(
            effects(&c.node.condition),
            both(
                effects(&c.node.then_expression),
                effects(&c.node.else_expression),
            ),
        ),
        Expression::Comma(es) => es
            .iter()
            .fold((false, false), |acc, x| both(acc, effects(x))),
        Expression::Call(c) => {
            // The callee is an expression too (`tbl[i++](x)`).
            let args = c
                .node
                .arguments
                .iter()
                .fold(effects(&c.node.callee), |acc, x| both(acc, effects(x)));
            (true, args.1)
        }
        Expression::CompoundLiteral(_) => (true, false),
        Expression::GenericSelection(_) | Expression::VaArg(_) | Expression::Statement(_) => {
            (true, true)
        }
    }
}

/// Whether an expression reads state a call could change (globals, memory).
fn reads_shared(e: &Expr) -> bool {
    let mut r = false;
    e.visit(&mut |x| {
        r |= matches!(
            x,
            Expr::Var(VarRef::Global(_)) | Expr::Load(..) | Expr::Valid(..)
        )
    });
    r
}

/// The value of a plain decimal/hex/octal integer literal without suffix tricks.
fn literal(e: &Node<Expression>) -> Option<u64> {
    if let Expression::Constant(c) = &e.node {
        if let Constant::Integer(i) = &c.node {
            return parse_digits(&i.base, &i.number).and_then(|v| u64::try_from(v).ok());
        }
    }
    None
}

pub fn parse_digits(base: &IntegerBase, digits: &str) -> Option<u128> {
    let radix = match base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = digits.trim_start_matches(['0']);
    if digits.is_empty() {
        return Some(0);
    }
    u128::from_str_radix(digits, radix).ok()
}

impl<'a> Ctx<'a> {
    pub fn irty(&self, t: &CType, at: usize) -> R<Ty> {
        match self.types.ir_ty(t) {
            Some(ty) => Ok(ty),
            None => {
                if t.is_float() {
                    return Err(self.unsupported(at, "long double (x87 extended precision)"));
                }
                Err(self.type_err(
                    at,
                    format!("'{}' used where a scalar is required", self.types.show(t)),
                ))
            }
        }
    }

    /// `sizeof`, with `void` and functions 1 (GNU) and incomplete types an error; a
    /// variable-length array has no constant size (see [`Ctx::size_expr`]).
    pub fn size_of(&self, t: &CType, at: usize) -> R<u64> {
        if let Some(p) = self.layout_problem(t) {
            return Err(p);
        }
        match t {
            CType::Void | CType::Func(_) => Ok(1),
            CType::Bits(_) => Err(self.type_err(at, "sizeof applied to a bit-field")),
            CType::Vla(..) => Err(self.unsupported(
                at,
                "a variable-length array here (supported: declaring one, sizeof, indexing, \
                 pointer arithmetic, decay to a pointer)",
            )),
            _ => self.types.size_of(t).ok_or_else(|| {
                self.type_err(at, format!("incomplete type '{}'", self.types.show(t)))
            }),
        }
    }

    /// `sizeof` as a pointer-wide (`size_t`) expression: a constant, or the local holding a
    /// variable-length array's size.
    pub fn size_expr(&self, t: &CType, at: usize) -> R<Expr> {
        match t {
            CType::Vla(_, size) => Ok(Expr::local(*size)),
            _ => Ok(Expr::konst(self.ptr_ty(), self.size_of(t, at)?)),
        }
    }

    pub fn rvalue(&mut self, e: &'a Node<Expression>) -> R<RVal> {
        let v = self.lower(e)?;
        self.to_rvalue(v, e.span.start)
    }

    pub fn lvalue(&mut self, e: &'a Node<Expression>) -> R<LVal> {
        match self.lower(e)? {
            Val::L(lv) => Ok(lv),
            Val::R(_) => Err(self.type_err(e.span.start, "expression is not assignable")),
            Val::Func(_) => Err(self.type_err(e.span.start, "a function is not assignable")),
        }
    }

    /// Evaluates `e` for its side effects only.
    pub fn void_expr(&mut self, e: &'a Node<Expression>) -> R<()> {
        // `i++;` is `++i;` when the value is not used (no temporary for the old value).
        if let Expression::UnaryOperator(u) = &e.node {
            let at = u.node.operator.span.start;
            match u.node.operator.node {
                UnaryOperator::PostIncrement => {
                    return self.incdec(&u.node.operand, true, false, at).map(|_| ())
                }
                UnaryOperator::PostDecrement => {
                    return self.incdec(&u.node.operand, false, false, at).map(|_| ())
                }
                _ => {}
            }
        }
        // A scalar lvalue is still read (`p[i];` reads `p[i]`: undefined outside an object).
        let v = self.lower(e)?;
        self.check_discarded_read(&v, e.span.start)
    }

    /// The read check of a scalar lvalue whose value is read but not used (a discarded
    /// expression, an argument a body-less function receives).
    pub fn check_discarded_read(&mut self, v: &Val, at: usize) -> R<()> {
        if let Val::L(LVal {
            place: Place::Mem(a),
            ty,
        }) = v
        {
            if ty.is_scalar() {
                let n = self.size_of(ty, at)?;
                self.check_read(a, n, at)?;
            }
        }
        Ok(())
    }

    pub fn to_rvalue(&mut self, v: Val, at: usize) -> R<RVal> {
        match v {
            Val::R(rv) => Ok(rv),
            Val::L(lv) => self.read(&lv, at),
            Val::Func(i) => self.fn_pointer(i),
        }
    }

    /// A function designator decayed to its pointer: the address of the function's object.
    pub fn fn_pointer(&mut self, i: usize) -> R<RVal> {
        let ft = self.funcs[i].ty.clone()?;
        let obj = self.fn_object(i);
        Ok(RVal {
            e: Expr::ObjAddr(obj),
            ty: CType::ptr(CType::Func(ft)),
        })
    }

    /// The value of an lvalue (arrays decay to a pointer to their first element; structs
    /// are their address).
    pub fn read(&mut self, lv: &LVal, at: usize) -> R<RVal> {
        match &lv.ty {
            CType::Array(elem, _) | CType::Vla(elem, _) => match &lv.place {
                Place::Mem(a) => Ok(RVal {
                    e: a.clone(),
                    ty: CType::Pointer(elem.clone()),
                }),
                Place::Var(_) => Err(self.internal(at, "array held in a variable")),
            },
            CType::Record(_) => match &lv.place {
                Place::Mem(a) => Ok(RVal {
                    e: a.clone(),
                    ty: lv.ty.clone(),
                }),
                Place::Var(_) => Err(self.internal(at, "struct held in a variable")),
            },
            CType::Bits(b) => {
                let Place::Mem(a) = &lv.place else {
                    return Err(self.internal(at, "bit-field held in a variable"));
                };
                if self.const_depth > 0 {
                    return Err(
                        self.type_err(at, "initializer element is not a constant expression")
                    );
                }
                // The field's bits moved to the top of its window, then shifted down with its
                // type's signedness (a plain `int` field is signed, as gcc).
                let unit = Ty::Int(b.bytes * 8);
                self.check_read(a, b.bytes as u64, at)?;
                let up = unit.bits() - b.shift - b.width;
                let down = unit.bits() - b.width;
                let top = fold::bin(
                    BinOp::Shl,
                    Expr::load(unit, a.clone()),
                    Expr::konst(unit, up as u64),
                );
                let signed = b.kind.is_signed();
                let shr = if signed { BinOp::AShr } else { BinOp::LShr };
                let v = fold::bin(shr, top, Expr::konst(unit, down as u64));
                let ty = CType::Int(b.promoted());
                let to = self.irty(&ty, at)?;
                Ok(RVal {
                    e: fold::resize(v, unit, to, signed),
                    ty,
                })
            }
            CType::Void => Ok(RVal::void()),
            // A function designator reached through a pointer (`*p`) decays back to it.
            CType::Func(_) => match &lv.place {
                Place::Mem(a) => Ok(RVal {
                    e: a.clone(),
                    ty: CType::ptr(lv.ty.clone()),
                }),
                Place::Var(_) => Err(self.internal(at, "function held in a variable")),
            },
            t => {
                if self.const_depth > 0 {
                    return Err(
                        self.type_err(at, "initializer element is not a constant expression")
                    );
                }
                let ty = self.irty(t, at)?;
                let e = match &lv.place {
                    Place::Var(v) => Expr::Var(*v),
                    Place::Mem(a) => {
                        self.check_read(a, ty.bits() as u64 / 8, at)?;
                        fold::load(ty, a.clone())
                    }
                };
                Ok(RVal { e, ty: t.clone() })
            }
        }
    }

    /// The check before a read of `n` bytes at `addr` (C: reading outside a live object is
    /// undefined, and the memory model's bytes there are arbitrary: a verdict must never
    /// rest on them).
    pub fn check_read(&mut self, addr: &Expr, n: u64, at: usize) -> R<()> {
        if n == 0 || !self.access_may_be_invalid(addr, n, Access::Read) {
            return Ok(());
        }
        self.check(
            Expr::readable(n as u32, addr.clone()),
            UbKind::InvalidRead,
            at,
        )
    }

    /// Whether a write of `n` bytes at `addr` may fall outside a live object: not when the
    /// address is a constant offset into a stack object of this function or a writable
    /// static object and the bytes fit.
    fn write_may_be_invalid(&self, addr: &Expr, n: u64) -> bool {
        self.access_may_be_invalid(addr, n, Access::Write)
    }

    /// Whether an access of `n` bytes at `addr` may fall outside a live object (for a write:
    /// a writable one): not when the address is a constant offset into a stack object of
    /// this function (live while it runs) or a static object and the bytes fit.
    pub(super) fn access_may_be_invalid(&self, addr: &Expr, n: u64, access: Access) -> bool {
        let (base, off) = match addr {
            Expr::Binary(BinOp::Add, b, o) => match o.as_const() {
                Some(o) => (&**b, o),
                None => return true,
            },
            other => (other, 0),
        };
        let size = match base {
            Expr::Var(VarRef::Local(l)) => self
                .fs
                .as_ref()
                .and_then(|fs| fs.stack_sizes.get(l).copied()),
            Expr::ObjAddr(o) => self
                .program
                .object(*o)
                .filter(|obj| access == Access::Read || !obj.readonly)
                .map(|obj| obj.size),
            _ => None,
        };
        match size {
            Some(s) => off.checked_add(n).is_none_or(|end| end > s),
            None => true,
        }
    }

    /// Stores a scalar value (already converted to the lvalue's type; for a bit-field, its
    /// declared integer type).
    pub fn write(&mut self, lv: &LVal, v: Expr, at: usize) -> R<()> {
        if let (CType::Bits(b), Place::Mem(addr)) = (&lv.ty, &lv.place) {
            return self.write_bits(*b, addr, v, at);
        }
        match &lv.place {
            Place::Var(var) => self.emit(Op::Assign(*var, v), at),
            Place::Mem(addr) => {
                let ty = self.irty(&lv.ty, at)?;
                self.checked_store(ty, addr, v, at)
            }
        }
    }

    /// A store of `value` (of type `ty`) at `addr`, after the check that the bytes may be
    /// written.
    fn checked_store(&mut self, ty: Ty, addr: &Expr, value: Expr, at: usize) -> R<()> {
        let n = ty.bits() as u64 / 8;
        if self.write_may_be_invalid(addr, n) {
            self.check(
                Expr::valid(n as u32, addr.clone()),
                UbKind::InvalidWrite,
                at,
            )?;
        }
        let (ty, value) = fold::store_form(ty, value);
        self.emit(
            Op::Store {
                ty,
                addr: addr.clone(),
                value,
            },
            at,
        )
    }

    /// A bit-field store: reads its window, replaces the field's bits, writes the window back
    /// (the neighbouring fields keep their bits).
    fn write_bits(&mut self, b: BitField, addr: &Expr, v: Expr, at: usize) -> R<()> {
        let unit = Ty::Int(b.bytes * 8);
        let from = self.irty(&CType::Int(b.kind), at)?;
        let low = if b.width >= 64 {
            u64::MAX
        } else {
            (1u64 << b.width) - 1
        };
        let mask = Expr::konst(unit, low << b.shift);
        let keep = Expr::konst(unit, qicc_ir::types::mask(unit.bits()) & !(low << b.shift));
        let new = fold::bin(
            BinOp::And,
            fold::bin(
                BinOp::Shl,
                fold::resize(v, from, unit, false),
                Expr::konst(unit, b.shift as u64),
            ),
            mask,
        );
        let kept = fold::bin(BinOp::And, Expr::load(unit, addr.clone()), keep);
        self.checked_store(unit, addr, fold::bin(BinOp::Or, kept, new), at)
    }

    /// Checks that `len` bytes at `dst` may be written (both ends, when `len > 0`).
    pub fn check_range(&mut self, dst: &Expr, len: &Expr, at: usize) -> R<()> {
        self.check_access_range(Access::Write, dst, len, at)
    }

    /// Checks that `len` bytes at `src` may be read (both ends, when `len > 0`).
    pub fn check_read_range(&mut self, src: &Expr, len: &Expr, at: usize) -> R<()> {
        self.check_access_range(Access::Read, src, len, at)
    }

    /// The check that the first and the last of `len` bytes at `dst` (when `len > 0`) may be
    /// accessed (an object is one contiguous range of addresses).
    fn check_access_range(&mut self, access: Access, dst: &Expr, len: &Expr, at: usize) -> R<()> {
        if let Some(n) = len.as_const() {
            if n == 0 || !self.access_may_be_invalid(dst, n, access) {
                return Ok(());
            }
        }
        let one = |a: Expr| Expr::Valid(access, 1, Box::new(a));
        let kind = match access {
            Access::Write => UbKind::InvalidWrite,
            Access::Read => UbKind::InvalidRead,
            Access::Free => UbKind::InvalidFree,
        };
        let ptr = self.ptr_ty();
        let last = fold::bin(
            BinOp::Add,
            dst.clone(),
            fold::bin(BinOp::Sub, len.clone(), Expr::konst(ptr, 1)),
        );
        let ok = fold::bin(
            BinOp::Or,
            fold::bin(BinOp::Eq, len.clone(), Expr::konst(ptr, 0)),
            fold::bin(BinOp::And, one(dst.clone()), one(last)),
        );
        self.check(ok, kind, at)
    }

    /// Copies a struct (C assignment of structs).
    pub fn copy_bytes(&mut self, dst: Expr, src: Expr, size: u64, at: usize) -> R<()> {
        let len = Expr::konst(self.ptr_ty(), size);
        self.check_read_range(&src, &len, at)?;
        self.check_range(&dst, &len, at)?;
        self.emit(Op::MemCopy { dst, src, len }, at)
    }

    /// The value `e` keeps even if the program changes state before it is used.
    pub fn stab(&mut self, rv: RVal, at: usize) -> R<RVal> {
        if !self.in_function() || rv.ty.is_void() {
            return Ok(rv);
        }
        let ty = match &rv.ty {
            CType::Record(_) | CType::Array(..) => self.ptr_ty(),
            t => self.irty(t, at)?,
        };
        let fs = self.fs(at)?;
        if fs.b.is_stable(&rv.e) {
            return Ok(rv);
        }
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let e = fs.b.materialize(rv.e, ty);
        Ok(RVal { e, ty: rv.ty })
    }

    /// `rv`, computed before `next` is evaluated, made immune to `next`'s side effects.
    pub fn stab_before(&mut self, rv: RVal, next: &Node<Expression>, at: usize) -> R<RVal> {
        if !modifies_state(next) || (!writes_registers(next) && !reads_shared(&rv.e)) {
            return Ok(rv);
        }
        self.stab(rv, at)
    }

    /// An lvalue whose address keeps its value while `next` is evaluated.
    pub fn stab_lval_before(&mut self, lv: LVal, next: &Node<Expression>, at: usize) -> R<LVal> {
        match &lv.place {
            Place::Mem(a)
                if modifies_state(next) && (writes_registers(next) || reads_shared(a)) =>
            {
                self.stab_lval(lv, at)
            }
            _ => Ok(lv),
        }
    }

    /// An lvalue whose address keeps its value (for read-modify-write).
    pub fn stab_lval(&mut self, lv: LVal, at: usize) -> R<LVal> {
        match lv.place {
            Place::Mem(a) if self.in_function() => {
                let ptr = self.ptr_ty();
                let fs = self.fs(at)?;
                let a = if fs.b.is_stable(&a) {
                    a
                } else {
                    let span = self.span(at);
                    let fs = self.fs(at)?;
                    fs.b.span = span;
                    fs.b.materialize(a, ptr)
                };
                Ok(LVal {
                    place: Place::Mem(a),
                    ty: lv.ty,
                })
            }
            _ => Ok(lv),
        }
    }

    // ---- conversions ----

    /// Converts a value to type `to` as C's assignment/cast conversion does.
    pub fn convert(&mut self, v: RVal, to: &CType, at: usize) -> R<Expr> {
        let from = &v.ty;
        if from.is_float() || to.is_float() {
            return self.convert_float(v, to, at);
        }
        match (from, to) {
            (_, CType::Void) => Ok(Expr::int(32, 0)),
            // Into a bit-field: its declared type (the store keeps the low bits).
            (_, CType::Bits(b)) => self.convert(v, &CType::Int(b.kind), at),
            (CType::Int(a), CType::Int(b)) => {
                let (ta, tb) = (self.irty(from, at)?, self.irty(to, at)?);
                if *b == IntKind::Bool && *a != IntKind::Bool {
                    return Ok(fold::from_bool(fold::to_bool(v.e, ta), tb));
                }
                if self.opts.conversion_checks && b.is_signed() {
                    self.check_conversion(&v.e, ta, a.is_signed(), tb, to, at)?;
                }
                Ok(fold::resize(v.e, ta, tb, a.is_signed()))
            }
            (CType::Pointer(_), CType::Int(b)) => {
                let (ta, tb) = (self.ptr_ty(), self.irty(to, at)?);
                if *b == IntKind::Bool {
                    return Ok(fold::from_bool(fold::to_bool(v.e, ta), tb));
                }
                self.check_pointer_to_int(&v.e, from, at)?;
                // gcc sign-extends a pointer converted to a wider integer.
                Ok(fold::resize(v.e, ta, tb, true))
            }
            (CType::Int(a), CType::Pointer(_)) => {
                let (ta, tb) = (self.irty(from, at)?, self.ptr_ty());
                Ok(fold::resize(v.e, ta, tb, a.is_signed()))
            }
            (CType::Pointer(_), CType::Pointer(_)) => Ok(v.e),
            (CType::Record(_), CType::Record(_)) if self.types.same_type(from, to) => Ok(v.e),
            (CType::Array(..) | CType::Vla(..), CType::Pointer(_)) => Ok(v.e),
            (CType::Func(_), _) => Err(self.internal(at, "function designator not decayed")),
            _ => Err(self.type_err(
                at,
                format!(
                    "cannot convert '{}' to '{}'",
                    self.types.show(from),
                    self.types.show(to)
                ),
            )),
        }
    }

    /// Under `--check conversion`: asserts that converting `e` (of IR type `ta`, signed or
    /// not) to the signed type `tb` (C type `to`) keeps its value. Only where the value can
    /// leave the target's range: a narrower signed source, or an unsigned one at least as
    /// wide. Constant expressions are folded by the compiler and not checked.
    fn check_conversion(
        &mut self,
        e: &Expr,
        ta: Ty,
        signed: bool,
        tb: Ty,
        to: &CType,
        at: usize,
    ) -> R<()> {
        let (wa, wb) = (ta.bits(), tb.bits());
        let ok = if signed && wa > wb {
            // Sign-extending the truncated value gives the value back.
            let back = fold::resize(fold::resize(e.clone(), ta, tb, true), tb, ta, true);
            fold::bin(BinOp::Eq, back, e.clone())
        } else if !signed && wa >= wb {
            // Below 2^(wb-1), as an unsigned number of width wa.
            fold::bin(BinOp::Ult, e.clone(), Expr::konst(ta, 1u64 << (wb - 1)))
        } else {
            return Ok(());
        };
        if ok.is_true() || self.const_depth > 0 || self.fs.is_none() {
            return Ok(());
        }
        let ok = self.where_evaluated(ok);
        let text = format!("conversion to {} keeps the value", self.types.show(to));
        self.assert_here(ok, AssertKind::Conversion, Some(text), at)
    }

    pub fn convert_rv(&mut self, v: RVal, to: &CType, at: usize) -> R<RVal> {
        let e = self.convert(v, to, at)?;
        Ok(RVal { e, ty: to.clone() })
    }

    /// The truth value of a scalar (`!= 0`) as a bool.
    pub fn truth(&mut self, v: RVal, at: usize) -> R<Expr> {
        match &v.ty {
            CType::Int(_) | CType::Pointer(_) => {
                let t = self.irty(&v.ty, at)?;
                Ok(fold::to_bool(v.e, t))
            }
            CType::Float(_) => {
                let w = self.float_width_of(&v.ty, at)?;
                Ok(super::float::float_truth(v.e, w))
            }
            t => Err(self.type_err(
                at,
                format!("'{}' used where a scalar is required", self.types.show(t)),
            )),
        }
    }

    fn int_kind(&self, v: &RVal, at: usize) -> R<IntKind> {
        match &v.ty {
            CType::Int(k) => Ok(*k),
            t => Err(self.type_err(
                at,
                format!(
                    "invalid operand of type '{}' (an integer is required)",
                    self.types.show(t)
                ),
            )),
        }
    }

    fn promote_rv(&mut self, v: RVal, at: usize) -> R<RVal> {
        let k = self.int_kind(&v, at)?;
        let to = self.types.promote(&CType::Int(k));
        self.convert_rv(v, &to, at)
    }

    // ---- the expression dispatcher ----

    pub fn lower(&mut self, e: &'a Node<Expression>) -> R<Val> {
        let at = e.span.start;
        match &e.node {
            Expression::Identifier(id) => self.identifier(&id.node.name, at),
            Expression::Constant(c) => self.constant(&c.node, at).map(Val::R),
            Expression::StringLiteral(s) => {
                let (bytes, elem, len) = self.string_literal(&s.node, at)?;
                let obj = self.string_object(bytes, at);
                Ok(Val::L(LVal {
                    place: Place::Mem(Expr::ObjAddr(obj)),
                    ty: CType::Array(Rc::new(elem), Some(len)),
                }))
            }
            Expression::GenericSelection(g) => {
                let t = self.expr_type(&g.node.expression)?;
                let t = decay(t);
                let mut default = None;
                for a in &g.node.associations {
                    match &a.node {
                        GenericAssociation::Type(ta) => {
                            let ty = self.type_name(&ta.node.type_name)?;
                            if ty == t {
                                return self.lower(&ta.node.expression);
                            }
                        }
                        GenericAssociation::Default(d) => default = Some(&**d),
                    }
                }
                match default {
                    Some(d) => self.lower(d),
                    None => Err(self.type_err(at, "no _Generic association matches")),
                }
            }
            Expression::Member(m) => self.member(m),
            Expression::Call(c) => self.call(c, e.span.start),
            Expression::CompoundLiteral(cl) => self.compound_literal(cl),
            Expression::SizeOfTy(s) => {
                let t = self.type_name(&s.node.0)?;
                self.size_rval(&t, at).map(Val::R)
            }
            Expression::SizeOfVal(s) => {
                let t = self.expr_type(&s.node.0)?;
                self.size_rval(&t, at).map(Val::R)
            }
            Expression::AlignOf(a) => {
                let t = self.type_name(&a.node.0)?;
                if let Some(p) = self.layout_problem(&t) {
                    return Err(p);
                }
                let n = self.types.align_of(&t);
                Ok(Val::R(self.size_const(n)))
            }
            Expression::UnaryOperator(u) => self.unary(u),
            Expression::Cast(c) => self.cast(c),
            Expression::BinaryOperator(b) => self.binary(b),
            Expression::Conditional(c) => self.conditional(c),
            Expression::Comma(es) => {
                let n = es.len();
                for x in es.iter().take(n.saturating_sub(1)) {
                    self.void_expr(x)?;
                }
                match es.last() {
                    Some(last) => {
                        let v = self.rvalue(last)?;
                        Ok(Val::R(v))
                    }
                    None => Ok(Val::R(RVal::void())),
                }
            }
            Expression::OffsetOf(o) => self.offsetof(o),
            Expression::VaArg(v) => self.va_arg(v, at),
            Expression::Statement(s) => self.stmt_expr(s),
        }
    }

    /// `sizeof` of a type: a constant, or a variable-length array's size, computed when its
    /// declarator was evaluated (outside a function, only constants).
    fn size_rval(&self, t: &CType, at: usize) -> R<RVal> {
        match t {
            CType::Vla(..) => Ok(RVal {
                e: self.size_expr(t, at)?,
                ty: self.types.size_t(),
            }),
            _ => Ok(self.size_const(self.size_of(t, at)?)),
        }
    }

    pub fn size_const(&self, n: u64) -> RVal {
        let t = self.types.size_t();
        let ty = self.types.ir_ty(&t).unwrap_or(Ty::I64);
        RVal {
            e: Expr::konst(ty, n),
            ty: t,
        }
    }

    fn identifier(&mut self, name: &str, at: usize) -> R<Val> {
        match self.lookup(name).cloned() {
            Some(Sym::Var(VarId::Local(i))) => {
                let Some(fs) = self.fs.as_ref() else {
                    return Err(self.internal(at, "local variable outside a function"));
                };
                let Some(v) = fs.vars.get(i).cloned() else {
                    return Err(self.internal(at, "unknown local variable"));
                };
                let place = match v.place {
                    LocalPlace::Reg(l) => Place::Var(VarRef::Local(l)),
                    LocalPlace::Mem(p) => Place::Mem(Expr::local(p)),
                };
                Ok(Val::L(LVal { place, ty: v.ty }))
            }
            Some(Sym::Var(VarId::Global(i))) => {
                let st = self.materialize_global(i)?;
                let ty = self.globals[i].ty.clone()?;
                let place = match st {
                    GStorage::Var(g) => Place::Var(VarRef::Global(g)),
                    GStorage::Obj(o) => Place::Mem(Expr::ObjAddr(o)),
                };
                Ok(Val::L(LVal { place, ty }))
            }
            Some(Sym::Func(i)) => Ok(Val::Func(i)),
            Some(Sym::EnumConst(v, ty)) => {
                let t = self.irty(&ty, at)?;
                Ok(Val::R(RVal {
                    e: Expr::konst(t, v as u64),
                    ty,
                }))
            }
            Some(Sym::Typedef(..)) => {
                Err(self.type_err(at, format!("unexpected type name '{name}'")))
            }
            None => match name {
                "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__" => {
                    let fname = self
                        .fs
                        .as_ref()
                        .map(|f| f.c_name.clone())
                        .unwrap_or_default();
                    let mut bytes = fname.into_bytes();
                    bytes.push(0);
                    let len = bytes.len() as u64;
                    let obj = self.string_object(bytes, at);
                    Ok(Val::L(LVal {
                        place: Place::Mem(Expr::ObjAddr(obj)),
                        ty: CType::Array(Rc::new(CType::CHAR), Some(len)),
                    }))
                }
                _ => Err(self.type_err(at, format!("use of undeclared identifier '{name}'"))),
            },
        }
    }

    // ---- constants ----

    pub fn constant(&mut self, c: &Constant, at: usize) -> R<RVal> {
        if let Constant::Float(f) = c {
            return self.float_constant(f, at);
        }
        let (v, ty) = self.constant_value(c, at)?;
        let t = self.irty(&ty, at)?;
        Ok(RVal {
            e: Expr::konst(t, v),
            ty,
        })
    }

    /// The value and C type of an integer or character constant (C11 6.4.4.1, 6.4.4.4).
    pub fn constant_value(&self, c: &Constant, at: usize) -> R<(u64, CType)> {
        match c {
            Constant::Integer(i) => {
                if i.suffix.imaginary {
                    return Err(self.unsupported(at, "complex numbers (imaginary constants)"));
                }
                let v = parse_digits(&i.base, &i.number)
                    .filter(|v| *v <= u64::MAX as u128)
                    .ok_or_else(|| self.type_err(at, "integer constant is too large"))?
                    as u64;
                use IntKind::*;
                let dec = i.base == IntegerBase::Decimal;
                let cands: &[IntKind] = match (i.suffix.size, i.suffix.unsigned, dec) {
                    (IntegerSize::Int, false, true) => &[Int, Long, LongLong],
                    (IntegerSize::Int, false, false) => {
                        &[Int, UInt, Long, ULong, LongLong, ULongLong]
                    }
                    (IntegerSize::Int, true, _) => &[UInt, ULong, ULongLong],
                    (IntegerSize::Long, false, true) => &[Long, LongLong],
                    (IntegerSize::Long, false, false) => &[Long, ULong, LongLong, ULongLong],
                    (IntegerSize::Long, true, _) => &[ULong, ULongLong],
                    (IntegerSize::LongLong, false, true) => &[LongLong],
                    (IntegerSize::LongLong, false, false) => &[LongLong, ULongLong],
                    (IntegerSize::LongLong, true, _) => &[ULongLong],
                };
                let dm = self.types.dm;
                let fits = |k: IntKind| {
                    let bits = k.bits(dm) as u32;
                    let max = if k.is_signed() {
                        (1u128 << (bits - 1)) - 1
                    } else {
                        (1u128 << bits) - 1
                    };
                    (v as u128) <= max
                };
                // gcc: a decimal constant too large for `long long` is `unsigned long long`.
                let k = cands
                    .iter()
                    .copied()
                    .find(|k| fits(*k))
                    .unwrap_or(ULongLong);
                Ok((v, CType::Int(k)))
            }
            Constant::Float(_) => Err(self.type_err(
                at,
                "a floating constant where an integer constant expression is required",
            )),
            Constant::Character(s) => {
                let (prefix, body) = split_prefix(s, '\'');
                let units = decode_escapes(body, !prefix.is_empty())
                    .map_err(|m| self.type_err(at, format!("bad character constant: {m}")))?;
                match prefix {
                    "" => {
                        // Narrow: each byte is a `char` (signed); several make a gcc
                        // multi-character constant.
                        let mut v: u32 = 0;
                        if units.len() == 1 {
                            v = units[0] as u8 as i8 as i32 as u32;
                        } else {
                            for u in &units {
                                v = (v << 8) | (*u & 0xff);
                            }
                        }
                        Ok((v as u64, CType::INT))
                    }
                    "L" => Ok((
                        units.first().copied().unwrap_or(0) as u64,
                        CType::Int(IntKind::Int),
                    )),
                    "u" => Ok((
                        units.first().copied().unwrap_or(0) as u64 & 0xffff,
                        CType::Int(IntKind::UShort),
                    )),
                    _ => Ok((
                        units.first().copied().unwrap_or(0) as u64,
                        CType::Int(IntKind::UInt),
                    )),
                }
            }
        }
    }

    /// The bytes of a string literal (NUL included), its element type and its length.
    /// The text of `e` when it is a string literal (without its terminating NUL; bytes that
    /// are not UTF-8 replaced), as messages and `nan`'s payload read it.
    pub fn literal_text(&self, e: &Node<Expression>) -> Option<String> {
        let Expression::StringLiteral(s) = &e.node else {
            return None;
        };
        let (b, _, _) = self.string_literal(&s.node, e.span.start).ok()?;
        Some(String::from_utf8_lossy(&b[..b.len().saturating_sub(1)]).into_owned())
    }

    pub fn string_literal(&self, pieces: &[String], at: usize) -> R<(Vec<u8>, CType, u64)> {
        let mut kind = "";
        let mut units: Vec<u32> = Vec::new();
        for p in pieces {
            let (prefix, body) = split_prefix(p, '"');
            if !prefix.is_empty() && prefix != "u8" {
                kind = prefix;
            }
            let wide = !prefix.is_empty() && prefix != "u8";
            let mut u = decode_escapes(body, wide)
                .map_err(|m| self.type_err(at, format!("bad string literal: {m}")))?;
            units.append(&mut u);
        }
        units.push(0);
        let (elem, size) = match kind {
            "" => (CType::CHAR, 1),
            "L" => (CType::Int(IntKind::Int), 4),
            "u" => (CType::Int(IntKind::UShort), 2),
            _ => (CType::Int(IntKind::UInt), 4),
        };
        let mut bytes = Vec::with_capacity(units.len() * size);
        for u in &units {
            bytes.extend_from_slice(&u.to_le_bytes()[..size]);
        }
        Ok((bytes, elem, units.len() as u64))
    }

    // ---- members, unary operators, casts ----

    fn member(&mut self, m: &'a Node<MemberExpression>) -> R<Val> {
        let at = m.node.identifier.span.start;
        let name = &m.node.identifier.node.name;
        let (base, rec) = match m.node.operator.node {
            MemberOperator::Direct => match self.lower(&m.node.expression)? {
                Val::L(LVal {
                    place: Place::Mem(a),
                    ty: CType::Record(r),
                }) => (a, r),
                Val::R(RVal {
                    e,
                    ty: CType::Record(r),
                }) => (e, r),
                Val::L(lv) => {
                    return Err(self.type_err(
                        at,
                        format!(
                            "member reference base type '{}' is not a structure or union",
                            self.types.show(&lv.ty)
                        ),
                    ))
                }
                Val::R(rv) => {
                    return Err(self.type_err(
                        at,
                        format!(
                            "member reference base type '{}' is not a structure or union",
                            self.types.show(&rv.ty)
                        ),
                    ))
                }
                Val::Func(_) => return Err(self.type_err(at, "member reference of a function")),
            },
            MemberOperator::Indirect => {
                let p = self.rvalue(&m.node.expression)?;
                match &p.ty {
                    CType::Pointer(t) => match &**t {
                        CType::Record(r) => (p.e, *r),
                        other => {
                            return Err(self.type_err(
                                at,
                                format!(
                                    "member reference base type '{}' is not a structure or union",
                                    self.types.show(other)
                                ),
                            ))
                        }
                    },
                    other => {
                        return Err(self.type_err(
                            at,
                            format!(
                                "member reference type '{}' is not a pointer",
                                self.types.show(other)
                            ),
                        ))
                    }
                }
            }
        };
        let rty = CType::Record(rec);
        if let Some(p) = self.layout_problem(&rty) {
            return Err(p);
        }
        if !self.types.record(rec).complete {
            return Err(self.type_err(at, format!("incomplete type '{}'", self.types.show(&rty))));
        }
        let Some((off, fty)) = self.types.find_member(rec, name) else {
            return Err(self.type_err(
                at,
                format!("no member named '{name}' in '{}'", self.types.show(&rty)),
            ));
        };
        let ptr = self.ptr_ty();
        let addr = fold::bin(BinOp::Add, base, Expr::konst(ptr, off));
        Ok(Val::L(LVal {
            place: Place::Mem(addr),
            ty: fty,
        }))
    }

    fn unary(&mut self, u: &'a Node<UnaryOperatorExpression>) -> R<Val> {
        let at = u.node.operator.span.start;
        let operand = &u.node.operand;
        match u.node.operator.node {
            UnaryOperator::Address => match self.lower(operand)? {
                Val::L(LVal {
                    ty: CType::Bits(_), ..
                }) => Err(self.type_err(at, "cannot take the address of a bit-field")),
                Val::L(LVal {
                    place: Place::Mem(a),
                    ty,
                }) => Ok(Val::R(RVal {
                    e: a,
                    ty: CType::ptr(ty),
                })),
                Val::L(LVal {
                    place: Place::Var(_),
                    ..
                }) => Err(self.internal(at, "address of a variable that was not placed in memory")),
                Val::Func(i) => Ok(Val::R(self.fn_pointer(i)?)),
                Val::R(_) => Err(self.type_err(at, "cannot take the address of an rvalue")),
            },
            UnaryOperator::Indirection => {
                let p = self.rvalue(operand)?;
                match &p.ty {
                    CType::Pointer(t) => {
                        // `*p` of a function pointer is the function designator at that
                        // address (read back as the pointer, called through it).
                        Ok(Val::L(LVal {
                            place: Place::Mem(p.e),
                            ty: (**t).clone(),
                        }))
                    }
                    other => Err(self.type_err(
                        at,
                        format!(
                            "indirection requires a pointer operand ('{}' invalid)",
                            self.types.show(other)
                        ),
                    )),
                }
            }
            UnaryOperator::Plus => {
                let v = self.rvalue(operand)?;
                if v.ty.is_float() {
                    return Ok(Val::R(v));
                }
                Ok(Val::R(self.promote_rv(v, at)?))
            }
            UnaryOperator::Minus => {
                let v = self.rvalue(operand)?;
                if v.ty.is_float() {
                    return Ok(Val::R(self.float_neg(v)));
                }
                let v = self.promote_rv(v, at)?;
                if v.ty.is_signed_int() {
                    let t = self.irty(&v.ty, at)?;
                    self.nowrap(BinOp::Sub, t, &Expr::konst(t, 0), &v.e, at)?;
                }
                Ok(Val::R(RVal {
                    e: fold::neg(v.e),
                    ty: v.ty,
                }))
            }
            UnaryOperator::Complement => {
                let v = self.rvalue(operand)?;
                let v = self.promote_rv(v, at)?;
                Ok(Val::R(RVal {
                    e: fold::not(v.e),
                    ty: v.ty,
                }))
            }
            UnaryOperator::Negate => {
                let v = self.rvalue(operand)?;
                let c = self.truth(v, at)?;
                Ok(Val::R(RVal {
                    e: fold::from_bool(fold::not(c), Ty::I32),
                    ty: CType::INT,
                }))
            }
            UnaryOperator::PreIncrement => self.incdec(operand, true, false, at),
            UnaryOperator::PreDecrement => self.incdec(operand, false, false, at),
            UnaryOperator::PostIncrement => self.incdec(operand, true, true, at),
            UnaryOperator::PostDecrement => self.incdec(operand, false, true, at),
        }
    }

    /// `x + 1` / `x - 1` in `x`'s own arithmetic, converted back to `x`'s type.
    fn plus_one(&mut self, old: RVal, inc: bool, at: usize) -> R<Expr> {
        match &old.ty {
            CType::Pointer(t) => {
                let size = self.size_expr(t, at)?;
                let op = if inc { BinOp::Add } else { BinOp::Sub };
                Ok(fold::bin(op, old.e, size))
            }
            CType::Int(_) => {
                let ty = old.ty.clone();
                let p = self.promote_rv(old, at)?;
                let t = self.irty(&p.ty, at)?;
                let op = if inc { BinOp::Add } else { BinOp::Sub };
                if p.ty.is_signed_int() {
                    self.nowrap(op, t, &p.e, &Expr::konst(t, 1), at)?;
                }
                let sum = RVal {
                    e: fold::bin(op, p.e, Expr::konst(t, 1)),
                    ty: p.ty,
                };
                self.convert(sum, &ty, at)
            }
            CType::Float(_) => self.float_plus_one(old, inc, at),
            t => Err(self.type_err(
                at,
                format!("cannot increment a value of type '{}'", self.types.show(t)),
            )),
        }
    }

    fn incdec(
        &mut self,
        operand: &'a Node<Expression>,
        inc: bool,
        post: bool,
        at: usize,
    ) -> R<Val> {
        let lv = self.lvalue(operand)?;
        let old = self.read(&lv, at)?;
        // A bit-field's value is promoted: back to the field's type.
        let to_field = |cx: &mut Ctx<'a>, new: Expr, ty: &CType| -> R<Expr> {
            match lv.ty {
                CType::Bits(_) => cx.convert(
                    RVal {
                        e: new,
                        ty: ty.clone(),
                    },
                    &lv.ty,
                    at,
                ),
                _ => Ok(new),
            }
        };
        if post {
            let old = self.stab(old, at)?;
            let new = self.plus_one(old.clone(), inc, at)?;
            let new = to_field(self, new, &old.ty)?;
            self.write(&lv, new, at)?;
            Ok(Val::R(old))
        } else {
            let ty = old.ty.clone();
            let new = self.plus_one(old, inc, at)?;
            let new = to_field(self, new, &ty)?;
            self.write(&lv, new, at)?;
            Ok(Val::R(self.read(&lv, at)?))
        }
    }

    fn cast(&mut self, c: &'a Node<CastExpression>) -> R<Val> {
        let at = c.span.start;
        let ty = self.type_name(&c.node.type_name)?;
        if ty.is_void() {
            self.void_expr(&c.node.expression)?;
            return Ok(Val::R(RVal::void()));
        }
        if let CType::Record(r) = &ty {
            if self.types.record(*r).kind == crate::types::RecordKind::Union && self.in_function() {
                return self.cast_to_union(ty.clone(), *r, &c.node.expression, at);
            }
        }
        if !ty.is_scalar() {
            return Err(self.unsupported(
                at,
                format!("cast to non-scalar type '{}'", self.types.show(&ty)),
            ));
        }
        let v = self.rvalue(&c.node.expression)?;
        let e = self.convert(v, &ty, at)?;
        Ok(Val::R(RVal { e, ty }))
    }

    /// GNU's cast to a union type, `(union u)x`: a new union object whose member of `x`'s
    /// type holds `x` (the other bytes are indeterminate, as in gcc).
    fn cast_to_union(
        &mut self,
        ty: CType,
        r: crate::types::RecordId,
        e: &'a Node<Expression>,
        at: usize,
    ) -> R<Val> {
        let et = decay(self.expr_type(e)?);
        let member = self
            .types
            .record(r)
            .fields
            .iter()
            .find(|f| self.types.same_type(&f.ty, &et))
            .map(|f| (f.ty.clone(), f.offset));
        let Some((mty, moff)) = member else {
            return Err(self.type_err(
                at,
                format!(
                    "cast to union type '{}' from type '{}', which none of its members has",
                    self.types.show(&ty),
                    self.types.show(&et)
                ),
            ));
        };
        let size = self.size_of(&ty, at)?;
        let v = self.rvalue(e)?;
        let n = self.lit_counter;
        self.lit_counter += 1;
        let ptr = self.ptr_ty();
        let span = self.span(at);
        let fs = self.fs(at)?;
        let p =
            fs.b.stack_object_exact(&format!("lit.{n}"), size, ptr, span);
        fs.stack_sizes.insert(p, size);
        let addr = fold::bin(BinOp::Add, Expr::local(p), Expr::konst(ptr, moff));
        if mty.is_record() {
            let msize = self.size_of(&mty, at)?;
            self.copy_bytes(addr, v.e, msize, at)?;
        } else {
            let x = self.convert(v, &mty, at)?;
            let lv = LVal {
                place: Place::Mem(addr),
                ty: mty,
            };
            self.write(&lv, x, at)?;
        }
        Ok(Val::L(LVal {
            place: Place::Mem(Expr::local(p)),
            ty,
        }))
    }

    // ---- binary operators ----

    fn binary(&mut self, b: &'a Node<BinaryOperatorExpression>) -> R<Val> {
        use BinaryOperator as B;
        let at = b.node.operator.span.start;
        let (lhs, rhs) = (&b.node.lhs, &b.node.rhs);
        let op = b.node.operator.node.clone();
        match op {
            B::Index => {
                let a = self.rvalue(lhs)?;
                let a = self.stab_before(a, rhs, at)?;
                let i = self.rvalue(rhs)?;
                let (p, i) = if a.ty.is_pointer() {
                    (a, i)
                } else if i.ty.is_pointer() {
                    (i, a)
                } else {
                    return Err(self.type_err(at, "subscripted value is not an array or pointer"));
                };
                let elem = p.ty.pointee().cloned().unwrap_or(CType::Void);
                if elem.is_func() {
                    return Err(self.type_err(at, "subscript of a pointer to a function"));
                }
                let addr = self.ptr_offset(p, i, true, at)?;
                Ok(Val::L(LVal {
                    place: Place::Mem(addr.e),
                    ty: elem,
                }))
            }
            B::LogicalAnd | B::LogicalOr => {
                let and = op == B::LogicalAnd;
                // The operands of the whole left-nested chain `a && b && c …` at once, so
                // that lowering stays linear in the chain's length (a recursion per operand
                // would look at, and copy, the growing left side each time).
                let mut operands = vec![rhs];
                let mut left = lhs;
                while let Expression::BinaryOperator(inner) = &left.node {
                    if inner.node.operator.node != op {
                        break;
                    }
                    operands.push(&inner.node.rhs);
                    left = &inner.node.lhs;
                }
                operands.push(left);
                operands.reverse();
                // Without effects in any operand, one expression; unless a later operand
                // reads memory, which C does not read when an earlier one decides (and whose
                // read check must then sit on its branch).
                let in_function = self.in_function();
                if operands.iter().all(|o| is_simple(o))
                    && (!in_function || !operands[1..].iter().any(|o| self.may_read_memory(o)))
                {
                    let first = self.rvalue(operands[0])?;
                    let mut acc = self.truth(first, operands[0].span.start)?;
                    let mut reads = false;
                    for o in &operands[1..] {
                        if in_function && !small(&acc) {
                            let span = self.span(o.span.start);
                            let fs = self.fs(o.span.start)?;
                            fs.b.span = span;
                            acc = fs.b.materialize(acc, Ty::Bool);
                        }
                        // An operand is evaluated only when the ones before do not decide.
                        self.eval_guards.push(if and {
                            acc.clone()
                        } else {
                            fold::not(acc.clone())
                        });
                        let r = self.rvalue(o);
                        self.eval_guards.pop();
                        let r = self.truth(r?, o.span.start)?;
                        reads |= r.reads_memory();
                        acc = fold::bin(if and { BinOp::And } else { BinOp::Or }, acc, r);
                    }
                    if !reads || !in_function {
                        return Ok(Val::R(RVal {
                            e: fold::from_bool(acc, Ty::I32),
                            ty: CType::INT,
                        }));
                    }
                }
                self.value_of_cond(b, at)
            }
            B::Assign => self.assign(lhs, rhs, at),
            B::AssignMultiply
            | B::AssignDivide
            | B::AssignModulo
            | B::AssignPlus
            | B::AssignMinus
            | B::AssignShiftLeft
            | B::AssignShiftRight
            | B::AssignBitwiseAnd
            | B::AssignBitwiseXor
            | B::AssignBitwiseOr => {
                let base = match op {
                    B::AssignMultiply => B::Multiply,
                    B::AssignDivide => B::Divide,
                    B::AssignModulo => B::Modulo,
                    B::AssignPlus => B::Plus,
                    B::AssignMinus => B::Minus,
                    B::AssignShiftLeft => B::ShiftLeft,
                    B::AssignShiftRight => B::ShiftRight,
                    B::AssignBitwiseAnd => B::BitwiseAnd,
                    B::AssignBitwiseXor => B::BitwiseXor,
                    _ => B::BitwiseOr,
                };
                let lv = self.lvalue(lhs)?;
                let lv = self.stab_lval_before(lv, rhs, at)?;
                if lv.ty.is_record() || lv.ty.is_array() {
                    return Err(self.type_err(at, "invalid operands to compound assignment"));
                }
                let old = self.read(&lv, at)?;
                let old = self.stab_before(old, rhs, at)?;
                let r = self.rvalue(rhs)?;
                let res = self.arith(base, old, r, at)?;
                let v = self.convert(res, &lv.ty, at)?;
                self.write(&lv, v, at)?;
                Ok(Val::R(self.read(&lv, at)?))
            }
            _ => {
                let l = self.rvalue(lhs)?;
                let l = self.stab_before(l, rhs, at)?;
                let r = self.rvalue(rhs)?;
                Ok(Val::R(self.arith(op, l, r, at)?))
            }
        }
    }

    /// A truth value (0 or 1, `int`) computed with control flow.
    fn value_of_cond(&mut self, e: &'a Node<BinaryOperatorExpression>, at: usize) -> R<Val> {
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let tmp = fs.b.new_tmp(Ty::I32);
        let t = fs.b.new_loc();
        let f = fs.b.new_loc();
        let join = fs.b.new_loc();
        self.cond_logic(e, t, f)?;
        let fs = self.fs(at)?;
        fs.b.span = span;
        fs.b.set_cur(t);
        fs.b.emit(Op::Assign(VarRef::Local(tmp), Expr::int(32, 1)));
        fs.b.goto(join);
        fs.b.set_cur(f);
        fs.b.emit(Op::Assign(VarRef::Local(tmp), Expr::int(32, 0)));
        fs.b.goto(join);
        fs.b.set_cur(join);
        Ok(Val::R(RVal {
            e: Expr::local(tmp),
            ty: CType::INT,
        }))
    }

    /// Branches on a condition: to `t` when it holds, to `f` otherwise (short-circuiting
    /// `&&`, `||` and `!` into control flow).
    pub fn cond(&mut self, e: &'a Node<Expression>, t: qicc_ir::Loc, f: qicc_ir::Loc) -> R<()> {
        let at = e.span.start;
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                self.cond_logic(b, t, f)
            }
            Expression::UnaryOperator(u) if u.node.operator.node == UnaryOperator::Negate => {
                self.cond(&u.node.operand, f, t)
            }
            Expression::Comma(es) if !es.is_empty() => {
                for x in es.iter().take(es.len() - 1) {
                    self.void_expr(x)?;
                }
                match es.last() {
                    Some(last) => self.cond(last, t, f),
                    None => Ok(()),
                }
            }
            _ => {
                let v = self.rvalue(e)?;
                let c = self.truth(v, at)?;
                let span = self.span(at);
                let fs = self.fs(at)?;
                fs.b.span = span;
                fs.b.branch(c, t, f);
                Ok(())
            }
        }
    }

    /// Branches on `a && b` / `a || b`.
    fn cond_logic(
        &mut self,
        b: &'a Node<BinaryOperatorExpression>,
        t: qicc_ir::Loc,
        f: qicc_ir::Loc,
    ) -> R<()> {
        let at = b.span.start;
        let and = b.node.operator.node == BinaryOperator::LogicalAnd;
        let mid = self.fs(at)?.b.new_loc();
        if and {
            self.cond(&b.node.lhs, mid, f)?;
        } else {
            self.cond(&b.node.lhs, t, mid)?;
        }
        self.fs(at)?.b.set_cur(mid);
        self.cond(&b.node.rhs, t, f)
    }

    /// `p + i` (or `p - i`) scaled by the size of `p`'s element type.
    pub fn ptr_offset(&mut self, p: RVal, i: RVal, add: bool, at: usize) -> R<RVal> {
        let elem = p.ty.pointee().cloned().unwrap_or(CType::Void);
        if elem.is_func() {
            return Err(self.unsupported(at, "arithmetic on function pointers"));
        }
        let size = self.size_expr(&elem, at)?;
        let k = self.int_kind(&i, at)?;
        let ptr = self.ptr_ty();
        let ti = self.irty(&i.ty, at)?;
        let idx = fold::resize(i.e, ti, ptr, k.is_signed());
        let off = fold::bin(BinOp::Mul, idx, size);
        let op = if add { BinOp::Add } else { BinOp::Sub };
        Ok(RVal {
            e: fold::bin(op, p.e, off),
            ty: p.ty,
        })
    }

    /// Binary arithmetic, shifts and comparisons on rvalues.
    pub fn arith(&mut self, op: BinaryOperator, l: RVal, r: RVal, at: usize) -> R<RVal> {
        use BinaryOperator as B;
        if l.ty.is_float() || r.ty.is_float() {
            return self.float_arith(op, l, r, at);
        }
        match op {
            B::Plus | B::Minus => {
                let add = op == B::Plus;
                match (&l.ty, &r.ty) {
                    (CType::Pointer(_), CType::Int(_)) => self.ptr_offset(l, r, add, at),
                    (CType::Int(_), CType::Pointer(_)) if add => self.ptr_offset(r, l, true, at),
                    (CType::Pointer(a), CType::Pointer(_)) if !add => {
                        self.check_pointer_pair(BinOp::Sub, &l.e, &r.e, &l.ty, at)?;
                        let size = self.size_expr(a, at)?;
                        let d = fold::bin(BinOp::Sub, l.e, r.e);
                        let d = if size.as_const() == Some(1) {
                            d
                        } else {
                            fold::bin(BinOp::SDiv, d, size)
                        };
                        let pd = self.types.ptrdiff_t();
                        Ok(RVal { e: d, ty: pd })
                    }
                    _ => self.int_arith(op, l, r, at),
                }
            }
            B::Multiply | B::Divide | B::Modulo | B::BitwiseAnd | B::BitwiseOr | B::BitwiseXor => {
                self.int_arith(op, l, r, at)
            }
            B::ShiftLeft | B::ShiftRight => self.shift(op == B::ShiftLeft, l, r, at),
            B::Less
            | B::Greater
            | B::LessOrEqual
            | B::GreaterOrEqual
            | B::Equals
            | B::NotEquals => self.compare(op, l, r, at),
            _ => Err(self.internal(at, "unexpected operator")),
        }
    }

    fn int_arith(&mut self, op: BinaryOperator, l: RVal, r: RVal, at: usize) -> R<RVal> {
        use BinaryOperator as B;
        let (lk, rk) = (self.int_kind(&l, at)?, self.int_kind(&r, at)?);
        let k = self.types.usual_arith(lk, rk);
        let ty = CType::Int(k);
        let t = self.irty(&ty, at)?;
        let a = self.convert(l, &ty, at)?;
        let b = self.convert(r, &ty, at)?;
        let signed = k.is_signed();
        let irop = match op {
            B::Plus => BinOp::Add,
            B::Minus => BinOp::Sub,
            B::Multiply => BinOp::Mul,
            B::BitwiseAnd => BinOp::And,
            B::BitwiseOr => BinOp::Or,
            B::BitwiseXor => BinOp::Xor,
            B::Divide | B::Modulo => {
                self.check(
                    fold::bin(BinOp::Ne, b.clone(), Expr::konst(t, 0)),
                    UbKind::DivByZero,
                    at,
                )?;
                if signed {
                    let min = Expr::konst(t, 1u64 << (t.bits() - 1));
                    let overflow = fold::bin(
                        BinOp::And,
                        fold::bin(BinOp::Eq, a.clone(), min),
                        fold::bin(BinOp::Eq, b.clone(), Expr::konst(t, u64::MAX)),
                    );
                    self.check(fold::not(overflow), UbKind::DivOverflow, at)?;
                }
                match (op == B::Divide, signed) {
                    (true, true) => BinOp::SDiv,
                    (true, false) => BinOp::UDiv,
                    (false, true) => BinOp::SRem,
                    (false, false) => BinOp::URem,
                }
            }
            _ => return Err(self.internal(at, "unexpected arithmetic operator")),
        };
        if signed {
            self.nowrap(irop, t, &a, &b, at)?;
        }
        Ok(RVal {
            e: fold::bin(irop, a, b),
            ty,
        })
    }

    fn shift(&mut self, left: bool, l: RVal, r: RVal, at: usize) -> R<RVal> {
        let l = self.promote_rv(l, at)?;
        let r = self.promote_rv(r, at)?;
        let (tl, tr) = (self.irty(&l.ty, at)?, self.irty(&r.ty, at)?);
        let w = tl.bits() as u64;
        // A negative amount is a huge unsigned one: one unsigned test covers both cases.
        self.check(
            fold::bin(BinOp::Ult, r.e.clone(), Expr::konst(tr, w)),
            UbKind::ShiftOutOfRange,
            at,
        )?;
        let amount = fold::resize(r.e, tr, tl, false);
        // A signed `<<` that overflows is undefined (C11 6.5.7p4); only `no-overflow` checks
        // it: as unreach-call, qicc computes it as the machines do (the bits shifted).
        if left && l.ty.is_signed_int() && self.opts.overflow {
            self.nowrap(BinOp::Shl, tl, &l.e, &amount, at)?;
        }
        let op = if left {
            BinOp::Shl
        } else if l.ty.is_signed_int() {
            BinOp::AShr
        } else {
            BinOp::LShr
        };
        Ok(RVal {
            e: fold::bin(op, l.e, amount),
            ty: l.ty,
        })
    }

    fn compare(&mut self, op: BinaryOperator, l: RVal, r: RVal, at: usize) -> R<RVal> {
        use BinaryOperator as B;
        let both_pointers = (l.ty.is_pointer() && r.ty.is_pointer()).then(|| l.ty.clone());
        let (a, b, signed) = match (&l.ty, &r.ty) {
            (CType::Int(lk), CType::Int(rk)) => {
                let k = self.types.usual_arith(*lk, *rk);
                let ty = CType::Int(k);
                let a = self.convert(l, &ty, at)?;
                let b = self.convert(r, &ty, at)?;
                (a, b, k.is_signed())
            }
            (CType::Pointer(_), CType::Pointer(_)) => (l.e, r.e, false),
            (CType::Pointer(_), CType::Int(_)) => {
                let pt = l.ty.clone();
                let b = self.convert(r, &pt, at)?;
                (l.e, b, false)
            }
            (CType::Int(_), CType::Pointer(_)) => {
                let pt = r.ty.clone();
                let a = self.convert(l, &pt, at)?;
                (a, r.e, false)
            }
            _ => {
                return Err(self.type_err(
                    at,
                    format!(
                        "invalid operands to comparison ('{}' and '{}')",
                        self.types.show(&l.ty),
                        self.types.show(&r.ty)
                    ),
                ))
            }
        };
        let (lt, le) = if signed {
            (BinOp::Slt, BinOp::Sle)
        } else {
            (BinOp::Ult, BinOp::Ule)
        };
        if let Some(pt) = both_pointers {
            let irop = match op {
                B::Equals => BinOp::Eq,
                B::NotEquals => BinOp::Ne,
                _ => lt,
            };
            self.check_pointer_pair(irop, &a, &b, &pt, at)?;
        }
        let c = match op {
            B::Equals => fold::bin(BinOp::Eq, a, b),
            B::NotEquals => fold::bin(BinOp::Ne, a, b),
            B::Less => fold::bin(lt, a, b),
            B::Greater => fold::bin(lt, b, a),
            B::LessOrEqual => fold::bin(le, a, b),
            _ => fold::bin(le, b, a),
        };
        Ok(RVal {
            e: fold::from_bool(c, Ty::I32),
            ty: CType::INT,
        })
    }

    fn assign(
        &mut self,
        lhs: &'a Node<Expression>,
        rhs: &'a Node<Expression>,
        at: usize,
    ) -> R<Val> {
        let lv = self.lvalue(lhs)?;
        let lv = self.stab_lval_before(lv, rhs, at)?;
        match &lv.ty {
            CType::Array(..) => Err(self.type_err(at, "array type is not assignable")),
            CType::Record(_) => {
                let r = self.rvalue(rhs)?;
                if !self.types.same_type(&r.ty, &lv.ty) {
                    return Err(self.type_err(
                        at,
                        format!(
                            "assigning '{}' to '{}'",
                            self.types.show(&r.ty),
                            self.types.show(&lv.ty)
                        ),
                    ));
                }
                let size = self.size_of(&lv.ty, at)?;
                let Place::Mem(dst) = lv.place.clone() else {
                    return Err(self.internal(at, "struct held in a variable"));
                };
                self.copy_bytes(dst, r.e, size, at)?;
                Ok(Val::L(lv))
            }
            _ => {
                let r = self.rvalue(rhs)?;
                let v = self.convert(r, &lv.ty, at)?;
                self.write(&lv, v, at)?;
                Ok(Val::R(self.read(&lv, at)?))
            }
        }
    }

    fn conditional(&mut self, c: &'a Node<ConditionalExpression>) -> R<Val> {
        let at = c.span.start;
        let (ce, te, ee) = (
            &c.node.condition,
            &c.node.then_expression,
            &c.node.else_expression,
        );
        if is_elvis(te) {
            return self.elvis(ce, ee, at);
        }
        let tt = decay(self.expr_type(te)?);
        let et = decay(self.expr_type(ee)?);
        let ty = self.cond_type(&tt, &et, at)?;
        if ty.is_scalar()
            && is_simple(te)
            && is_simple(ee)
            && ((!self.may_read_memory(te) && !self.may_read_memory(ee)) || !self.in_function())
        {
            let cv = self.rvalue(ce)?;
            let cb = self.truth(cv, ce.span.start)?;
            self.eval_guards.push(cb.clone());
            let a = self.rvalue(te);
            self.eval_guards.pop();
            let a = self.convert(a?, &ty, at)?;
            self.eval_guards.push(fold::not(cb.clone()));
            let b = self.rvalue(ee);
            self.eval_guards.pop();
            let b = self.convert(b?, &ty, at)?;
            return Ok(Val::R(RVal {
                e: fold::ite(cb, a, b),
                ty,
            }));
        }
        let span = self.span(at);
        let tmp_ty = match &ty {
            CType::Void => None,
            CType::Record(_) => Some(self.ptr_ty()),
            t => Some(self.irty(t, at)?),
        };
        let fs = self.fs(at)?;
        fs.b.span = span;
        let tmp = tmp_ty.map(|t| fs.b.new_tmp(t));
        let (t, f, join) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
        self.cond(ce, t, f)?;
        for (branch, loc) in [(te, t), (ee, f)] {
            self.fs(at)?.b.set_cur(loc);
            let v = self.rvalue(branch)?;
            if let Some(tmp) = tmp {
                let e = self.convert(v, &ty, branch.span.start)?;
                self.emit(Op::Assign(VarRef::Local(tmp), e), branch.span.start)?;
            }
            self.fs(at)?.b.goto(join);
        }
        self.fs(at)?.b.set_cur(join);
        Ok(Val::R(match tmp {
            Some(tmp) => RVal {
                e: Expr::local(tmp),
                ty,
            },
            None => RVal::void(),
        }))
    }

    /// `va_arg(ap, T)`: the `T` at `ap` in the block of variable arguments (see
    /// `Ctx::variadic_block`), and `ap` moved past it (to the next multiple of 8).
    fn va_arg(&mut self, v: &'a Node<VaArgExpression>, at: usize) -> R<Val> {
        let ty = self.type_name(&v.node.type_name)?;
        if !ty.is_scalar() && !ty.is_record() {
            return Err(self.unsupported(at, format!("va_arg of type '{}'", self.types.show(&ty))));
        }
        let n = self.size_of(&ty, at)?;
        let lv = self.lvalue(&v.node.va_list)?;
        let p = self.read(&lv, at)?;
        let p = self.stab(p, at)?;
        let ptr = self.ptr_ty();
        let next = fold::bin(
            BinOp::Add,
            p.e.clone(),
            Expr::konst(ptr, crate::types::round_up(n, 8)),
        );
        let arg = LVal {
            place: Place::Mem(p.e),
            ty,
        };
        let value = if arg.ty.is_record() {
            // A copy: `ap` moves on, the value stays.
            let copy = self.copy_slot(n, at)?;
            let src = match &arg.place {
                Place::Mem(a) => a.clone(),
                _ => return Err(self.internal(at, "va_arg block not in memory")),
            };
            self.copy_bytes(copy.clone(), src, n, at)?;
            Val::L(LVal {
                place: Place::Mem(copy),
                ty: arg.ty.clone(),
            })
        } else {
            let r = self.read(&arg, at)?;
            Val::R(self.stab(r, at)?)
        };
        self.write(&lv, next, at)?;
        Ok(value)
    }

    /// GNU's `x ?: y`: `x` evaluated once; its value (converted) when nonzero, else `y`.
    fn elvis(&mut self, ce: &'a Node<Expression>, ee: &'a Node<Expression>, at: usize) -> R<Val> {
        let tt = decay(self.expr_type(ce)?);
        let et = decay(self.expr_type(ee)?);
        let ty = self.cond_type(&tt, &et, at)?;
        if !ty.is_scalar() {
            return Err(
                self.unsupported(at, "`?:` without a middle operand on non-scalar operands")
            );
        }
        let cv = self.rvalue(ce)?;
        let cv = self.stab(cv, ce.span.start)?;
        let cb = self.truth(cv.clone(), ce.span.start)?;
        let irty = self.irty(&ty, at)?;
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let tmp = fs.b.new_tmp(irty);
        let (t, f, join) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
        fs.b.branch(cb, t, f);
        fs.b.set_cur(t);
        let a = self.convert(cv, &ty, at)?;
        self.emit(Op::Assign(VarRef::Local(tmp), a), at)?;
        self.fs(at)?.b.goto(join);
        self.fs(at)?.b.set_cur(f);
        let b = self.rvalue(ee)?;
        let b = self.convert(b, &ty, ee.span.start)?;
        self.emit(Op::Assign(VarRef::Local(tmp), b), ee.span.start)?;
        self.fs(at)?.b.goto(join);
        self.fs(at)?.b.set_cur(join);
        Ok(Val::R(RVal {
            e: Expr::local(tmp),
            ty,
        }))
    }

    /// Whether evaluating `e` may load from memory (syntactically, with the storage of the
    /// variables it names): such operands of `?:` are evaluated only on their branch.
    fn may_read_memory(&self, e: &Node<Expression>) -> bool {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Sym::Var(VarId::Local(i))) => self
                    .fs
                    .as_ref()
                    .and_then(|f| f.vars.get(*i))
                    .is_some_and(|v| v.ty.is_scalar() && matches!(v.place, LocalPlace::Mem(_))),
                Some(Sym::Var(VarId::Global(i))) => {
                    let g = &self.globals[*i];
                    g.ty.as_ref().is_ok_and(|t| t.is_scalar())
                        && (matches!(g.storage, Some(GStorage::Obj(_)))
                            || self.global_addr_taken.contains(&g.c_name))
                }
                _ => false,
            },
            Expression::Member(_) => true,
            Expression::UnaryOperator(u) => match u.node.operator.node {
                UnaryOperator::Indirection => true,
                // `&x[i]` computes an address without reading.
                UnaryOperator::Address => match &u.node.operand.node {
                    Expression::Member(m) => self.may_read_memory(&m.node.expression),
                    Expression::BinaryOperator(b)
                        if b.node.operator.node == BinaryOperator::Index =>
                    {
                        self.may_read_memory(&b.node.lhs) || self.may_read_memory(&b.node.rhs)
                    }
                    Expression::UnaryOperator(i)
                        if i.node.operator.node == UnaryOperator::Indirection =>
                    {
                        self.may_read_memory(&i.node.operand)
                    }
                    _ => false,
                },
                _ => self.may_read_memory(&u.node.operand),
            },
            Expression::Cast(c) => self.may_read_memory(&c.node.expression),
            Expression::BinaryOperator(b) => {
                b.node.operator.node == BinaryOperator::Index
                    || self.may_read_memory(&b.node.lhs)
                    || self.may_read_memory(&b.node.rhs)
            }
            Expression::Conditional(c) => {
                self.may_read_memory(&c.node.condition)
                    || self.may_read_memory(&c.node.then_expression)
                    || self.may_read_memory(&c.node.else_expression)
            }
            Expression::Comma(es) => es.iter().any(|x| self.may_read_memory(x)),
            Expression::Constant(_)
            | Expression::StringLiteral(_)
            | Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => false,
            _ => true,
        }
    }

    /// The type of `c ? a : b` from the (decayed) types of the branches.
    pub fn cond_type(&self, a: &CType, b: &CType, at: usize) -> R<CType> {
        Ok(match (a, b) {
            (CType::Int(x), CType::Int(y)) => CType::Int(self.types.usual_arith(*x, *y)),
            (CType::Pointer(x), CType::Pointer(y)) => {
                if x.is_void() {
                    a.clone()
                } else if y.is_void() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            // A pointer and an integer (a null pointer constant): the pointer type.
            (CType::Pointer(_), CType::Int(_)) => a.clone(),
            (CType::Int(_), CType::Pointer(_)) => b.clone(),
            (CType::Void, _) | (_, CType::Void) => CType::Void,
            (CType::Record(_), CType::Record(_)) if self.types.same_type(a, b) => a.clone(),
            (CType::Float(_), _) | (_, CType::Float(_)) => self.float_common(a, b, at)?,
            _ => {
                return Err(self.type_err(
                    at,
                    format!(
                        "incompatible operand types ('{}' and '{}')",
                        self.types.show(a),
                        self.types.show(b)
                    ),
                ))
            }
        })
    }

    fn offsetof(&mut self, o: &'a Node<OffsetOfExpression>) -> R<Val> {
        let mut ty = self.type_name(&o.node.type_name)?;
        let mut off = 0u64;
        let step =
            |cx: &mut Ctx<'a>, ty: &mut CType, off: &mut u64, name: &str, at: usize| -> R<()> {
                let CType::Record(r) = ty.clone() else {
                    return Err(cx.type_err(at, "offsetof of a non-struct type"));
                };
                if let Some(p) = cx.layout_problem(ty) {
                    return Err(p);
                }
                let Some((o, t)) = cx.types.find_member(r, name) else {
                    return Err(cx.type_err(at, format!("no member named '{name}'")));
                };
                *off = off.wrapping_add(o);
                *ty = t;
                Ok(())
            };
        let base = &o.node.designator.node.base;
        step(self, &mut ty, &mut off, &base.node.name, base.span.start)?;
        for m in &o.node.designator.node.members {
            match &m.node {
                OffsetMember::Member(id) | OffsetMember::IndirectMember(id) => {
                    step(self, &mut ty, &mut off, &id.node.name, id.span.start)?
                }
                OffsetMember::Index(e) => {
                    let CType::Array(elem, _) = ty.clone() else {
                        return Err(self.type_err(e.span.start, "offsetof index of a non-array"));
                    };
                    let (i, _) = self.const_int(e)?;
                    let s = self.size_of(&elem, e.span.start)?;
                    off = off.wrapping_add(i.wrapping_mul(s));
                    ty = (*elem).clone();
                }
            }
        }
        Ok(Val::R(self.size_const(off)))
    }
}

/// Array-to-pointer and function-to-pointer decay of a type.
pub fn decay(t: CType) -> CType {
    match t {
        CType::Array(e, _) | CType::Vla(e, _) => CType::Pointer(e),
        CType::Func(_) => CType::ptr(t),
        // The value of a bit-field is promoted.
        CType::Bits(b) => CType::Int(b.promoted()),
        t => t,
    }
}

/// `L'x'` → ("L", "x"): the encoding prefix and the text between the quotes.
fn split_prefix(s: &str, quote: char) -> (&str, &str) {
    let q = s.find(quote).unwrap_or(0);
    let prefix = &s[..q];
    let rest = &s[q..];
    let body = rest
        .strip_prefix(quote)
        .and_then(|r| r.strip_suffix(quote))
        .unwrap_or("");
    (prefix, body)
}

/// Decodes C escape sequences. Narrow text yields bytes (non-ASCII characters as UTF-8);
/// wide text yields code points.
pub fn decode_escapes(body: &str, wide: bool) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let mut chars = body.chars().peekable();
    let push_char = |out: &mut Vec<u32>, c: char| {
        if wide {
            out.push(c as u32);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push(b as u32);
            }
        }
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            push_char(&mut out, c);
            continue;
        }
        let Some(e) = chars.next() else {
            return Err("trailing backslash".into());
        };
        let v: u32 = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            'e' | 'E' => 27,
            '\\' => 92,
            '\'' => 39,
            '"' => 34,
            '?' => 63,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                v
            }
            'x' => {
                let mut v: u32 = 0;
                let mut n = 0;
                while let Some(d) = chars.peek().and_then(|d| d.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    chars.next();
                    n += 1;
                }
                if n == 0 {
                    return Err("\\x without digits".into());
                }
                v
            }
            'u' | 'U' => {
                let n = if e == 'u' { 4 } else { 8 };
                let mut v: u32 = 0;
                for _ in 0..n {
                    let d = chars
                        .next()
                        .and_then(|d| d.to_digit(16))
                        .ok_or("bad universal character name")?;
                    v = v * 16 + d;
                }
                match char::from_u32(v) {
                    Some(ch) => {
                        push_char(&mut out, ch);
                        continue;
                    }
                    None => return Err("bad universal character name".into()),
                }
            }
            other => other as u32,
        };
        out.push(if wide { v } else { v & 0xff });
    }
    Ok(out)
}
