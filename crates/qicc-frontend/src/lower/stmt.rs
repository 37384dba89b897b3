//! Statements, local declarations and whole function bodies.
//!
//! Invariants: every statement leaves the builder at the location where control continues
//! (a fresh unreachable one after `return`, `goto`, `break`, `continue`); a local declaration
//! without initialiser makes the variable indeterminate each time it is executed (`havoc
//! uninit`; `havoc_bytes` for an array or struct that a loop or `goto` reaches again); stack
//! objects are allocated once per call in the prologue and freed before `exit`; a
//! variable-length array is allocated where its declaration is executed and freed where its
//! block ends (see [`Ctx::vla_local`]).

use super::builder::FnBuilder;
use super::decl::{declarator_name, declarator_offset, find_function_suffix, Storage};
use super::expr::{LVal, Place, RVal, Val};
use super::scope::{Sym, VarId};
use super::{fold, Ctx, FnState, GlobalVar, LocalPlace, LocalVar, SwitchCtx, R};
use crate::types::CType;
use lang_c::ast::*;
use lang_c::span::Node;
use qicc_ir::{AllocKind, BinOp, Expr, HavocKind, Loc, LocalId, Op, VarRef};
use std::collections::{HashMap, HashSet};

/// Whether a parameter's type has an array of unknown length behind its pointers (what
/// typing a prototype leaves of a runtime size).
fn has_unsized_array(t: &CType) -> bool {
    match t {
        CType::Pointer(p) => has_unsized_array(p),
        CType::Array(_, None) => true,
        CType::Array(e, Some(_)) => has_unsized_array(e),
        _ => false,
    }
}

/// A `case`/`default` label of a switch: its node's address and what it matches.
enum CaseKind<'a> {
    Value(&'a Node<Expression>),
    Range(&'a Node<Expression>, &'a Node<Expression>),
    Default,
}

fn collect_cases<'a>(s: &'a Node<Statement>, out: &mut Vec<(usize, CaseKind<'a>, usize)>) {
    match &s.node {
        Statement::Labeled(l) => {
            let key = l as *const Node<LabeledStatement> as usize;
            match &l.node.label.node {
                Label::Case(e) => out.push((key, CaseKind::Value(e), l.span.start)),
                Label::CaseRange(r) => out.push((
                    key,
                    CaseKind::Range(&r.node.low, &r.node.high),
                    l.span.start,
                )),
                Label::Default => out.push((key, CaseKind::Default, l.span.start)),
                Label::Identifier(_) => {}
            }
            collect_cases(&l.node.statement, out);
        }
        Statement::Compound(items) => {
            for it in items {
                if let BlockItem::Statement(st) = &it.node {
                    collect_cases(st, out);
                }
            }
        }
        Statement::If(i) => {
            collect_cases(&i.node.then_statement, out);
            if let Some(e) = &i.node.else_statement {
                collect_cases(e, out);
            }
        }
        Statement::While(w) => collect_cases(&w.node.statement, out),
        Statement::DoWhile(w) => collect_cases(&w.node.statement, out),
        Statement::For(f) => collect_cases(&f.node.statement, out),
        // A nested switch owns its labels.
        _ => {}
    }
}

impl<'a> Ctx<'a> {
    /// Lowers the definition of function `idx` into its IR function, in the translation
    /// unit that defines it.
    pub fn lower_function(&mut self, idx: usize) -> R<()> {
        let u = self.funcs[idx].unit;
        self.in_unit(u, |cx| cx.lower_function_here(idx))
    }

