//! Which scalar variables must live in memory: those whose address is taken (`&x`).
//!
//! A syntactic pre-pass by name, before any lowering: per function definition, the names that
//! appear as the operand of `&`; and over the whole unit (function bodies and file-scope
//! initialisers), the union. Matching by name ignores scopes, so it may put a few more
//! variables in memory than needed (never fewer): that costs precision of nothing, only
//! speed.
//!
//! The same pass collects every name used as a value (an identifier in an expression other
//! than the callee of a direct call `f(...)`): the functions among them are the ones whose
//! address may be taken, the candidates of a call through a function pointer. Over the whole
//! unit, reachable or not, and by name, so the set only ever has more candidates than the
//! program can produce (sound for the dispatch, which treats every other value as UB).

use super::Ctx;
use lang_c::ast::*;
use lang_c::span::Span;
use lang_c::visit::{self, Visit};
use std::collections::HashSet;

struct AddrOf<'s> {
    names: &'s mut HashSet<String>,
    values: &'s mut HashSet<String>,
}

impl<'ast> Visit<'ast> for AddrOf<'_> {
    fn visit_unary_operator_expression(
        &mut self,
        n: &'ast UnaryOperatorExpression,
        span: &'ast Span,
    ) {
        if n.operator.node == UnaryOperator::Address {
            if let Expression::Identifier(id) = &n.operand.node {
                self.names.insert(id.node.name.clone());
            }
        }
        visit::visit_unary_operator_expression(self, n, span);
    }

    fn visit_expression(&mut self, e: &'ast Expression, span: &'ast Span) {
        if let Expression::Identifier(id) = e {
            self.values.insert(id.node.name.clone());
        }
        visit::visit_expression(self, e, span);
    }

    fn visit_call_expression(&mut self, n: &'ast CallExpression, span: &'ast Span) {
        // A direct call's callee names the function without making a pointer to it.
        if let Expression::Identifier(_) = &n.callee.node {
            for a in &n.arguments {
                self.visit_expression(&a.node, &a.span);
            }
            return;
        }
        visit::visit_call_expression(self, n, span);
    }
}

pub fn collect(cx: &mut Ctx, unit: &TranslationUnit) {
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                let mut names = HashSet::new();
                AddrOf {
                    names: &mut names,
                    values: &mut cx.used_as_value,
                }
                .visit_function_definition(&fd.node, &fd.span);
                if let Some(name) = super::decl::declarator_name(&fd.node.declarator.node) {
                    cx.global_addr_taken.extend(names.iter().cloned());
                    cx.fn_addr_taken
                        .entry(name.to_string())
                        .or_default()
                        .extend(names);
                }
            }
            ExternalDeclaration::Declaration(d) => {
                let mut names = HashSet::new();
                AddrOf {
                    names: &mut names,
                    values: &mut cx.used_as_value,
                }
                .visit_declaration(&d.node, &d.span);
                cx.global_addr_taken.extend(names);
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
}
