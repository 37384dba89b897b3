//! Function calls: calls of defined functions (arguments converted to the parameter types,
//! structs passed and returned through memory), calls of functions without a body (an
//! arbitrary return value, with a warning), and the SV-COMP and C library intrinsics:
//! `__VERIFIER_nondet_*`, `__VERIFIER_assume`, `__VERIFIER_assert`, `reach_error`,
//! `__VERIFIER_error`, `__assert_fail`, `abort`/`exit`, `malloc`/`calloc`/`alloca`/`free`,
//! `memset`/`memcpy`/`memmove`, `__builtin_expect`.
//!
//! Calls through function pointers: a callee expression that is a known function
//! (`(*f)(x)`) is a call by name; any other is a dispatch on the pointer's value (its
//! candidates: the functions of the unit used as a value, with a compatible type), one call
//! edge per candidate, after an `invalid-call` UB check that the value is one of them. Every
//! call of a defined function, direct or dispatched, goes through `emit_call`.
//!
//! Invariants: arguments are evaluated left to right (earlier ones are stabilized when a later
//! one has side effects), the callee of a call through a pointer before them; a property
//! assertion's span is the call's; the definitions of `reach_error`, `__VERIFIER_error` and a
//! standard `__VERIFIER_assert` are never lowered (nor called through a pointer).

use super::expr::{LVal, Place, RVal, Val};
use super::scope::Sym;
use super::{clib, fold, AssertMode, Ctx, R};
use crate::types::{CType, FuncType, IntKind};
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{AllocKind, AssertKind, BinOp, Expr, HavocKind, Op, Ty, UbKind, VarRef};
use std::rc::Rc;

/// Where a call's result goes: nowhere (`void`), an IR temporary (scalars), or a stack
/// object of the caller passed as the hidden first argument (structs).
#[derive(Clone, Debug)]
enum RetSlot {
    Void,
    Var(qicc_ir::LocalId),
    Mem(Expr),
}

/// Functions whose calls are property violations.
fn is_error_fn(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error")
}

/// Assumptions: SV-COMP's, CBMC's and ESBMC's spelling (whatever the program defines).
fn is_assume_fn(name: &str) -> bool {
    matches!(
        name,
        "__VERIFIER_assume" | "__CPROVER_assume" | "__ESBMC_assume"
    )
}

/// CBMC's and ESBMC's inputs: any function named `nondet_…` (when it has no body), as both
/// tools define them.
pub(super) fn is_tool_nondet(name: &str) -> bool {
    name.starts_with("nondet_") && qicc_ir::input_function_type(name).is_some()
}

/// A CBMC or ESBMC intrinsic: modelled ones are handled by name, every other one is rejected
/// as unsupported at its use (never an unknown function with arbitrary effects).
fn is_tool_intrinsic(name: &str) -> bool {
    name.starts_with("__CPROVER_") || name.starts_with("__ESBMC_")
}

/// How calls of `__VERIFIER_assert` are lowered: inline when it has no body or the standard
/// one (`if (!(cond)) { [ERROR:] reach_error(); [abort();] } [return;]`).
pub fn verifier_assert_mode(cx: &Ctx) -> AssertMode {
    let Some(&i) = cx.func_by_name.get("__VERIFIER_assert") else {
        return AssertMode::Inline;
    };
    let Some(def) = cx.funcs[i].def else {
        return AssertMode::Inline;
    };
    let params: Vec<&str> = def
        .node
        .declarator
        .node
        .derived
        .iter()
        .find_map(|d| match &d.node {
            DerivedDeclarator::Function(f) => Some(
                f.node
                    .parameters
                    .iter()
                    .filter_map(|p| p.node.declarator.as_ref())
                    .filter_map(|d| super::decl::declarator_name(&d.node))
                    .collect(),
            ),
            DerivedDeclarator::KRFunction(ids) => {
                Some(ids.iter().map(|i| i.node.name.as_str()).collect())
            }
            _ => None,
        })
        .unwrap_or_default();
    let [param] = params.as_slice() else {
        return AssertMode::Ordinary;
    };
    let mut stmts = Vec::new();
    flatten(&def.node.statement, &mut stmts);
    if matches!(stmts.last().map(|s| &s.node), Some(Statement::Return(None))) {
        stmts.pop();
    }
    let [stmt] = stmts.as_slice() else {
        return AssertMode::Ordinary;
    };
    let Statement::If(ifs) = &stmt.node else {
        return AssertMode::Ordinary;
    };
    if ifs.node.else_statement.is_some() || !is_negation_of(&ifs.node.condition, param) {
        return AssertMode::Ordinary;
    }
    let mut then = Vec::new();
    flatten(&ifs.node.then_statement, &mut then);
    let mut calls = Vec::new();
    for s in &then {
        match &s.node {
            Statement::Expression(Some(e)) => match call_name(e) {
                Some(n) => calls.push(n),
                None => return AssertMode::Ordinary,
            },
            Statement::Return(None) => {}
            _ => return AssertMode::Ordinary,
        }
    }
    let ok_first = calls
        .first()
        .is_some_and(|n| is_error_fn(n) || *n == "__assert_fail");
    let ok_rest = calls.iter().all(|n| {
        is_error_fn(n) || matches!(*n, "__assert_fail" | "abort" | "exit" | "__builtin_abort")
    });
    if ok_first && ok_rest {
        AssertMode::Inline
    } else {
        AssertMode::Ordinary
    }
}

/// Statements of a body without braces, labels and empty statements.
fn flatten<'s>(s: &'s Node<Statement>, out: &mut Vec<&'s Node<Statement>>) {
    match &s.node {
        Statement::Compound(items) => {
            for it in items {
                match &it.node {
                    BlockItem::Statement(st) => flatten(st, out),
                    // A declaration makes the body non-standard.
                    _ => out.push(s),
                }
            }
        }
        Statement::Labeled(l) if matches!(l.node.label.node, Label::Identifier(_)) => {
            flatten(&l.node.statement, out)
        }
        Statement::Expression(None) => {}
        _ => out.push(s),
    }
}