    fn lower_function_here(&mut self, idx: usize) -> R<()> {
        let fd = self.funcs[idx].def.ok_or_else(|| {
            self.internal(self.funcs[idx].offset, "queued a function without body")
        })?;
        let fid = self.funcs[idx]
            .ir
            .ok_or_else(|| self.internal(fd.span.start, "function without IR id"))?;
        let name = self.funcs[idx].name.clone();
        let decl_at = declarator_offset(&fd.node.declarator);
        let (ft, params) = self.definition_signature(fd)?;
        if ft.variadic && name == "main" {
            return Err(self.unsupported(decl_at, "a variadic main"));
        }
        let span = self.span(decl_at);
        let ptr = self.ptr_ty();
        let addr_taken = self.fn_addr_taken.get(&name).cloned().unwrap_or_default();
        let ir_name = self.funcs[idx].ir_name.clone();
        self.fs = Some(FnState {
            b: FnBuilder::new(&ir_name, span),
            fid,
            c_name: name.clone(),
            ir_name,
            vars: Vec::new(),
            ret_ty: ft.ret.clone(),
            ret_var: None,
            sret: None,
            labels: HashMap::new(),
            defined_labels: HashSet::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            vlas: Vec::new(),
            break_vlas: Vec::new(),
            continue_vlas: Vec::new(),
            switches: Vec::new(),
            static_names: HashMap::new(),
            stack_sizes: HashMap::new(),
            addr_taken,
            copy_counter: 0,
            block_ends: Vec::new(),
            va_args: None,
        });
        self.scopes.push();
        let r = self.function_body(&name, &ft, params, fd);
        self.scopes.pop();
        let fs = self.fs.take();
        r?;
        let fs = fs.ok_or_else(|| self.internal(decl_at, "lost the function state"))?;
        let mut func = fs.b.finish(ptr);
        // The closing brace: the span's end is one past it.
        func.end = self.span(fd.node.statement.span.end.saturating_sub(1));
        for v in &fs.vars {
            let (LocalPlace::Reg(l) | LocalPlace::Mem(l)) = v.place;
            self.set_local_debug_type(&mut func, l, &v.ty, v.shown_enum);
        }
        if let Some(r) = fs.ret_var {
            self.set_local_debug_type(&mut func, r, &fs.ret_ty, None);
        }
        match self.program.functions.get_mut(fid.index()) {
            Some(slot) => *slot = func,
            None => return Err(self.internal(decl_at, "function slot missing")),
        }
        Ok(())
    }

    fn function_body(
        &mut self,
        name: &str,
        ft: &crate::types::FuncType,
        params: Vec<super::decl::Param>,
        fd: &'a Node<FunctionDefinition>,
    ) -> R<()> {
        let ret = &ft.ret;
        let ptr = self.ptr_ty();
        let is_main = name == "main";
        let at0 = fd.span.start;
        // The return value: a variable, or (structs) memory the caller provides.
        match ret {
            CType::Void => {}
            CType::Record(_) => {
                if is_main {
                    return Err(self.type_err(at0, "main returns a struct"));
                }
                let fs = self.fs(at0)?;
                let p = fs.b.add_local("sret.ptr", ptr);
                fs.b.mark_stable(p);
                fs.b.func.params.push(p);
                fs.sret = Some(p);
            }
            t => {
                let ty = self.irty(t, at0)?;
                let fs = self.fs(at0)?;
                let r = fs.b.add_local("ret.val", ty);
                fs.b.func.locals[r.index()].unsigned = t.is_unsigned_int();
                fs.b.func.ret = Some(r);
                fs.ret_var = Some(r);
            }
        }
        let mut param_vars = Vec::new();
        for (k, p) in params.into_iter().enumerate() {
            let pname = p.name.clone().unwrap_or_else(|| format!("arg.{k}"));
            let span = self.span(p.offset);
            let taken = self.fs(p.offset)?.addr_taken.contains(&pname);
            let var = match &p.ty {
                CType::Record(_) => {
                    if is_main {
                        return Err(self.unsupported(p.offset, "struct parameters of main"));
                    }
                    let size = self.size_of(&p.ty, p.offset)?;
                    let fs = self.fs(p.offset)?;
                    let l = fs.b.add_named_local(&pname, ptr);
                    fs.b.mark_stable(l);
                    fs.b.func.params.push(l);
                    fs.stack_sizes.insert(l, size);
                    LocalVar {
                        ty: p.ty.clone(),
                        place: LocalPlace::Mem(l),
                        shown_enum: p.shown_enum,
                    }
                }
                t => {
                    let ty = self.irty(t, p.offset)?;
                    let fs = self.fs(p.offset)?;
                    let l = fs.b.add_named_local(&pname, ty);
                    fs.b.func.locals[l.index()].unsigned = t.is_unsigned_int();
                    if is_main {
                        // argc, argv: whatever the environment gives.
                        fs.b.prologue_op(
                            Op::Havoc(VarRef::Local(l), HavocKind::Platform("main".into())),
                            span,
                        );
                    } else {
                        fs.b.func.params.push(l);
                    }
                    if taken {
                        let size = ty.bits() as u64 / 8;
                        let m = fs.b.stack_object(&pname, size, ptr, span);
                        fs.stack_sizes.insert(m, size);
                        fs.b.span = span;
                        let (ty, value) = fold::store_form(ty, Expr::local(l));
                        fs.b.emit(Op::Store {
                            ty,
                            addr: Expr::local(m),
                            value,
                        });
                        LocalVar {
                            ty: p.ty.clone(),
                            place: LocalPlace::Mem(m),
                            shown_enum: p.shown_enum,
                        }
                    } else {
                        LocalVar {
                            ty: p.ty.clone(),
                            place: LocalPlace::Reg(l),
                            shown_enum: p.shown_enum,
                        }
                    }
                }
            };
            let fs = self.fs(p.offset)?;
            fs.vars.push(var);
            let vid = fs.vars.len() - 1;
            param_vars.push(vid);
            if p.name.is_some() {
                self.scopes.define(&pname, Sym::Var(VarId::Local(vid)));
            }
        }
        // `...`: the caller's block of variable arguments, a hidden last parameter.
        if ft.variadic {
            let fs = self.fs(at0)?;
            let l = fs.b.add_local("va.args", ptr);
            fs.b.mark_stable(l);
            fs.b.func.params.push(l);
            fs.va_args = Some(l);
        }
        self.vla_params(fd, &param_vars)?;
        self.stmt(&fd.node.statement)?;
        let fs = self.fs(at0)?;
        let mut missing: Vec<&String> = fs
            .labels
            .keys()
            .filter(|l| !fs.defined_labels.contains(*l))
            .collect();
        missing.sort();
        if let Some(l) = missing.first() {
            let msg = format!("use of undeclared label '{l}'");
            return Err(self.type_err(at0, msg));
        }
        Ok(())
    }

