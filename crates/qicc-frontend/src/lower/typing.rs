//! The C type of an expression without evaluating it (for `sizeof expr`, `typeof`, the type
//! of `?:` and of initialisers).
//!
//! Invariant: agrees with the type [`super::expr`] gives the same expression when it lowers
//! it (before array decay: `sizeof a` of an array is the array's size).

use super::expr::decay;
use super::scope::{Sym, VarId};
use super::{Ctx, R};
use crate::types::{CType, IntKind};
use lang_c::ast::*;
use lang_c::span::Node;
use std::rc::Rc;

impl<'a> Ctx<'a> {
    pub fn expr_type(&mut self, e: &'a Node<Expression>) -> R<CType> {
        let at = e.span.start;
        match &e.node {
            Expression::Identifier(id) => {
                let name = &id.node.name;
                match self.lookup(name).cloned() {
                    Some(Sym::Var(VarId::Local(i))) => self
                        .fs
                        .as_ref()
                        .and_then(|f| f.vars.get(i))
                        .map(|v| v.ty.clone())
                        .ok_or_else(|| self.internal(at, "unknown local variable")),
                    Some(Sym::Var(VarId::Global(i))) => self.global_type(i),
                    Some(Sym::Func(i)) => Ok(CType::Func(self.funcs[i].ty.clone()?)),
                    Some(Sym::EnumConst(_, t)) => Ok(t),
                    Some(Sym::Typedef(..)) => {
                        Err(self.type_err(at, format!("unexpected type name '{name}'")))
                    }
                    None => match name.as_str() {
                        "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__" => {
                            let n = self.fs.as_ref().map(|f| f.c_name.len()).unwrap_or(0);
                            Ok(CType::Array(Rc::new(CType::CHAR), Some(n as u64 + 1)))
                        }
                        _ => {
                            Err(self.type_err(at, format!("use of undeclared identifier '{name}'")))
                        }
                    },
                }
            }
            Expression::Constant(c) => match &c.node {
                Constant::Float(f) => Ok(CType::Float(match f.suffix.format {
                    FloatFormat::Float => crate::types::FloatKind::Float,
                    FloatFormat::LongDouble => crate::types::FloatKind::LongDouble,
                    _ => crate::types::FloatKind::Double,
                })),
                c => self.constant_value(c, at).map(|(_, t)| t),
            },
            Expression::StringLiteral(s) => {
                let (_, elem, len) = self.string_literal(&s.node, at)?;
                Ok(CType::Array(Rc::new(elem), Some(len)))
            }
            Expression::GenericSelection(g) => {
                let t = decay(self.expr_type(&g.node.expression)?);
                let mut default = None;
                for a in &g.node.associations {
                    match &a.node {
                        GenericAssociation::Type(ta) => {
                            if self.type_name(&ta.node.type_name)? == t {
                                return self.expr_type(&ta.node.expression);
                            }
                        }
                        GenericAssociation::Default(d) => default = Some(&**d),
                    }
                }
                match default {
                    Some(d) => self.expr_type(d),
                    None => Err(self.type_err(at, "no _Generic association matches")),
                }
            }
            Expression::Member(m) => {
                let bt = self.expr_type(&m.node.expression)?;
                let rec = match (&m.node.operator.node, decay(bt)) {
                    (MemberOperator::Direct, CType::Record(r)) => r,
                    (MemberOperator::Indirect, CType::Pointer(p)) => match &*p {
                        CType::Record(r) => *r,
                        _ => return Err(self.type_err(at, "member reference of a non-struct")),
                    },
                    _ => return Err(self.type_err(at, "member reference of a non-struct")),
                };
                let name = &m.node.identifier.node.name;
                self.types
                    .find_member(rec, name)
                    .map(|(_, t)| t)
                    .ok_or_else(|| self.type_err(at, format!("no member named '{name}'")))
            }
            Expression::Call(c) => self.call_type(c),
            Expression::CompoundLiteral(cl) => {
                let t = self.type_name(&cl.node.type_name)?;
                if let CType::Array(_, None) = t {
                    let mut leaves = Vec::new();
                    return self.braced(&t, 0, &cl.node.initializer_list, &mut leaves);
                }
                Ok(t)
            }
            Expression::SizeOfTy(_)
            | Expression::SizeOfVal(_)
            | Expression::AlignOf(_)
            | Expression::OffsetOf(_) => Ok(self.types.size_t()),
            Expression::UnaryOperator(u) => {
                let t = self.expr_type(&u.node.operand)?;
                match u.node.operator.node {
                    UnaryOperator::Address => Ok(CType::ptr(t)),
                    UnaryOperator::Indirection => match decay(t) {
                        CType::Pointer(p) => Ok((*p).clone()),
                        _ => Err(self.type_err(at, "indirection requires a pointer operand")),
                    },
                    UnaryOperator::Plus | UnaryOperator::Minus | UnaryOperator::Complement => {
                        Ok(self.types.promote(&t))
                    }
                    UnaryOperator::Negate => Ok(CType::INT),
                    _ => Ok(t),
                }
            }
            Expression::Cast(c) => self.type_name(&c.node.type_name),
            Expression::BinaryOperator(b) => {
                use BinaryOperator as B;
                let lt = decay(self.expr_type(&b.node.lhs)?);
                match b.node.operator.node.clone() {
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
                    | B::AssignBitwiseOr => Ok(lt),
                    B::Less
                    | B::Greater
                    | B::LessOrEqual
                    | B::GreaterOrEqual
                    | B::Equals
                    | B::NotEquals
                    | B::LogicalAnd
                    | B::LogicalOr => Ok(CType::INT),
                    B::ShiftLeft | B::ShiftRight => Ok(self.types.promote(&lt)),
                    op => {
                        let rt = decay(self.expr_type(&b.node.rhs)?);
                        match (op, &lt, &rt) {
                            (B::Index, CType::Pointer(p), _) | (B::Index, _, CType::Pointer(p)) => {
                                Ok((**p).clone())
                            }
                            (B::Minus, CType::Pointer(_), CType::Pointer(_)) => {
                                Ok(self.types.ptrdiff_t())
                            }
                            (B::Plus | B::Minus, CType::Pointer(_), _) => Ok(lt.clone()),
                            (B::Plus, _, CType::Pointer(_)) => Ok(rt.clone()),
                            (_, CType::Int(a), CType::Int(b2)) => {
                                Ok(CType::Int(self.types.usual_arith(*a, *b2)))
                            }
                            (_, CType::Float(_), _) | (_, _, CType::Float(_)) => {
                                Ok(CType::Float(crate::types::FloatKind::Double))
                            }
                            _ => Err(self.type_err(at, "invalid operands to binary operator")),
                        }
                    }
                }
            }
            Expression::Conditional(c) => {
                // `x ?: y` has `x`'s value in the middle.
                let middle = if super::expr::is_elvis(&c.node.then_expression) {
                    &c.node.condition
                } else {
                    &c.node.then_expression
                };
                let a = decay(self.expr_type(middle)?);
                let b = decay(self.expr_type(&c.node.else_expression)?);
                self.cond_type(&a, &b, at)
            }
            Expression::Comma(es) => match es.last() {
                Some(l) => Ok(decay(self.expr_type(l)?)),
                None => Ok(CType::Void),
            },
            Expression::VaArg(v) => self.type_name(&v.node.type_name),
            Expression::Statement(_) => Err(self.unsupported(
                at,
                "the type of a statement expression outside its evaluation (sizeof/typeof)",
            )),
        }
    }