/// `!p`, `!(p)`, `p == 0`, `0 == p`.
fn is_negation_of(e: &Node<Expression>, p: &str) -> bool {
    let is_p =
        |e: &Node<Expression>| matches!(&e.node, Expression::Identifier(i) if i.node.name == p);
    let is_zero = |e: &Node<Expression>| matches!(&e.node, Expression::Constant(c) if matches!(&c.node, Constant::Integer(i) if i.number.trim_start_matches('0').is_empty()));
    match &e.node {
        Expression::UnaryOperator(u) => {
            u.node.operator.node == UnaryOperator::Negate && is_p(&u.node.operand)
        }
        Expression::BinaryOperator(b) if b.node.operator.node == BinaryOperator::Equals => {
            (is_p(&b.node.lhs) && is_zero(&b.node.rhs))
                || (is_zero(&b.node.lhs) && is_p(&b.node.rhs))
        }
        _ => false,
    }
}

fn call_name(e: &Node<Expression>) -> Option<&str> {
    match &e.node {
        Expression::Call(c) => match &c.node.callee.node {
            Expression::Identifier(i) => Some(&i.node.name),
            _ => None,
        },
        _ => None,
    }
}

impl<'a> Ctx<'a> {
    /// Evaluates arguments left to right; an argument is stabilized when a later one may
    /// change what it reads.
    fn eval_args(&mut self, args: &'a [Node<Expression>]) -> R<Vec<RVal>> {
        let mut out = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let mut v = self.rvalue(a)?;
            for later in &args[i + 1..] {
                v = self.stab_before(v, later, a.span.start)?;
            }
            out.push(v);
        }
        Ok(out)
    }

    pub fn call(&mut self, c: &'a Node<CallExpression>, start: usize) -> R<Val> {
        let at = start;
        let args = &c.node.arguments;
        let Expression::Identifier(id) = &c.node.callee.node else {
            return self.indirect_call(&c.node.callee, args, at);
        };
        let name = id.node.name.as_str();
        match self.lookup(name).cloned() {
            Some(Sym::Var(_)) => self.indirect_call(&c.node.callee, args, at),
            Some(Sym::Func(i)) => self.call_named(name, Some(i), args, at),
            _ => self.call_named(name, None, args, at),
        }
    }

    /// A call of the function `name` (`func`: the program's declaration of it, if any): an
    /// intrinsic, a library function, a defined function or one without a body.
    // `args` is the call's own vector: its body matches arguments with `as_slice()`.
    #[allow(clippy::ptr_arg)]
    fn call_named(
        &mut self,
        name: &str,
        func: Option<usize>,
        args: &'a Vec<Node<Expression>>,
        at: usize,
    ) -> R<Val> {
        let has_body = func.is_some_and(|i| self.funcs[i].def.is_some());
        if let Some(v) = self.va_builtin(name, args, at) {
            return v;
        }
        // SV-COMP intrinsics: whatever the program defines (checking another property than
        // unreach-call, `reach_error()` is the program's own function).
        if is_error_fn(name) && !self.opts.unreach_call && !has_body {
            return Err(self.unsupported(
                at,
                format!(
                    "a call of {name} without a body when checking a property other than \
                     unreach-call (what it does is unknown)"
                ),
            ));
        }
        if is_error_fn(name) && self.opts.unreach_call {
            for a in args {
                self.void_expr(a)?;
            }
            self.assert_fail_here(AssertKind::ReachError, None, at)?;
            return Ok(Val::R(RVal::void()));
        }
        if name == "__assert_fail" && !self.opts.unreach_call {
            // glibc's failing `assert`: it prints and aborts.
            for a in args {
                self.void_expr(a)?;
            }
            return self.halt(None, at);
        }
        if name == "__assert_fail" {
            let text = args.first().and_then(|a| self.literal_text(a));
            self.assert_fail_here(AssertKind::AssertFail, text, at)?;
            return Ok(Val::R(RVal::void()));
        }
        // CBMC's and ESBMC's `nondet_T()`: an input, when the program gives no body.
        if name.starts_with("__VERIFIER_nondet_") || (is_tool_nondet(name) && !has_body) {
            return self.nondet(name, func, args, at);
        }
        if is_assume_fn(name) {
            let [arg] = args.as_slice() else {
                return Err(self.type_err(at, format!("{name} takes one argument")));
            };
            let v = self.rvalue(arg)?;
            let v = self.param_conv(func, 0, v, arg.span.start)?;
            let c = self.truth(v, arg.span.start)?;
            self.emit(Op::Assume(c), at)?;
            return Ok(Val::R(RVal::void()));
        }
        // `__CPROVER_assert(cond, "message")` and `__ESBMC_assert`: the message names the
        // assertion in reports (the condition's text when it is no string literal).
        if matches!(name, "__CPROVER_assert" | "__ESBMC_assert") {
            let [arg, msg] = args.as_slice() else {
                return Err(self.type_err(at, format!("{name} takes two arguments")));
            };
            let text = match self.literal_text(msg) {
                Some(t) => Some(t).filter(|t| !t.is_empty()),
                None => {
                    self.void_expr(msg)?;
                    None
                }
            };
            let text = text.unwrap_or_else(|| self.source_text(arg.span.start, arg.span.end));
            let v = self.rvalue(arg)?;
            let c = self.truth(v, arg.span.start)?;
            // Checking another property, a failing tool assertion is no violation, and CBMC
            // and ESBMC go on after it.
            if !self.opts.unreach_call {
                return Ok(Val::R(RVal::void()));
            }
            self.assert_here(c, AssertKind::VerifierAssert, Some(text), at)?;
            return Ok(Val::R(RVal::void()));
        }
        // Checking another property, a `__VERIFIER_assert` the program defines is its own
        // function; one it does not define aborts when the condition is false.
        if name == "__VERIFIER_assert"
            && self.assert_mode == AssertMode::Inline
            && (self.opts.unreach_call || !has_body)
        {
            let [arg] = args.as_slice() else {
                return Err(self.type_err(at, "__VERIFIER_assert takes one argument"));
            };
            let text = self.source_text(arg.span.start, arg.span.end);
            let v = self.rvalue(arg)?;
            let v = self.param_conv(func, 0, v, arg.span.start)?;
            let c = self.truth(v, arg.span.start)?;
            if !self.opts.unreach_call {
                return self.halt_unless(c, at);
            }
            self.assert_here(c, AssertKind::VerifierAssert, Some(text), at)?;
            return Ok(Val::R(RVal::void()));
        }
        if has_body {
            let idx = func.expect("has_body implies a function");
            if name == "main" {
                return Err(self.unsupported(at, "calls of main"));
            }
            return self.direct_call(idx, args, at);
        }
        // `<math.h>`'s exactly defined functions and the builtins behind its macros.
        if let Some(v) = self.math_call(name, args, at) {
            return v;
        }
        // Compiler builtins (`builtin`: modelled here or in C, else rejected below).
        if let Some(v) = self.builtin_call(name, args, at) {
            return v;
        }
        // Library functions the program does not define: those modelled in C first.
        if let Some(model) = clib::model_name(name) {
            if let Some(&idx) = self.func_by_name.get(&model) {
                return self.direct_call(idx, args, at);
            }
        }
        if is_tool_intrinsic(name) {
            return Err(self.unsupported(
                at,
                format!("the verifier intrinsic '{name}' (modelled: __CPROVER_assume, __CPROVER_assert, __ESBMC_assume, __ESBMC_assert)"),
            ));
        }
        match name {
            "abort" | "__builtin_abort" => {
                for a in args {
                    self.void_expr(a)?;
                }
                return self.halt(None, at);
            }
            "exit" | "_exit" | "_Exit" => {
                let code = match args.first() {
                    Some(a) => {
                        let v = self.rvalue(a)?;
                        Some(self.convert(v, &CType::INT, a.span.start)?)
                    }
                    None => None,
                };
                return self.halt(code, at);
            }
            "malloc" | "__builtin_malloc" | "alloca" | "__builtin_alloca" => {
                let [n] = args.as_slice() else {
                    return Err(self.type_err(at, format!("{name} takes one argument")));
                };
                let v = self.rvalue(n)?;
                let size = self.convert(v, &self.types.size_t(), n.span.start)?;
                let kind = if name.ends_with("malloc") {
                    AllocKind::Heap
                } else {
                    AllocKind::Stack
                };
                let p = self.alloc(size, kind, at)?;
                return Ok(Val::R(RVal {
                    e: p,
                    ty: CType::ptr(CType::Void),
                }));
            }
            "calloc" => {
                let [n, m] = args.as_slice() else {
                    return Err(self.type_err(at, "calloc takes two arguments"));
                };
                let vs = self.eval_args(args)?;
                let st = self.types.size_t();
                let a = self.convert(vs[0].clone(), &st, n.span.start)?;
                let b = self.convert(vs[1].clone(), &st, m.span.start)?;
                let size = fold::bin(BinOp::Mul, a, b);
                let p = self.alloc(size.clone(), AllocKind::Heap, at)?;
                self.emit(
                    Op::MemSet {
                        dst: p.clone(),
                        byte: Expr::int(8, 0),
                        len: size,
                    },
                    at,
                )?;
                return Ok(Val::R(RVal {
                    e: p,
                    ty: CType::ptr(CType::Void),
                }));
            }
            "free" | "__builtin_free" => {
                let [p] = args.as_slice() else {
                    return Err(self.type_err(at, "free takes one argument"));
                };
                let v = self.rvalue(p)?;
                let v = self.convert(v, &CType::ptr(CType::Void), p.span.start)?;
                return self.free(v, at);
            }
            "memset" | "__builtin_memset" => {
                let [_, _, _] = args.as_slice() else {
                    return Err(self.type_err(at, "memset takes three arguments"));
                };
                let vs = self.eval_args(args)?;
                let vp = CType::ptr(CType::Void);
                let dst = self.convert(vs[0].clone(), &vp, at)?;
                let c = self.convert(vs[1].clone(), &CType::INT, at)?;
                let byte = fold::resize(c, Ty::I32, Ty::I8, false);
                let len = self.convert(vs[2].clone(), &self.types.size_t(), at)?;
                self.check_range(&dst, &len, at)?;
                self.emit(
                    Op::MemSet {
                        dst: dst.clone(),
                        byte,
                        len,
                    },
                    at,
                )?;
                return Ok(Val::R(RVal { e: dst, ty: vp }));
            }
            "memcpy"
            | "memmove"
            | "__builtin_memcpy"
            | "__builtin_memmove"
            | "__qicc_copy_indeterminate" => {
                let [_, _, _] = args.as_slice() else {
                    return Err(self.type_err(at, format!("{name} takes three arguments")));
                };
                let vs = self.eval_args(args)?;
                let vp = CType::ptr(CType::Void);
                let dst = self.convert(vs[0].clone(), &vp, at)?;
                let src = self.convert(vs[1].clone(), &vp, at)?;
                let len = self.convert(vs[2].clone(), &self.types.size_t(), at)?;
                // realloc's model copies past a smaller old object on purpose: the new
                // object's extra bytes are indeterminate (clib_models.c).
                if name != "__qicc_copy_indeterminate" {
                    self.check_read_range(&src, &len, at)?;
                }
                self.check_range(&dst, &len, at)?;
                self.emit(
                    Op::MemCopy {
                        dst: dst.clone(),
                        src,
                        len,
                    },
                    at,
                )?;
                return Ok(Val::R(RVal { e: dst, ty: vp }));
            }
            "__builtin_expect" => {
                let [e, c2] = args.as_slice() else {
                    return Err(self.type_err(at, "__builtin_expect takes two arguments"));
                };
                let v = self.rvalue(e)?;
                let v = self.stab_before(v, c2, at)?;
                self.void_expr(c2)?;
                let long = CType::Int(IntKind::Long);
                let v = self.convert_rv(v, &long, at)?;
                return Ok(Val::R(v));
            }
            // Library functions whose effect on control flow we cannot model: treating them
            // as "no effect" would hide behaviours.
            "setjmp" | "_setjmp" | "__sigsetjmp" | "sigsetjmp" | "longjmp" | "_longjmp"
            | "siglongjmp" | "__builtin_setjmp" | "__builtin_longjmp" => {
                return Err(self.unsupported(at, format!("setjmp/longjmp ('{name}')")));
            }
            "pthread_create" | "fork" | "vfork" | "thrd_create" => {
                return Err(self.unsupported(at, format!("threads and processes ('{name}')")));
            }
            "atexit" | "on_exit" | "at_quick_exit" => {
                return Err(self.unsupported(at, format!("exit handlers ('{name}')")));
            }
            _ => {}
        }
        if clib::is_unmodelled_library_function(name) {
            return Err(self.unsupported(at, format!("library function {name}")));
        }
        // Every builtin that reaches here is one qicc does not model (see `builtin`).
        if name.starts_with("__builtin_") && !clib::is_output_only(name) {
            return Err(self.unsupported(at, format!("builtin {name}")));
        }
        if let Some(k) = clib::printf_format_arg(name) {
            // Output functions keep "arbitrary result, no other effect" (see `clib`), which
            // is sound unless the format writes memory through `%n`.
            let literal = match args.get(k).map(|a| &a.node) {
                Some(Expression::StringLiteral(s)) => self.string_literal(&s.node, at).ok(),
                _ => None,
            };
            match literal {
                Some((bytes, _, _)) if !clib::format_writes_memory(&bytes) => {}
                Some(_) => {
                    return Err(self.unsupported(at, format!("library function {name} with %n")))
                }
                None => {
                    return Err(self.unsupported(
                        at,
                        format!(
                            "library function {name} with a format that is not a string literal"
                        ),
                    ))
                }
            }
        }
        self.extern_call(name, func, args, at)
    }

    /// Converts argument `i` of an intrinsic to its declared parameter type (when the program
    /// declares it with a prototype).
    fn param_conv(&mut self, func: Option<usize>, i: usize, v: RVal, at: usize) -> R<RVal> {
        let pt = func
            .and_then(|f| self.funcs[f].ty.clone().ok())
            .filter(|t| t.prototyped)
            .and_then(|t| t.params.get(i).cloned());
        match pt {
            Some(t) if t.is_scalar() => self.convert_rv(v, &t, at),
            _ => Ok(v),
        }
    }

    /// Continues where `ok` holds; the program aborts where it does not.
    fn halt_unless(&mut self, ok: Expr, at: usize) -> R<Val> {
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let (good, bad) = (fs.b.new_loc(), fs.b.new_loc());
        fs.b.branch(ok, good, bad);
        fs.b.set_cur(bad);
        let halt = fs.b.func.halt;
        fs.b.edge_to(Op::Halt(None), halt);
        fs.b.set_cur(good);
        Ok(Val::R(RVal::void()))
    }

    pub(super) fn halt(&mut self, code: Option<Expr>, at: usize) -> R<Val> {
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let halt = fs.b.func.halt;
        fs.b.edge_to(Op::Halt(code), halt);
        fs.b.dead();
        Ok(Val::R(RVal::void()))
    }

    /// `p := alloc.kind(size)`, after checking the size fits an object.
    fn alloc(&mut self, size: Expr, kind: AllocKind, at: usize) -> R<Expr> {
        let ptr = self.ptr_ty();
        let max = self.program.layout.max_object_size();
        self.check(
            fold::bin(BinOp::Ule, size.clone(), Expr::konst(ptr, max)),
            UbKind::AllocTooLarge,
            at,
        )?;
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let p = fs.b.new_tmp(ptr);
        fs.b.emit(Op::Alloc {
            dst: VarRef::Local(p),
            size,
            kind,
        });
        if kind == AllocKind::Stack {
            fs.b.alloca_objects.push(p);
        }
        Ok(Expr::local(p))
    }

    /// `free(p)`: nothing for a null pointer, else `p` must be the start (offset 0) of a live
    /// heap object (`freeable`: never a static object, a local's or `alloca`'s; C11 7.22.3.3).
    fn free(&mut self, p: Expr, at: usize) -> R<Val> {
        let ptr = self.ptr_ty();
        let layout = self.program.layout;
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let do_free = fs.b.new_loc();
        let done = fs.b.new_loc();
        fs.b.branch(
            fold::bin(BinOp::Ne, p.clone(), Expr::konst(ptr, 0)),
            do_free,
            done,
        );
        fs.b.set_cur(do_free);
        let offset = fold::bin(
            BinOp::And,
            p.clone(),
            Expr::konst(ptr, qicc_ir::types::mask(layout.offset_bits())),
        );
        let ok = fold::bin(
            BinOp::And,
            Expr::freeable(0, p.clone()),
            fold::bin(BinOp::Eq, offset, Expr::konst(ptr, 0)),
        );
        self.check(ok, UbKind::InvalidFree, at)?;
        self.emit(Op::Free(p), at)?;
        let fs = self.fs(at)?;
        fs.b.goto(done);
        fs.b.set_cur(done);
        Ok(Val::R(RVal::void()))
    }

    /// The type of an undeclared `__VERIFIER_nondet_T` (or CBMC's `nondet_T`), as SV-COMP's
    /// rules name them (never C90's implicit `int` for another type: a `ulong` input must
    /// range over 64 bits).
    pub(super) fn nondet_type(&mut self, name: &str, at: usize) -> R<CType> {
        use IntKind::*;
        let suffix = qicc_ir::input_function_type(name).unwrap_or(name);
        Ok(match suffix {
            "bool" | "_Bool" => CType::Int(Bool),
            "char" => CType::Int(Char),
            "schar" => CType::Int(SChar),
            "uchar" | "u8" => CType::Int(UChar),
            "short" => CType::Int(Short),
            "ushort" | "u16" => CType::Int(UShort),
            "int" => CType::INT,
            "uint" | "unsigned" | "u32" => CType::UINT,
            "long" => CType::Int(Long),
            "ulong" => CType::Int(ULong),
            "longlong" => CType::Int(LongLong),
            "ulonglong" => CType::Int(ULongLong),
            "size_t" | "sector_t" => self.types.size_t(),
            "loff_t" => CType::Int(LongLong),
            "float" => super::float::FLOAT,
            "double" => super::float::DOUBLE,
            "pointer" => CType::ptr(CType::Void),
            "pchar" => CType::ptr(CType::CHAR),
            _ => {
                return Err(self.unsupported(
                    at,
                    format!("undeclared '{name}': its type is not one SV-COMP names; declare it"),
                ))
            }
        })
    }

    fn nondet(
        &mut self,
        name: &str,
        func: Option<usize>,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        for a in args {
            self.void_expr(a)?;
        }
        let ret = match func {
            Some(i) => self.funcs[i].ty.clone()?.ret.clone(),
            // Undeclared: the type SV-COMP's name gives it.
            None => self.nondet_type(name, at)?,
        };
        let span = self.span(at);
        match &ret {
            CType::Int(IntKind::Bool) => {
                let fs = self.fs(at)?;
                fs.b.span = span;
                let t = fs.b.new_tmp(Ty::I8);
                fs.b.havoc(VarRef::Local(t), HavocKind::Nondet(name.to_string()));
                Ok(Val::R(RVal {
                    e: fold::from_bool(fold::to_bool(Expr::local(t), Ty::I8), Ty::I8),
                    ty: ret,
                }))
            }
            // A float input is any bit pattern: NaNs, infinities and subnormals included.
            CType::Int(_) | CType::Pointer(_) | CType::Float(_) => {
                let t = self.irty(&ret, at)?;
                let fs = self.fs(at)?;
                fs.b.span = span;
                let tmp = fs.b.new_tmp(t);
                fs.b.havoc(VarRef::Local(tmp), HavocKind::Nondet(name.to_string()));
                Ok(Val::R(RVal {
                    e: Expr::local(tmp),
                    ty: ret,
                }))
            }
            CType::Void => Ok(Val::R(RVal::void())),
            // An input struct or union: every byte arbitrary.
            CType::Record(_) => {
                let size = self.size_of(&ret, at)?;
                let slot = self.copy_slot(size, at)?;
                self.havoc_object(slot, size, &ret, at)
            }
            t => Err(self.unsupported(at, format!("{name} returning '{}'", self.types.show(t)))),
        }
    }

    /// A call of a function without a body (not the C library's, see `clib`): arguments are
    /// evaluated, the result is arbitrary. Unless the function is declared free of side
    /// effects (`__attribute__((const))` or `((pure))`), it may also write whatever it can
    /// reach — memory through its pointer arguments and the globals —, so the call goes to the
    /// function's stub (`extern_stub`), which makes every global and all memory contents
    /// arbitrary; a TRUE then holds whatever the function writes. A function passed to it, or
    /// whose address the program takes anywhere, could be called back, which no stub models:
    /// such a call is rejected.
    fn extern_call(
        &mut self,
        name: &str,
        func: Option<usize>,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let ft: Rc<FuncType> = match func {
            Some(i) => self.funcs[i].ty.clone()?,
            None => Rc::new(FuncType {
                ret: CType::INT,
                params: Vec::new(),
                variadic: true,
                prototyped: false,
            }),
        };
        // Output functions write nothing the program can read (`clib::OUTPUT_ONLY`).
        let pure =
            func.is_some_and(|i| self.funcs[i].side_effect_free) || clib::is_output_only(name);
        // A `const`/`pure` function with a prototype and scalar parameters and result: its
        // result is a function of the converted arguments (`HavocKind::Applied`; for `pure`
        // also of memory and globals), so two calls with equal arguments agree. Any other
        // shape (a struct argument, no prototype, `...`) gets independent results, as every
        // body-less function: fewer proofs, never a wrong one.
        let scalar = |t: &CType| matches!(t, CType::Int(_) | CType::Pointer(_) | CType::Float(_));
        let applied = func
            .filter(|&i| self.funcs[i].side_effect_free)
            .filter(|_| {
                ft.prototyped
                    && !ft.variadic
                    && ft.params.len() == args.len()
                    && ft.params.iter().all(scalar)
                    && scalar(&ft.ret)
            })
            .map(|i| self.funcs[i].reads_memory);
        let mut ir_args = Vec::new();
        if applied.is_some() {
            for (a, pt) in args.iter().zip(&ft.params) {
                let v = self.rvalue(a)?;
                ir_args.push(self.convert(v, pt, a.span.start)?);
            }
        } else {
            for a in args {
                // Struct arguments need no copy: the stub reads nothing. A scalar argument is
                // still read (its read checked) before the call.
                let v = self.lower(a)?;
                self.check_discarded_read(&v, a.span.start)?;
                let callback = match &v {
                    Val::Func(_) => true,
                    Val::R(r) => r.ty.is_func_pointer(),
                    Val::L(l) => l.ty.is_func_pointer(),
                };
                if callback && !pure {
                    return Err(self.unsupported(
                        a.span.start,
                        format!(
                            "a function pointer passed to body-less function '{name}' (it may call it back)"
                        ),
                    ));
                }
            }
        }
        if !pure {
            // The program's function pointers may be in memory the function reaches (a
            // table of handlers in a global): it could call them too.
            let escaped = self
                .funcs
                .iter()
                .filter(|f| f.def.is_some() && self.used_as_value.contains(&f.name))
                .map(|f| f.name.as_str())
                .min();
            if let Some(g) = escaped {
                return Err(self.unsupported(
                    at,
                    format!(
                        "body-less function '{name}' in a program that takes the address of function '{g}' (it could call it)"
                    ),
                ));
            }
        }
        if !self.warned.contains(name) {
            self.warned.insert(name.to_string());
            let (result, effect) = match applied {
                Some(false) => ("function of its arguments", "has no other effect"),
                Some(true) => (
                    "function of its arguments, the globals and memory",
                    "has no other effect",
                ),
                None if pure => ("value", "has no other effect"),
                None => ("value", "may change every global and all memory"),
            };
            self.warn(
                at,
                format!(
                    "function '{name}' has no body; assuming it returns an arbitrary {result} and {effect}"
                ),
            );
        }
        if let CType::Record(_) = &ft.ret {
            // A struct or union result: every byte arbitrary, in a fresh object. The stub is
            // called even for a const/pure function (whose memory it then over-approximates):
            // it marks the call as a body-less function's in traces.
            let size = self.size_of(&ft.ret, at)?;
            let slot = self.copy_slot(size, at)?;
            let span = self.span(at);
            let callee = self.extern_stub(name, None, span);
            let fs = self.fs(at)?;
            fs.b.span = span;
            fs.b.emit(Op::Call {
                dst: None,
                callee,
                args: Vec::new(),
            });
            return self.havoc_object(slot, size, &ft.ret, at);
        }
        let ret_ty = match &ft.ret {
            CType::Void => None,
            CType::Int(_) | CType::Pointer(_) | CType::Float(_) => Some(self.irty(&ft.ret, at)?),
            t => {
                return Err(self.unsupported(
                    at,
                    format!(
                        "function '{name}' without body returning '{}'",
                        self.types.show(t)
                    ),
                ))
            }
        };
        let span = self.span(at);
        let stub = if pure {
            None
        } else {
            Some(self.extern_stub(name, ret_ty, span))
        };
        let fs = self.fs(at)?;
        fs.b.span = span;
        let Some(ty) = ret_ty else {
            if let Some(callee) = stub {
                fs.b.emit(Op::Call {
                    dst: None,
                    callee,
                    args: Vec::new(),
                });
            }
            return Ok(Val::R(RVal::void()));
        };
        let t = fs.b.new_tmp(ty);
        match stub {
            Some(callee) => fs.b.emit(Op::Call {
                dst: Some(VarRef::Local(t)),
                callee,
                args: Vec::new(),
            }),
            None => {
                let kind = match applied {
                    Some(reads_memory) => HavocKind::Applied {
                        name: name.to_string(),
                        args: ir_args,
                        reads_memory,
                    },
                    None => HavocKind::Extern(name.to_string()),
                };
                fs.b.havoc(VarRef::Local(t), kind)
            }
        }
        let e = if ft.ret == CType::Int(IntKind::Bool) {
            fold::from_bool(fold::to_bool(Expr::local(t), Ty::I8), Ty::I8)
        } else {
            Expr::local(t)
        };
        Ok(Val::R(RVal {
            e,
            ty: ft.ret.clone(),
        }))
    }

    /// A call of a function the program defines.
    fn direct_call(&mut self, idx: usize, args: &'a [Node<Expression>], at: usize) -> R<Val> {
        let ft = self.funcs[idx].ty.clone()?;
        let name = self.funcs[idx].name.clone();
        if args.len() < ft.params.len() {
            return Err(self.unsupported(
                at,
                format!(
                    "call of '{name}' with {} arguments for {} parameters",
                    args.len(),
                    ft.params.len()
                ),
            ));
        }
        // Numbered before the functions its arguments call (the IR's function order).
        self.func_id(idx);
        let vals = self.eval_args(args)?;
        let offsets: Vec<usize> = args.iter().map(|a| a.span.start).collect();
        self.call_with_values(idx, vals, &offsets, at)
    }

    /// A call of defined function `idx` with arguments already evaluated (`vals`, at
    /// `offsets`), and its result.
    pub fn call_with_values(
        &mut self,
        idx: usize,
        vals: Vec<RVal>,
        offsets: &[usize],
        at: usize,
    ) -> R<Val> {
        let ft = self.funcs[idx].ty.clone()?;
        self.func_id(idx);
        let mut slot = None;
        self.emit_call(idx, vals, offsets, &mut slot, at)?;
        self.call_result(slot, &ft.ret, at)
    }

    /// The call edge of a call of defined function `idx` with evaluated arguments `vals`
    /// (at `offsets`): each converted to its parameter type (structs copied: the callee gets
    /// its own), extra arguments of an unprototyped call dropped, the result written to
    /// `slot` (made on first use: a call through a pointer shares it between the functions
    /// it may call). The one path of every call of a defined function, direct or dispatched.
    fn emit_call(
        &mut self,
        idx: usize,
        vals: Vec<RVal>,
        offsets: &[usize],
        slot: &mut Option<RetSlot>,
        at: usize,
    ) -> R<()> {
        let ft = self.funcs[idx].ty.clone()?;
        let callee = self.func_id(idx);
        let mut ir_args = Vec::new();
        let mut extra = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            let a_at = offsets.get(i).copied().unwrap_or(at);
            match ft.params.get(i) {
                Some(CType::Record(r)) => {
                    let pt = CType::Record(*r);
                    if !self.types.same_type(&v.ty, &pt) {
                        return Err(self.type_err(a_at, "argument of the wrong struct type"));
                    }
                    // By value: the callee gets its own copy.
                    let size = self.size_of(&pt, a_at)?;
                    let copy = self.copy_slot(size, a_at)?;
                    self.copy_bytes(copy.clone(), v.e, size, a_at)?;
                    ir_args.push(copy);
                }
                Some(pt) => {
                    let pt = pt.clone();
                    ir_args.push(self.convert(v, &pt, a_at)?);
                }
                // A variadic function's: in its block (below). Extra arguments of an
                // unprototyped call: evaluated, not passed.
                None if ft.variadic => extra.push((v, a_at)),
                None => {}
            }
        }
        if ft.variadic {
            let block = self.variadic_block(extra, at)?;
            ir_args.push(block);
        }
        let slot = match slot {
            Some(s) => s.clone(),
            None => {
                let s = self.ret_slot(&ft.ret, at)?;
                *slot = Some(s.clone());
                s
            }
        };
        let dst = match &slot {
            RetSlot::Mem(p) => {
                ir_args.insert(0, p.clone());
                None
            }
            RetSlot::Var(t) => Some(VarRef::Local(*t)),
            RetSlot::Void => None,
        };
        self.emit(
            Op::Call {
                dst,
                callee,
                args: ir_args,
            },
            at,
        )
    }

    /// The block of a variadic call's extra arguments, as its callee's `va_arg` reads them:
    /// each promoted (C's default argument promotions) and stored in turn, every one at an
    /// offset that is a multiple of 8 (a struct takes its size rounded up). A call without
    /// extra arguments passes a null block (a `va_arg` there reads nothing valid: undefined
    /// behaviour, as in C). qicc's own layout: a program can only observe it through
    /// undefined behaviour.
    fn variadic_block(&mut self, extra: Vec<(RVal, usize)>, at: usize) -> R<Expr> {
        let ptr = self.ptr_ty();
        if extra.is_empty() {
            return Ok(Expr::konst(ptr, 0));
        }
        let mut items = Vec::new();
        let mut size = 0u64;
        for (v, a_at) in extra {
            let ty = match &v.ty {
                CType::Float(_) => CType::Float(crate::types::FloatKind::Double),
                CType::Int(_) => self.types.promote(&v.ty),
                t => t.clone(),
            };
            let n = self.size_of(&ty, a_at)?;
            items.push((v, ty, size, n, a_at));
            size += crate::types::round_up(n, 8);
        }
        let block = self.copy_slot(size, at)?;
        for (v, ty, off, n, a_at) in items {
            let addr = fold::bin(BinOp::Add, block.clone(), Expr::konst(ptr, off));
            if ty.is_record() {
                self.copy_bytes(addr, v.e, n, a_at)?;
            } else {
                let e = self.convert(v, &ty, a_at)?;
                let lv = LVal {
                    place: Place::Mem(addr),
                    ty,
                };
                self.write(&lv, e, a_at)?;
            }
        }
        Ok(block)
    }

    /// `va_start(ap, last)`, `va_end(ap)`, `va_copy(dst, src)` (`__builtin_` names): `ap`
    /// is a pointer into the block of variable arguments (see [`Ctx::variadic_block`]).
    fn va_builtin(
        &mut self,
        name: &str,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let r = match (name, args) {
            ("__builtin_va_start", [ap, last]) => (|| {
                let va = self.fs(at)?.va_args.ok_or_else(|| {
                    self.type_err(at, "va_start used in a function without '...'")
                })?;
                self.void_expr(last)?;
                let lv = self.lvalue(ap)?;
                self.write(&lv, Expr::local(va), at)
            })(),
            ("__builtin_va_end", [ap]) => self.void_expr(ap),
            ("__builtin_va_copy", [dst, src]) => (|| {
                let v = self.rvalue(src)?;
                let lv = self.lvalue(dst)?;
                let e = self.convert(v, &lv.ty.clone(), at)?;
                self.write(&lv, e, at)
            })(),
            ("__builtin_va_start" | "__builtin_va_end" | "__builtin_va_copy", _) => {
                Err(self.type_err(at, format!("{name}: wrong number of arguments")))
            }
            _ => return None,
        };
        Some(r.map(|()| Val::R(RVal::void())))
    }

    /// Where the result of a call returning `ret` goes.
    fn ret_slot(&mut self, ret: &CType, at: usize) -> R<RetSlot> {
        match ret {
            CType::Record(_) => {
                let size = self.size_of(ret, at)?;
                Ok(RetSlot::Mem(self.copy_slot(size, at)?))
            }
            CType::Void => Ok(RetSlot::Void),
            _ => {
                let t = self.irty(ret, at)?;
                let fs = self.fs(at)?;
                Ok(RetSlot::Var(fs.b.new_tmp(t)))
            }
        }
    }

    /// The value of a call whose result went to `slot` (`None`: no call was made, e.g. a
    /// dispatch without candidates, whose continuation is unreachable).
    fn call_result(&mut self, slot: Option<RetSlot>, ret: &CType, at: usize) -> R<Val> {
        let slot = match slot {
            Some(s) => s,
            None => self.ret_slot(ret, at)?,
        };
        Ok(match slot {
            RetSlot::Mem(p) => Val::L(LVal {
                place: Place::Mem(p),
                ty: ret.clone(),
            }),
            RetSlot::Var(t) => Val::R(RVal {
                e: Expr::local(t),
                ty: ret.clone(),
            }),
            RetSlot::Void => Val::R(RVal::void()),
        })
    }

    // ---- calls through function pointers ----

    /// A call whose callee is an expression (`p(x)`, `(*p)(x)`, `s.cb(x)`, `tbl[i](x)`):
    /// a direct call when the expression is a known function, else a dispatch on the
    /// pointer's value ([`Ctx::fn_ptr_call`]).
    #[allow(clippy::ptr_arg)] // passed on to `call_named`
    fn indirect_call(
        &mut self,
        callee: &'a Node<Expression>,
        args: &'a Vec<Node<Expression>>,
        at: usize,
    ) -> R<Val> {
        let c_at = callee.span.start;
        let v = self.rvalue(callee)?;
        let ft = match &v.ty {
            CType::Pointer(t) => match &**t {
                CType::Func(ft) => Some(ft.clone()),
                _ => None,
            },
            _ => None,
        };
        let Some(ft) = ft else {
            return Err(self.type_err(
                c_at,
                format!(
                    "called object type '{}' is not a function or function pointer",
                    self.types.show(&v.ty)
                ),
            ));
        };
        // `(*f)(x)`, `(&f)(x)`: the function is known, and calls of it are lowered as
        // calls by name (intrinsics and library functions included).
        if let Expr::ObjAddr(o) = &v.e {
            if let Some(&i) = self.fn_of_object.get(o) {
                let name = self.funcs[i].name.clone();
                return self.call_named(&name, Some(i), args, at);
            }
        }
        self.fn_ptr_call(v, &ft, args, at)
    }

    /// A call through the function pointer `v` of type `ft`: the arguments are evaluated
    /// (and converted to `ft`'s parameter types) once, then `v` is compared with each
    /// candidate — every function of the unit used as a value whose type is compatible with
    /// `ft` — and the matching one is called. Any other value (null, a data pointer, a
    /// function of another type) is undefined behaviour, checked before the dispatch.
    fn fn_ptr_call(
        &mut self,
        v: RVal,
        ft: &FuncType,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        if ft.prototyped
            && (args.len() < ft.params.len() || (!ft.variadic && args.len() > ft.params.len()))
        {
            return Err(self.type_err(
                at,
                format!(
                    "call through a function pointer with {} arguments for {} parameters",
                    args.len(),
                    ft.params.len()
                ),
            ));
        }
        let cands = self.fn_ptr_candidates(ft, args.len(), at)?;
        // The pointer is read before the arguments (C leaves the order open) and compared
        // after them: keep its value.
        let mut v = self.stab(v, at)?;
        for a in args {
            v = self.stab_before(v, a, at)?;
        }
        let mut vals = self.eval_args(args)?;
        let offsets: Vec<usize> = args.iter().map(|a| a.span.start).collect();
        if ft.prototyped {
            for (i, pt) in ft.params.iter().enumerate() {
                if pt.is_scalar() {
                    vals[i] = self.convert_rv(vals[i].clone(), pt, offsets[i])?;
                }
            }
        }
        let targets: Vec<Expr> = cands
            .iter()
            .map(|&(i, _)| {
                let obj = self.fn_object(i);
                fold::bin(BinOp::Eq, v.e.clone(), Expr::ObjAddr(obj))
            })
            .collect();
        let any = targets
            .iter()
            .cloned()
            .reduce(|a, b| fold::bin(BinOp::Or, a, b))
            .unwrap_or(Expr::bool(false));
        self.check(any.clone(), UbKind::InvalidCall, at)?;
        let mut slot = None;
        if cands.is_empty() {
            // Nothing can be called: the run stops here (UB above, when checks are on).
            self.emit(Op::Assume(any), at)?;
            return self.call_result(slot, &ft.ret, at);
        }
        let span = self.span(at);
        let done = {
            let fs = self.fs(at)?;
            fs.b.span = span;
            fs.b.new_loc()
        };
        let last = cands.len() - 1;
        for (k, (&(_, callee), is_i)) in cands.iter().zip(targets).enumerate() {
            // The last candidate needs no test: every other value was ruled out above.
            let next = if k < last {
                let fs = self.fs(at)?;
                fs.b.span = span;
                let yes = fs.b.new_loc();
                let no = fs.b.new_loc();
                fs.b.branch(is_i, yes, no);
                fs.b.set_cur(yes);
                Some(no)
            } else {
                None
            };
            self.emit_call(callee, vals.clone(), &offsets, &mut slot, at)?;
            let fs = self.fs(at)?;
            fs.b.goto(done);
            if let Some(no) = next {
                fs.b.set_cur(no);
            }
        }
        self.fs(at)?.b.set_cur(done);
        self.call_result(slot, &ft.ret, at)
    }

    /// The functions a pointer of type `ft` called with `nargs` arguments may point to, in
    /// declaration order: those used as a value somewhere in the unit (the only ones whose
    /// address a program can have) with a compatible type (same result type; with prototypes
    /// on both sides the same parameter types, else no more parameters than arguments).
    /// Each with the function the call runs: itself, or for a library function without a
    /// body its model (`clib::callable_model`). A compatible function the dispatch cannot
    /// call like a defined function (no body nor model, an intrinsic, `main`) is rejected
    /// rather than mis-modelled.
    fn fn_ptr_candidates(
        &mut self,
        ft: &FuncType,
        nargs: usize,
        at: usize,
    ) -> R<Vec<(usize, usize)>> {
        // Every unit's functions, each once (linked declarations stand for their definition).
        let idxs: Vec<usize> = (0..self.funcs.len())
            .filter(|&i| {
                self.funcs[i].link.is_none() && self.used_as_value.contains(&self.funcs[i].name)
            })
            .collect();
        let mut out = Vec::new();
        for i in idxs {
            // A function whose declaration has an error cannot be a target of this type.
            let Ok(t) = self.funcs[i].ty.clone() else {
                continue;
            };
            let same = |a: &CType, b: &CType| self.types.same_type(a, b);
            let compatible = same(&t.ret, &ft.ret)
                && if t.prototyped && ft.prototyped {
                    t.params.len() == ft.params.len()
                        && t.params.iter().zip(&ft.params).all(|(p, q)| same(p, q))
                        && t.variadic == ft.variadic
                } else {
                    t.params.len() <= nargs
                };
            if !compatible {
                continue;
            }
            let name = &self.funcs[i].name;
            let special = is_error_fn(name)
                || name == "main"
                || name == "__assert_fail"
                || name.starts_with("__VERIFIER_");
            let model = clib::callable_model(name)
                .and_then(|m| self.func_by_name.get(&m).copied())
                .filter(|&m| self.funcs[m].def.is_some());
            if let (None, Some(m)) = (&self.funcs[i].def, model) {
                out.push((i, m));
                continue;
            }
            if self.funcs[i].def.is_none() || special {
                let what = if special { "" } else { "body-less " };
                return Err(self.unsupported(
                    at,
                    format!(
                        "call through a function pointer that may point to {what}function '{name}'"
                    ),
                ));
            }
            out.push((i, i));
        }
        Ok(out)
    }

    /// A stack object of this function for a struct argument or return value.
    /// Makes the `size` bytes at `slot` arbitrary and returns them as a value of type `ty`.
    fn havoc_object(&mut self, slot: Expr, size: u64, ty: &CType, at: usize) -> R<Val> {
        let ptr = self.ptr_ty();
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        fs.b.emit(Op::HavocBytes {
            dst: slot.clone(),
            len: Expr::konst(ptr, size),
        });
        Ok(Val::L(LVal {
            place: Place::Mem(slot),
            ty: ty.clone(),
        }))
    }

    pub(super) fn copy_slot(&mut self, size: u64, at: usize) -> R<Expr> {
        let ptr = self.ptr_ty();
        let span = self.span(at);
        let fs = self.fs(at)?;
        let n = fs.copy_counter;
        fs.copy_counter += 1;
        let p =
            fs.b.stack_object_exact(&format!("copy.{n}"), size, ptr, span);
        fs.stack_sizes.insert(p, size);
        Ok(Expr::local(p))
    }
}