    /// Parameters of variably modified type (`int a[n][m]`, a pointer to `int[m]`) were
    /// typed without evaluating their sizes (a prototype's `[*]`, see
    /// [`Ctx::vla_unevaluated`]); C evaluates them on entry, in order, with the parameters in
    /// scope: type them again now, which computes the row sizes indexing uses.
    fn vla_params(&mut self, fd: &'a Node<FunctionDefinition>, vars: &[usize]) -> R<()> {
        let Some(suffix) = find_function_suffix(&fd.node.declarator.node) else {
            return Ok(());
        };
        let DerivedDeclarator::Function(f) = &suffix.node else {
            return Ok(());
        };
        if f.node.parameters.len() != vars.len() {
            return Ok(());
        }
        for (p, &vid) in f.node.parameters.iter().zip(vars) {
            let Some(d) = &p.node.declarator else {
                continue;
            };
            let at = declarator_offset(d);
            let old = self.fs(at)?.vars.get(vid).map(|v| v.ty.clone());
            if !old.as_ref().is_some_and(has_unsized_array) {
                continue;
            }
            let (base, _) = self.decl_specs(&p.node.specifiers)?;
            let ty = match self.declarator_type(base, d, true)? {
                CType::Array(e, _) | CType::Vla(e, _) => CType::Pointer(e),
                t => t,
            };
            if let Some(v) = self.fs(at)?.vars.get_mut(vid) {
                v.ty = ty;
            }
        }
        Ok(())
    }

