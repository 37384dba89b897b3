//! Which scalar variables must live in memory: those whose address is taken (`&x`).
//!
//! A syntactic pre-pass by name, before any lowering: per function definition, the names that
//! appear as the operand of `&`; and over the whole unit (function bodies and file-scope
//! initialisers), the union. Matching by name ignores scopes, so it may put a few more
//! variables in memory than needed (never fewer): that costs precision of nothing, only
//! speed.

use super::Ctx;
use lang_c::ast::*;
use lang_c::span::Span;
use lang_c::visit::{self, Visit};
use std::collections::HashSet;

struct AddrOf<'s> {
    names: &'s mut HashSet<String>,
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
}

pub fn collect(cx: &mut Ctx, unit: &TranslationUnit) {
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::FunctionDefinition(fd) => {
                let mut names = HashSet::new();
                AddrOf { names: &mut names }.visit_function_definition(&fd.node, &fd.span);
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
                AddrOf { names: &mut names }.visit_declaration(&d.node, &d.span);
                cx.global_addr_taken.extend(names);
            }
            ExternalDeclaration::StaticAssert(_) => {}
        }
    }
}
