//! Function calls: calls of defined functions (arguments converted to the parameter types,
//! structs passed and returned through memory), calls of functions without a body (an
//! arbitrary return value, with a warning), and the SV-COMP and C library intrinsics:
//! `__VERIFIER_nondet_*`, `__VERIFIER_assume`, `__VERIFIER_assert`, `reach_error`,
//! `__VERIFIER_error`, `__assert_fail`, `abort`/`exit`, `malloc`/`calloc`/`alloca`/`free`,
//! `memset`/`memcpy`/`memmove`, `__builtin_expect`.
//!
//! Invariants: arguments are evaluated left to right (earlier ones are stabilized when a later
//! one has side effects); a property assertion's span is the call's; the definitions of
//! `reach_error`, `__VERIFIER_error` and a standard `__VERIFIER_assert` are never lowered.

use super::expr::{LVal, Place, RVal, Val};
use super::scope::Sym;
use super::{clib, fold, AssertMode, Ctx, R};
use crate::types::{CType, FuncType, IntKind};
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{AllocKind, AssertKind, BinOp, Expr, HavocKind, Op, Ty, UbKind, VarRef};
use std::rc::Rc;

/// Functions whose calls are property violations.
fn is_error_fn(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error")
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
        let Expression::Identifier(id) = &c.node.callee.node else {
            return Err(self.unsupported(at, "calls through function pointers"));
        };
        let name = id.node.name.as_str();
        let args = &c.node.arguments;
        let sym = self.lookup(name).cloned();
        if let Some(Sym::Var(_)) = sym {
            return Err(self.unsupported(at, format!("calls through function pointers ('{name}')")));
        }
        let func = match sym {
            Some(Sym::Func(i)) => Some(i),
            _ => None,
        };
        let has_body = func.is_some_and(|i| self.funcs[i].def.is_some());
        // SV-COMP intrinsics: whatever the program defines.
        if is_error_fn(name) {
            for a in args {
                self.void_expr(a)?;
            }
            self.assert_fail_here(AssertKind::ReachError, None, at)?;
            return Ok(Val::R(RVal::void()));
        }
        if name == "__assert_fail" {
            let text = match args.first().map(|a| &a.node) {
                Some(Expression::StringLiteral(s)) => {
                    self.string_literal(&s.node, at).ok().map(|(b, _, _)| {
                        String::from_utf8_lossy(&b[..b.len().saturating_sub(1)]).into_owned()
                    })
                }
                _ => None,
            };
            self.assert_fail_here(AssertKind::AssertFail, text, at)?;
            return Ok(Val::R(RVal::void()));
        }
        if name.starts_with("__VERIFIER_nondet_") {
            return self.nondet(name, func, args, at);
        }
        if name == "__VERIFIER_assume" {
            let [arg] = args.as_slice() else {
                return Err(self.type_err(at, "__VERIFIER_assume takes one argument"));
            };
            let v = self.rvalue(arg)?;
            let v = self.param_conv(func, 0, v, arg.span.start)?;
            let c = self.truth(v, arg.span.start)?;
            self.emit(Op::Assume(c), at)?;
            return Ok(Val::R(RVal::void()));
        }
        if name == "__VERIFIER_assert" && self.assert_mode == AssertMode::Inline {
            let [arg] = args.as_slice() else {
                return Err(self.type_err(at, "__VERIFIER_assert takes one argument"));
            };
            let text = self.source_text(arg.span.start, arg.span.end);
            let v = self.rvalue(arg)?;
            let v = self.param_conv(func, 0, v, arg.span.start)?;
            let c = self.truth(v, arg.span.start)?;
            let span = self.span(at);
            let fid = self.fs(at)?.fid;
            let k = self.program.add_assertion(qicc_ir::Assertion {
                kind: AssertKind::VerifierAssert,
                func: fid,
                span,
                text: Some(text),
            });
            let fs = self.fs(at)?;
            fs.b.span = span;
            let ok = fs.b.new_loc();
            let bad = fs.b.new_loc();
            let err = fs.b.func.err;
            fs.b.branch(c, ok, bad);
            fs.b.set_cur(bad);
            fs.b.edge_to(Op::Error(k), err);
            fs.b.set_cur(ok);
            return Ok(Val::R(RVal::void()));
        }
        if has_body {
            let idx = func.expect("has_body implies a function");
            if name == "main" {
                return Err(self.unsupported(at, "calls of main"));
            }
            return self.direct_call(idx, args, at);
        }
        // Library functions the program does not define: those modelled in C first.
        if let Some(model) = clib::model_name(name) {
            if let Some(&idx) = self.func_by_name.get(&model) {
                return self.direct_call(idx, args, at);
            }
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
            "memcpy" | "memmove" | "__builtin_memcpy" | "__builtin_memmove" => {
                let [_, _, _] = args.as_slice() else {
                    return Err(self.type_err(at, format!("{name} takes three arguments")));
                };
                let vs = self.eval_args(args)?;
                let vp = CType::ptr(CType::Void);
                let dst = self.convert(vs[0].clone(), &vp, at)?;
                let src = self.convert(vs[1].clone(), &vp, at)?;
                let len = self.convert(vs[2].clone(), &self.types.size_t(), at)?;
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

    fn halt(&mut self, code: Option<Expr>, at: usize) -> R<Val> {
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

    /// `free(p)`: nothing for a null pointer, else `p` must be the start of a live object
    /// (approximated: one valid byte at offset 0).
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
            Expr::valid(1, p.clone()),
            fold::bin(BinOp::Eq, offset, Expr::konst(ptr, 0)),
        );
        self.check(ok, UbKind::InvalidFree, at)?;
        self.emit(Op::Free(p), at)?;
        let fs = self.fs(at)?;
        fs.b.goto(done);
        fs.b.set_cur(done);
        Ok(Val::R(RVal::void()))
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
            None => CType::INT,
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
            CType::Int(_) | CType::Pointer(_) => {
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
            CType::Float(_) => Err(self.unsupported(at, format!("floating point ({name})"))),
            CType::Void => Ok(Val::R(RVal::void())),
            t => Err(self.unsupported(at, format!("{name} returning '{}'", self.types.show(t)))),
        }
    }

    /// A call of a function without a body: arguments are evaluated, the result is arbitrary.
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
        for a in args {
            let v = self.lower(a)?;
            // Struct arguments need no copy: nothing reads them.
            if let Val::Func(_) = v {
                return Err(self.unsupported(a.span.start, "function pointers (as an argument)"));
            }
        }
        if !self.warned.contains(name) {
            self.warned.insert(name.to_string());
            self.warn(
                at,
                format!(
                    "function '{name}' has no body; assuming it returns an arbitrary value and has no other effect"
                ),
            );
        }
        match &ft.ret {
            CType::Void => Ok(Val::R(RVal::void())),
            CType::Int(_) | CType::Pointer(_) => {
                let ty = self.irty(&ft.ret, at)?;
                let span = self.span(at);
                let fs = self.fs(at)?;
                fs.b.span = span;
                let t = fs.b.new_tmp(ty);
                fs.b.havoc(VarRef::Local(t), HavocKind::Extern(name.to_string()));
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
            CType::Float(_) => {
                Err(self.unsupported(at, format!("floating point (result of '{name}')")))
            }
            t => Err(self.unsupported(
                at,
                format!(
                    "function '{name}' without body returning '{}'",
                    self.types.show(t)
                ),
            )),
        }
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
        let callee = self.func_id(idx);
        let vals = self.eval_args(args)?;
        let mut ir_args = Vec::new();
        for (i, v) in vals.into_iter().enumerate() {
            let a_at = args[i].span.start;
            match ft.params.get(i) {
                Some(CType::Record(r)) => {
                    let pt = CType::Record(*r);
                    if v.ty != pt {
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
                    if pt.is_float() {
                        return Err(self.unsupported(a_at, "floating point (parameter)"));
                    }
                    ir_args.push(self.convert(v, &pt, a_at)?);
                }
                // Extra arguments of an unprototyped call: evaluated, not passed.
                None => {}
            }
        }
        let ret = ft.ret.clone();
        let span = self.span(at);
        match &ret {
            CType::Record(_) => {
                let size = self.size_of(&ret, at)?;
                let slot = self.copy_slot(size, at)?;
                ir_args.insert(0, slot.clone());
                self.emit(
                    Op::Call {
                        dst: None,
                        callee,
                        args: ir_args,
                    },
                    at,
                )?;
                Ok(Val::L(LVal {
                    place: Place::Mem(slot),
                    ty: ret,
                }))
            }
            CType::Void => {
                self.emit(
                    Op::Call {
                        dst: None,
                        callee,
                        args: ir_args,
                    },
                    at,
                )?;
                Ok(Val::R(RVal::void()))
            }
            CType::Float(_) => Err(self.unsupported(at, "floating point (return value)")),
            _ => {
                let t = self.irty(&ret, at)?;
                let fs = self.fs(at)?;
                fs.b.span = span;
                let tmp = fs.b.new_tmp(t);
                fs.b.emit(Op::Call {
                    dst: Some(VarRef::Local(tmp)),
                    callee,
                    args: ir_args,
                });
                Ok(Val::R(RVal {
                    e: Expr::local(tmp),
                    ty: ret,
                }))
            }
        }
    }

    /// A stack object of this function for a struct argument or return value.
    fn copy_slot(&mut self, size: u64, at: usize) -> R<Expr> {
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