    pub fn stmt(&mut self, s: &'a Node<Statement>) -> R<()> {
        let at = s.span.start;
        match &s.node {
            Statement::Compound(items) => {
                let mark = self.fs(at)?.vlas.len();
                self.push_block(s.span.end)?;
                let r = (|| {
                    for it in items {
                        self.block_item(it)?;
                    }
                    Ok(())
                })();
                self.pop_block(at)?;
                r?;
                self.end_vlas(mark, s.span.end.saturating_sub(1))
            }
            Statement::Expression(Some(e)) => self.void_expr(e),
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let fs = self.fs(at)?;
                let (t, f, join) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
                self.cond(&i.node.condition, t, f)?;
                self.fs(at)?.b.set_cur(t);
                self.stmt(&i.node.then_statement)?;
                self.fs(at)?.b.goto(join);
                self.fs(at)?.b.set_cur(f);
                if let Some(e) = &i.node.else_statement {
                    self.stmt(e)?;
                }
                let fs = self.fs(at)?;
                fs.b.goto(join);
                fs.b.set_cur(join);
                Ok(())
            }
            Statement::While(w) => {
                let fs = self.fs(at)?;
                let (head, body, exit) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
                fs.b.goto(head);
                fs.b.set_cur(head);
                self.cond(&w.node.expression, body, exit)?;
                self.fs(at)?.b.set_cur(body);
                self.loop_body(&w.node.statement, exit, head)?;
                let fs = self.fs(at)?;
                fs.b.goto(head);
                fs.b.set_cur(exit);
                Ok(())
            }
            Statement::DoWhile(w) => {
                let fs = self.fs(at)?;
                let (body, cont, exit) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
                fs.b.goto(body);
                fs.b.set_cur(body);
                self.loop_body(&w.node.statement, exit, cont)?;
                let fs = self.fs(at)?;
                fs.b.goto(cont);
                fs.b.set_cur(cont);
                self.cond(&w.node.expression, body, exit)?;
                self.fs(at)?.b.set_cur(exit);
                Ok(())
            }
            Statement::For(f) => {
                let mark = self.fs(at)?.vlas.len();
                self.push_block(s.span.end)?;
                let r = self.for_stmt(f, at);
                self.pop_block(at)?;
                r?;
                self.end_vlas(mark, at)
            }
            Statement::Switch(sw) => self.switch(sw, at),
            Statement::Goto(l) => {
                let loc = self.label_loc(&l.node.name, at)?;
                self.set_span(at);
                self.fs(at)?.b.goto(loc);
                Ok(())
            }
            Statement::Continue => {
                let Some(&c) = self.fs(at)?.continues.last() else {
                    return Err(self.type_err(at, "'continue' outside a loop"));
                };
                let depth = self.fs(at)?.continue_vlas.last().copied().unwrap_or(0);
                self.free_vlas(depth, at)?;
                self.set_span(at);
                self.fs(at)?.b.goto(c);
                Ok(())
            }
            Statement::Break => {
                let Some(&b) = self.fs(at)?.breaks.last() else {
                    return Err(self.type_err(at, "'break' outside a loop or switch"));
                };
                let depth = self.fs(at)?.break_vlas.last().copied().unwrap_or(0);
                self.free_vlas(depth, at)?;
                self.set_span(at);
                self.fs(at)?.b.goto(b);
                Ok(())
            }
            Statement::Return(e) => self.return_stmt(e.as_deref(), at),
            Statement::Labeled(l) => self.labeled(l),
            Statement::Asm(_) => Err(self.unsupported(at, "inline assembly")),
        }
    }

    fn loop_body(&mut self, body: &'a Node<Statement>, brk: Loc, cont: Loc) -> R<()> {
        let at = body.span.start;
        let fs = self.fs(at)?;
        fs.breaks.push(brk);
        fs.continues.push(cont);
        let depth = fs.vlas.len();
        fs.break_vlas.push(depth);
        fs.continue_vlas.push(depth);
        let r = self.stmt(body);
        let fs = self.fs(at)?;
        fs.breaks.pop();
        fs.continues.pop();
        fs.break_vlas.pop();
        fs.continue_vlas.pop();
        r
    }

    /// The end of a block: the variable-length arrays it declared (those of `vlas` from
    /// `mark` on) end their lives.
    fn end_vlas(&mut self, mark: usize, at: usize) -> R<()> {
        self.free_vlas(mark, at)?;
        self.fs(at)?.vlas.truncate(mark);
        Ok(())
    }

    /// Frees the variable-length arrays of `vlas` from `mark` on (a block's end, or a
    /// `break`/`continue` leaving their blocks) and nulls their pointers, so that neither
    /// the declaration executed again nor the function's exit frees them twice. C forbids
    /// jumping into the scope of a variable-length array, so each is allocated here.
    fn free_vlas(&mut self, mark: usize, at: usize) -> R<()> {
        let ptr = self.ptr_ty();
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        for p in fs.vlas.get(mark..).unwrap_or(&[]).iter().rev() {
            fs.b.emit(Op::Free(Expr::local(*p)));
            fs.b.emit(Op::Assign(VarRef::Local(*p), Expr::konst(ptr, 0)));
        }
        Ok(())
    }

    fn for_stmt(&mut self, f: &'a Node<ForStatement>, at: usize) -> R<()> {
        match &f.node.initializer.node {
            ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
            ForInitializer::Expression(e) => self.void_expr(e)?,
            ForInitializer::Declaration(d) => self.local_declaration(d)?,
        }
        let fs = self.fs(at)?;
        let (head, body, cont, exit) = (
            fs.b.new_loc(),
            fs.b.new_loc(),
            fs.b.new_loc(),
            fs.b.new_loc(),
        );
        fs.b.goto(head);
        fs.b.set_cur(head);
        match &f.node.condition {
            Some(c) => self.cond(c, body, exit)?,
            None => self.fs(at)?.b.goto(body),
        }
        self.fs(at)?.b.set_cur(body);
        self.loop_body(&f.node.statement, exit, cont)?;
        let fs = self.fs(at)?;
        fs.b.goto(cont);
        fs.b.set_cur(cont);
        if let Some(step) = &f.node.step {
            self.void_expr(step)?;
        }
        let fs = self.fs(at)?;
        fs.b.goto(head);
        fs.b.set_cur(exit);
        Ok(())
    }

    fn label_loc(&mut self, name: &str, at: usize) -> R<Loc> {
        let fs = self.fs(at)?;
        if let Some(l) = fs.labels.get(name) {
            return Ok(*l);
        }
        let l = fs.b.new_loc();
        fs.labels.insert(name.to_string(), l);
        Ok(l)
    }

    fn labeled(&mut self, l: &'a Node<LabeledStatement>) -> R<()> {
        let at = l.span.start;
        let loc = match &l.node.label.node {
            Label::Identifier(id) => {
                let name = &id.node.name;
                let loc = self.label_loc(name, at)?;
                let fs = self.fs(at)?;
                if !fs.defined_labels.insert(name.clone()) {
                    return Err(self.type_err(at, format!("redefinition of label '{name}'")));
                }
                loc
            }
            _ => {
                let key = l as *const Node<LabeledStatement> as usize;
                let fs = self.fs(at)?;
                match fs.switches.last().and_then(|s| s.labels.get(&key)) {
                    Some(loc) => *loc,
                    None => return Err(self.type_err(at, "'case' label not within a switch")),
                }
            }
        };
        let fs = self.fs(at)?;
        fs.b.goto(loc);
        fs.b.set_cur(loc);
        self.stmt(&l.node.statement)
    }

    fn switch(&mut self, sw: &'a Node<SwitchStatement>, at: usize) -> R<()> {
        let v = self.rvalue(&sw.node.expression)?;
        let ctrl_at = sw.node.expression.span.start;
        let CType::Int(k) = v.ty else {
            return Err(self.type_err(ctrl_at, "switch on a non-integer"));
        };
        let pt = self.types.promote(&CType::Int(k));
        let x = self.convert(v, &pt, ctrl_at)?;
        let signed = pt.is_signed_int();
        let mut cases = Vec::new();
        collect_cases(&sw.node.statement, &mut cases);
        let exit = self.fs(at)?.b.new_loc();
        let mut labels = HashMap::new();
        let mut others: Vec<Expr> = Vec::new();
        let mut default = None;
        let mut guards = Vec::new();
        for (key, kind, cat) in cases {
            let loc = self.fs(at)?.b.new_loc();
            labels.insert(key, loc);
            let value = |cx: &mut Ctx<'a>, e: &'a Node<Expression>| -> R<Expr> {
                let (v, ty) = cx.const_int(e)?;
                let ety = cx.irty(&ty, e.span.start)?;
                cx.convert(
                    RVal {
                        e: Expr::konst(ety, v),
                        ty,
                    },
                    &pt,
                    e.span.start,
                )
            };
            let g = match kind {
                CaseKind::Value(e) => fold::bin(BinOp::Eq, x.clone(), value(self, e)?),
                CaseKind::Range(lo, hi) => {
                    let (lo, hi) = (value(self, lo)?, value(self, hi)?);
                    let le = if signed { BinOp::Sle } else { BinOp::Ule };
                    fold::bin(
                        BinOp::And,
                        fold::bin(le, lo, x.clone()),
                        fold::bin(le, x.clone(), hi),
                    )
                }
                CaseKind::Default => {
                    default = Some((loc, cat));
                    continue;
                }
            };
            others.push(fold::not(g.clone()));
            guards.push((g, loc, cat));
        }
        for (g, loc, cat) in guards {
            self.set_span(cat);
            let fs = self.fs(at)?;
            if !g.is_false() {
                let op = if g.is_true() { Op::Skip } else { Op::Assume(g) };
                fs.b.edge_to(op, loc);
            }
        }
        let none = others
            .into_iter()
            .fold(Expr::bool(true), |acc, g| fold::bin(BinOp::And, acc, g));
        let (dloc, dat) = default.unwrap_or((exit, at));
        self.set_span(dat);
        let fs = self.fs(at)?;
        if !none.is_false() {
            let op = if none.is_true() {
                Op::Skip
            } else {
                Op::Assume(none)
            };
            fs.b.edge_to(op, dloc);
        }
        fs.b.dead();
        fs.switches.push(SwitchCtx { labels });
        fs.breaks.push(exit);
        let depth = fs.vlas.len();
        fs.break_vlas.push(depth);
        let r = self.stmt(&sw.node.statement);
        let fs = self.fs(at)?;
        fs.switches.pop();
        fs.breaks.pop();
        fs.break_vlas.pop();
        r?;
        let fs = self.fs(at)?;
        fs.b.goto(exit);
        fs.b.set_cur(exit);
        Ok(())
    }

    fn return_stmt(&mut self, e: Option<&'a Node<Expression>>, at: usize) -> R<()> {
        if let Some(e) = e {
            let ret_ty = self.fs(at)?.ret_ty.clone();
            match &ret_ty {
                CType::Void => self.void_expr(e)?,
                CType::Record(_) => {
                    let v = self.rvalue(e)?;
                    if !self.types.same_type(&v.ty, &ret_ty) {
                        return Err(self.type_err(at, "returning a value of the wrong struct type"));
                    }
                    let size = self.size_of(&ret_ty, at)?;
                    let dst =
                        self.fs(at)?.sret.map(Expr::local).ok_or_else(|| {
                            self.internal(at, "struct return without a return slot")
                        })?;
                    self.copy_bytes(dst, v.e, size, at)?;
                }
                t => {
                    let v = self.rvalue(e)?;
                    let v = self.convert(v, t, at)?;
                    let r = self
                        .fs(at)?
                        .ret_var
                        .ok_or_else(|| self.internal(at, "no return variable"))?;
                    self.emit(Op::Assign(VarRef::Local(r), v), at)?;
                }
            }
        }
        self.set_span(at);
        let fs = self.fs(at)?;
        let r = fs.b.ret_loc;
        fs.b.goto(r);
        Ok(())
    }

    fn block_item(&mut self, it: &'a Node<BlockItem>) -> R<()> {
        match &it.node {
            BlockItem::Declaration(d) => self.local_declaration(d),
            BlockItem::StaticAssert(_) => Ok(()),
            BlockItem::Statement(s) => self.stmt(s),
        }
    }

    /// A GNU statement expression: its value is that of its last expression statement.
    pub fn stmt_expr(&mut self, s: &'a Node<Statement>) -> R<Val> {
        let at = s.span.start;
        if !self.in_function() {
            return Err(self.type_err(at, "statement expression in a constant expression"));
        }
        let Statement::Compound(items) = &s.node else {
            self.stmt(s)?;
            return Ok(Val::R(RVal::void()));
        };
        let mark = self.fs(at)?.vlas.len();
        self.push_block(s.span.end)?;
        let r = (|| {
            let mut result = Val::R(RVal::void());
            for (i, it) in items.iter().enumerate() {
                if i + 1 == items.len() {
                    if let BlockItem::Statement(st) = &it.node {
                        if let Statement::Expression(Some(e)) = &st.node {
                            let v = self.lower(e)?;
                            result = match v {
                                // The value is copied out: the block's end may end the life
                                // of the object it names (`({ struct s t = …; t; })`).
                                Val::L(LVal {
                                    place: Place::Mem(src),
                                    ty,
                                }) if ty.is_record() => {
                                    let at = e.span.start;
                                    let size = self.size_of(&ty, at)?;
                                    let copy = self.copy_slot(size, at)?;
                                    self.copy_bytes(copy.clone(), src, size, at)?;
                                    Val::L(LVal {
                                        place: Place::Mem(copy),
                                        ty,
                                    })
                                }
                                Val::L(lv) if lv.ty.is_record() => Val::L(lv),
                                v => Val::R(self.to_rvalue(v, e.span.start)?),
                            };
                            continue;
                        }
                    }
                }
                self.block_item(it)?;
            }
            Ok(result)
        })();
        self.pop_block(at)?;
        let r = r?;
        self.end_vlas(mark, at)?;
        Ok(r)
    }

    /// A declaration inside a function.
    pub fn local_declaration(&mut self, d: &'a Node<Declaration>) -> R<()> {
        let (base, storage) = self.decl_specs(&d.node.specifiers)?;
        let spec_enum = self.spec_enum.take();
        for id in &d.node.declarators {
            let decl = &id.node.declarator;
            let Some(name) = declarator_name(&decl.node) else {
                continue;
            };
            let at = declarator_offset(decl);
            let ty = self.declarator_type(base.clone(), decl, false)?;
            let shown_enum = super::decl::declared_enum(spec_enum, &decl.node);
            if storage == Storage::Typedef {
                self.scopes.define(name, Sym::Typedef(Ok(ty), shown_enum));
                continue;
            }
            if super::decl::has_attribute(&decl.node.extensions, &["cleanup"])
                || super::decl::specs_have_attribute(&d.node.specifiers, &["cleanup"])
            {
                return Err(self.unsupported(at, "the cleanup attribute"));
            }
            if let CType::Func(ft) = &ty {
                self.declare_function(name, Ok(ft.clone()), None, at, false);
                continue;
            }
            if ty.is_vla() && matches!(storage, Storage::Extern | Storage::Static) {
                return Err(self.type_err(
                    at,
                    format!("variable-length array '{name}' with static or extern storage"),
                ));
            }
            match storage {
                Storage::Extern => {
                    let gi = match self.scopes.lookup_file(name) {
                        Some(Sym::Var(VarId::Global(i))) => *i,
                        _ => {
                            // Another unit's variable, or one no unit defines.
                            let link = self.extern_globals.get(name).copied();
                            self.globals.push(GlobalVar {
                                name: name.to_string(),
                                c_name: name.to_string(),
                                ty: Ok(ty.clone()),
                                shown_enum,
                                init: None,
                                defined: false,
                                offset: at,
                                storage: None,
                                file_scope: true,
                                unit: self.cur_unit,
                                internal: false,
                                link,
                            });
                            let gi = self.globals.len() - 1;
                            if link.is_none() {
                                self.extern_globals.insert(name.to_string(), gi);
                            }
                            gi
                        }
                    };
                    self.scopes.define(name, Sym::Var(VarId::Global(gi)));
                }
                Storage::Static => {
                    let fs = self.fs(at)?;
                    let n = fs.static_names.entry(name.to_string()).or_insert(0);
                    let ir_name = if *n == 0 {
                        format!("{}.{name}", fs.ir_name)
                    } else {
                        format!("{}.{name}.{n}", fs.ir_name)
                    };
                    *n += 1;
                    self.globals.push(GlobalVar {
                        name: ir_name,
                        c_name: name.to_string(),
                        ty: Ok(ty.clone()),
                        shown_enum,
                        init: id.node.initializer.as_ref(),
                        defined: true,
                        offset: at,
                        storage: None,
                        file_scope: false,
                        unit: self.cur_unit,
                        internal: true,
                        link: None,
                    });
                    let gi = self.globals.len() - 1;
                    self.scopes.define(name, Sym::Var(VarId::Global(gi)));
                    self.materialize_global(gi)?;
                }
                _ => self.auto_local(name, ty, shown_enum, id.node.initializer.as_ref(), at)?,
            }
        }
        Ok(())
    }

    fn auto_local(
        &mut self,
        name: &str,
        ty: CType,
        shown_enum: Option<u32>,
        init: Option<&'a Node<Initializer>>,
        at: usize,
    ) -> R<()> {
        if let Some(p) = self.layout_problem(&ty) {
            return Err(p);
        }
        if let CType::Vla(_, size) = ty {
            return self.vla_local(name, ty.clone(), size, init, at);
        }
        let ptr = self.ptr_ty();
        let taken = self.fs(at)?.addr_taken.contains(name);
        if ty.is_scalar() && !taken {
            let t = self.irty(&ty, at)?;
            let fs = self.fs(at)?;
            let l = fs.b.add_named_local(name, t);
            fs.b.func.locals[l.index()].unsigned = ty.is_unsigned_int();
            fs.vars.push(LocalVar {
                ty: ty.clone(),
                place: LocalPlace::Reg(l),
                shown_enum,
            });
            let vid = fs.vars.len() - 1;
            self.define_block_local(name, vid, l, at)?;
            let lv = LVal {
                place: Place::Var(VarRef::Local(l)),
                ty: ty.clone(),
            };
            return match init {
                None => self.emit(Op::Havoc(VarRef::Local(l), HavocKind::Uninit), at),
                Some(init) => self.scalar_init(&lv, init, at),
            };
        }
        // In memory: complete the type from the initialiser, then allocate.
        let mut leaves = Vec::new();
        let ty = match init {
            Some(i) if !ty.is_scalar() => self.flatten_init(&ty, i, &mut leaves)?,
            _ => ty,
        };
        let size = self.size_of(&ty, at)?;
        if size > self.program.layout.max_object_size() {
            return Err(self.unsupported(
                at,
                format!("object of {size} bytes (larger than the memory model allows)"),
            ));
        }
        let span = self.span(at);
        let fs = self.fs(at)?;
        // A block nested in the function's body ends its objects' lives at its end (C11
        // 6.2.4p6), so a pointer kept past the block points to a dead object: such an object
        // is allocated where it is declared and freed as a variable-length array is. The
        // body's own objects live as long as the activation: frame objects.
        let nested = fs.block_ends.len() > 1;
        let p = if nested {
            self.block_object(name, Expr::konst(ptr, size), at)?
        } else {
            fs.b.stack_object(name, size, ptr, span)
        };
        let fs = self.fs(at)?;
        fs.stack_sizes.insert(p, size);
        fs.vars.push(LocalVar {
            ty: ty.clone(),
            place: LocalPlace::Mem(p),
            shown_enum,
        });
        let vid = fs.vars.len() - 1;
        self.define_block_local(name, vid, p, at)?;
        let lv = LVal {
            place: Place::Mem(Expr::local(p)),
            ty: ty.clone(),
        };
        match init {
            None if ty.is_scalar() => {
                let t = self.irty(&ty, at)?;
                let span = self.span(at);
                let fs = self.fs(at)?;
                fs.b.span = span;
                let tmp = fs.b.new_tmp(t);
                fs.b.havoc(VarRef::Local(tmp), HavocKind::Uninit);
                self.write(&lv, Expr::local(tmp), at)
            }
            None => {
                // C: the contents are indeterminate each time the declaration is reached.
                // The prologue's fresh object covers the first time; a loop or a backward
                // `goto` reaches the declaration again, with last time's bytes still there.
                let fs = self.fs(at)?;
                if !nested && (!fs.continues.is_empty() || !fs.labels.is_empty()) {
                    fs.b.span = span;
                    fs.b.emit(Op::HavocBytes {
                        dst: Expr::local(p),
                        len: Expr::konst(ptr, size),
                    });
                }
                Ok(())
            }
            Some(i) if ty.is_scalar() => self.scalar_init(&lv, i, at),
            Some(_) => self.init_memory(&Expr::local(p), &ty, leaves, at),
        }
    }

    /// A block-scope variable-length array: a fresh stack object of the size its type
    /// computed, each time the declaration is executed (its bytes were never written, so they
    /// are arbitrary, as C's indeterminate contents). The block's end (or a `break` or
    /// `continue` out of it) frees it; after a `goto` out of the block, it is freed when the
    /// declaration is executed again or the function returns.
    fn vla_local(
        &mut self,
        name: &str,
        ty: CType,
        size: LocalId,
        init: Option<&'a Node<Initializer>>,
        at: usize,
    ) -> R<()> {
        if init.is_some() {
            return Err(self.type_err(at, "variable-sized object may not be initialized"));
        }
        // `size` is at most the memory model's largest object (checked when the type was
        // evaluated), so the allocation is inside the model.
        let p = self.block_object(name, Expr::local(size), at)?;
        let fs = self.fs(at)?;
        fs.vars.push(LocalVar {
            ty,
            place: LocalPlace::Mem(p),
            shown_enum: None,
        });
        let vid = fs.vars.len() - 1;
        self.define_block_local(name, vid, p, at)
    }

    /// A fresh stack object of `size` bytes for the block-scope variable `name`, allocated
    /// each time its declaration is executed and freed at the end of its block (or a `break`
    /// or `continue` out of it: `vlas`); returns the local holding its address.
    fn block_object(&mut self, name: &str, size: Expr, at: usize) -> R<LocalId> {
        let ptr = self.ptr_ty();
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let p = fs.b.add_named_local(name, ptr);
        fs.b.mark_stable(p);
        // Executed again (only a loop or a backward `goto` can) after a `goto` left the
        // block without freeing: C ended the old object's life when the jump left its scope.
        if !fs.continues.is_empty() || !fs.labels.is_empty() {
            fs.b.free_if_live(p, ptr);
        }
        fs.b.emit(Op::Alloc {
            dst: VarRef::Local(p),
            size,
            kind: AllocKind::Stack,
        });
        fs.b.alloca_objects.push(p);
        fs.vlas.push(p);
        Ok(p)
    }

    /// Opens a block whose text ends at byte `end` (exclusive): a scope for names, and the
    /// end of the C scope of the variables it declares.
    fn push_block(&mut self, end: usize) -> R<()> {
        let to = self.span(end.saturating_sub(1));
        self.fs(end)?.block_ends.push(to);
        self.scopes.push();
        Ok(())
    }

    fn pop_block(&mut self, at: usize) -> R<()> {
        self.scopes.pop();
        self.fs(at)?.block_ends.pop();
        Ok(())
    }

    /// Makes the block-scope variable `name` (entry `vid` of the function's variables, held
    /// in or pointed to by `local`) visible from its declarator at `at` to its block's end,
    /// and records that scope on the IR local.
    fn define_block_local(&mut self, name: &str, vid: usize, local: LocalId, at: usize) -> R<()> {
        self.scopes.define(name, Sym::Var(VarId::Local(vid)));
        let from = self.span(at);
        let fs = self.fs(at)?;
        let to = fs.block_ends.last().copied();
        if let (Some(to), Some(l)) = (to, fs.b.func.locals.get_mut(local.index())) {
            l.scope = Some(qicc_ir::Scope { from, to });
        }
        Ok(())
    }

    /// `T x = e;` or `T x = { e };` for a scalar.
    fn scalar_init(&mut self, lv: &LVal, init: &'a Node<Initializer>, at: usize) -> R<()> {
        let mut leaves = Vec::new();
        self.flatten_init(&lv.ty, init, &mut leaves)?;
        let v = match leaves.into_iter().next() {
            Some(super::init::Leaf {
                init: super::init::LeafInit::Expr(e),
                ..
            }) => {
                let v = self.rvalue(e)?;
                self.convert(v, &lv.ty, e.span.start)?
            }
            _ => {
                let t = self.irty(&lv.ty, at)?;
                Expr::konst(t, 0)
            }
        };
        self.write(lv, v, at)
    }
}