    /// The result type of a call.
    fn call_type(&mut self, c: &'a Node<CallExpression>) -> R<CType> {
        let at = c.span.start;
        let Expression::Identifier(id) = &c.node.callee.node else {
            return match decay(self.expr_type(&c.node.callee)?) {
                CType::Pointer(p) => match &*p {
                    CType::Func(f) => Ok(f.ret.clone()),
                    _ => Err(self.type_err(at, "called object is not a function")),
                },
                _ => Err(self.type_err(at, "called object is not a function")),
            };
        };
        let name = id.node.name.as_str();
        match self.lookup(name).cloned() {
            Some(Sym::Func(i)) => Ok(self.funcs[i].ty.clone()?.ret.clone()),
            Some(Sym::Var(_)) => match decay(self.expr_type(&c.node.callee)?) {
                CType::Pointer(p) => match &*p {
                    CType::Func(f) => Ok(f.ret.clone()),
                    _ => Err(self.type_err(at, "called object is not a function")),
                },
                _ => Err(self.type_err(at, "called object is not a function")),
            },
            // Clang's: a load of `*p` (its type) and a store.
            _ if name == "__builtin_nontemporal_load" => match c.node.arguments.first() {
                Some(p) => match decay(self.expr_type(p)?) {
                    CType::Pointer(t) => Ok((*t).clone()),
                    _ => Err(self.type_err(at, format!("{name} needs a pointer"))),
                },
                None => Err(self.type_err(at, format!("{name} takes one argument"))),
            },
            _ if name == "__builtin_nontemporal_store" => Ok(CType::Void),
            _ if name.starts_with("__VERIFIER_nondet_") || super::call::is_tool_nondet(name) => {
                self.nondet_type(name, at)
            }
            _ => match super::builtin::result_type(name, self.types.size_t()) {
                Some(super::builtin::ResultType::Fixed(t)) => Ok(t),
                Some(super::builtin::ResultType::OfModel(model)) => {
                    match self.func_by_name.get(&model) {
                        Some(&i) => Ok(self.funcs[i].ty.clone()?.ret.clone()),
                        None => Err(self.internal(at, format!("the model of {name} is missing"))),
                    }
                }
                None => self.plain_call_type(name),
            },
        }
    }

    /// The result type of a call of an undeclared function `name` that is no builtin.
    fn plain_call_type(&self, name: &str) -> R<CType> {
        Ok(match name {
            "malloc" | "calloc" | "alloca" | "__builtin_alloca" | "memset" | "memcpy"
            | "memmove" | "__builtin_memset" | "__builtin_memcpy" | "__builtin_memmove" => {
                CType::ptr(CType::Void)
            }
            "__builtin_expect" => CType::Int(IntKind::Long),
            "abort" | "exit" | "_exit" | "_Exit" | "free" | "reach_error" | "__VERIFIER_error"
            | "__VERIFIER_assume" | "__VERIFIER_assert" | "__assert_fail" | "__builtin_abort"
            | "__CPROVER_assume" | "__CPROVER_assert" | "__ESBMC_assume" | "__ESBMC_assert" => {
                CType::Void
            }
            _ => CType::INT,
        })
    }
}
