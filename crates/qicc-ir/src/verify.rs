//! Well-formedness of programs: the invariants listed in [`crate::program`], and typing.
//! Every pass that builds or rewrites IR runs this in its tests; the front-end runs it on
//! every program it produces (a failure there is an internal error, not a user error).

use crate::expr::{BinOp, CastOp, Expr, FpOp, UnOp, VarRef};
use crate::program::*;
use crate::types::Ty;
use crate::TypeEnv;
use std::collections::HashSet;

/// Checks the whole program; returns every problem found, each as one readable line.
pub fn verify_program(p: &Program) -> Result<(), Vec<String>> {
    let mut errs = Vec::new();
    unique(
        &mut errs,
        "object",
        p.objects.iter().map(|o| o.name.as_str()),
    );
    unique(
        &mut errs,
        "global",
        p.globals.iter().map(|g| g.name.as_str()),
    );
    unique(
        &mut errs,
        "function",
        p.functions.iter().map(|f| f.name.as_str()),
    );
    if p.entry.index() >= p.functions.len() {
        errs.push(format!("entry function {} does not exist", p.entry));
    }
    if p.layout.object_bits == 0 || p.layout.object_bits >= p.layout.pointer_bits {
        errs.push("object-bits must be between 1 and the pointer width".into());
    }
    for (i, a) in p.assertions.iter().enumerate() {
        if a.func.index() >= p.functions.len() {
            errs.push(format!("assertion #{i} names a missing function"));
        }
    }
    for o in &p.objects {
        for item in &o.init {
            let (offset, len) = match item {
                InitItem::Bytes { offset, bytes } => (*offset, bytes.len() as u64),
                InitItem::Value { offset, value } => {
                    check_const(&mut errs, p, value, &format!("object @{}", o.name));
                    let env = NoLocals(p);
                    (*offset, value_bytes(value.ty(&env)))
                }
            };
            if offset.checked_add(len).is_none_or(|end| end > o.size) {
                errs.push(format!(
                    "object @{}: initialiser at offset {offset} runs past its size {}",
                    o.name, o.size
                ));
            }
        }
    }
    for g in &p.globals {
        check_width(&mut errs, &format!("global ${}", g.name), g.ty);
        if let Some(init) = &g.init {
            check_const(&mut errs, p, init, &format!("global ${}", g.name));
            let env = NoLocals(p);
            let t = check_expr(&mut errs, p, &env, init, &format!("global ${}", g.name));
            if t != Some(g.ty) {
                errs.push(format!(
                    "global ${}: initialiser has type {t:?}, expected {}",
                    g.name, g.ty
                ));
            }
        }
    }
    for (fi, f) in p.functions.iter().enumerate() {
        verify_function(&mut errs, p, FuncId(fi as u32), f);
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

fn value_bytes(t: Ty) -> u64 {
    (t.bits() as u64).div_ceil(8)
}

struct NoLocals<'a>(&'a Program);
impl TypeEnv for NoLocals<'_> {
    fn var_ty(&self, v: VarRef) -> Ty {
        match v {
            VarRef::Global(g) => self
                .0
                .globals
                .get(g.index())
                .map(|g| g.ty)
                .unwrap_or(Ty::Bool),
            VarRef::Local(_) => Ty::Bool,
        }
    }
    fn pointer_ty(&self) -> Ty {
        self.0.pointer_ty()
    }
}

fn unique<'a>(errs: &mut Vec<String>, what: &str, names: impl Iterator<Item = &'a str>) {
    let mut seen = HashSet::new();
    for n in names {
        if !seen.insert(n) {
            errs.push(format!("{what} name '{n}' is used twice"));
        }
        if n.is_empty()
            || !n
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        {
            errs.push(format!(
                "{what} name '{n}' has characters the text format cannot carry"
            ));
        }
    }
}

fn check_const(errs: &mut Vec<String>, p: &Program, e: &Expr, what: &str) {
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
    if !ok {
        errs.push(format!(
            "{what}: initialiser is not a constant expression: {}",
            crate::print::expr_str(p, None, e)
        ));
    }
}

fn check_width(errs: &mut Vec<String>, what: &str, t: Ty) {
    match t {
        Ty::Int(w) if w == 0 || w > 64 => {
            errs.push(format!("{what} has type i{w}; widths must be 1..=64"));
        }
        Ty::Float(w) if w != 32 && w != 64 => {
            errs.push(format!("{what} has type f{w}; float widths are 32 and 64"));
        }
        _ => {}
    }
}

fn float_width_ok(w: u16) -> bool {
    w == 32 || w == 64
}

/// The shape [`AllocKind::Frame`] promises: on the prologue chain, into a local that is not a
/// parameter and is defined nowhere else, of a constant size.
fn verify_frame_allocs(errs: &mut Vec<String>, ctx: &str, f: &Function) {
    let frames: Vec<&Edge> = f
        .edges
        .iter()
        .filter(|e| {
            matches!(
                e.op,
                Op::Alloc {
                    kind: AllocKind::Frame,
                    ..
                }
            )
        })
        .collect();
    if frames.is_empty() {
        return;
    }
    let chain = f.prologue_chain();
    for e in frames {
        let Op::Alloc { dst, size, .. } = &e.op else {
            continue;
        };
        let at = format!("{ctx}: edge {} -> {}: alloc.frame", e.from, e.to);
        if !chain.contains(&e.from) {
            errs.push(format!("{at} is not on the prologue chain"));
        }
        if size.as_const().is_none() {
            errs.push(format!("{at} has no constant size"));
        }
        match dst {
            VarRef::Local(l) if !f.params.contains(l) => {
                let defs = f.edges.iter().filter(|d| d.op.def() == Some(*dst)).count();
                if defs != 1 {
                    errs.push(format!("{at}: its local has {defs} definitions, not one"));
                }
            }
            _ => errs.push(format!("{at} must define a local that is not a parameter")),
        }
    }
}

fn verify_function(errs: &mut Vec<String>, p: &Program, fid: FuncId, f: &Function) {
    let ctx = format!("fn @{}", f.name);
    for l in &f.locals {
        check_width(errs, &format!("{ctx}: local %{}", l.name), l.ty);
    }
    unique(
        errs,
        &format!("{ctx}: local"),
        f.locals.iter().map(|l| l.name.as_str()),
    );
    for l in [f.entry, f.exit, f.err, f.halt] {
        if l.0 >= f.num_locs {
            errs.push(format!("{ctx}: special location {l} is out of range"));
        }
    }
    let distinct: HashSet<Loc> = [f.entry, f.exit, f.err, f.halt].into_iter().collect();
    if distinct.len() != 4 {
        errs.push(format!(
            "{ctx}: entry, exit, err and halt must be distinct locations"
        ));
    }
    for prm in &f.params {
        if prm.index() >= f.locals.len() {
            errs.push(format!("{ctx}: parameter {prm} is not a local"));
        }
    }
    if let Some(r) = f.ret {
        if r.index() >= f.locals.len() {
            errs.push(format!("{ctx}: return variable {r} is not a local"));
        }
    }
    verify_frame_allocs(errs, &ctx, f);
    verify_no_dead_ends(errs, &ctx, f);
    let env = p.env(f);
    for e in &f.edges {
        let at = format!("{ctx}: edge {} -> {}", e.from, e.to);
        if e.from.0 >= f.num_locs || e.to.0 >= f.num_locs {
            errs.push(format!("{at}: location out of range"));
            continue;
        }
        if f.is_final(e.from) {
            errs.push(format!("{at}: leaves a final location"));
        }
        let is_error = matches!(e.op, Op::Error(_));
        if is_error != (e.to == f.err) {
            errs.push(format!(
                "{at}: only error edges may enter err, and they must"
            ));
        }
        let is_halt = matches!(e.op, Op::Halt(_));
        if is_halt != (e.to == f.halt) {
            errs.push(format!(
                "{at}: only halt edges may enter halt, and they must"
            ));
        }
        let mut vars_ok = true;
        let mut check_var = |v: VarRef| match v {
            VarRef::Local(l) if l.index() >= f.locals.len() => vars_ok = false,
            VarRef::Global(g) if g.index() >= p.globals.len() => vars_ok = false,
            _ => {}
        };
        e.op.exprs(&mut |x| x.vars().into_iter().for_each(&mut check_var));
        if let Some(d) = e.op.def() {
            check_var(d);
        }
        if !vars_ok {
            errs.push(format!("{at}: refers to a variable that does not exist"));
            continue;
        }
        let ptr = p.pointer_ty();
        let mut type_errs = Vec::new();
        let mut ty = |x: &Expr| check_expr(&mut type_errs, p, &env, x, &at);
        match &e.op {
            Op::Skip | Op::HavocMemory | Op::HavocContents | Op::Halt(None) | Op::Havoc(..) => {}
            Op::Assign(d, x) => {
                let t = ty(x);
                if t.is_some() && t != Some(env.var_ty(*d)) {
                    errs.push(format!(
                        "{at}: assigns {t:?} to a variable of type {}",
                        env.var_ty(*d)
                    ));
                }
            }
            Op::Assume(c) => {
                if ty(c).is_some_and(|t| t != Ty::Bool) {
                    errs.push(format!("{at}: assumption is not a bool"));
                }
            }
            Op::NoWrap(c) => {
                if ty(c).is_some_and(|t| t != Ty::Bool) {
                    errs.push(format!("{at}: nowrap condition is not a bool"));
                }
            }
            Op::Store { ty: t, addr, value } => {
                let (a, v) = (ty(addr), ty(value));
                if a.is_some_and(|a| a != ptr) || v.is_some_and(|v| v != *t) || !is_byte_int(*t) {
                    errs.push(format!("{at}: ill-typed store"));
                }
            }
            Op::Alloc { dst, size, .. } => {
                if ty(size).is_some_and(|s| s != ptr) || env.var_ty(*dst) != ptr {
                    errs.push(format!(
                        "{at}: alloc size and result must be pointer-sized ints"
                    ));
                }
            }
            Op::Free(a) => {
                if ty(a).is_some_and(|a| a != ptr) {
                    errs.push(format!("{at}: free of a non-pointer"));
                }
            }
            Op::MemCopy { dst, src, len } => {
                if [ty(dst), ty(src), ty(len)]
                    .iter()
                    .any(|t| t.is_some_and(|t| t != ptr))
                {
                    errs.push(format!("{at}: memcpy operands must be pointer-sized ints"));
                }
            }
            Op::HavocBytes { dst, len } => {
                if [ty(dst), ty(len)]
                    .iter()
                    .any(|t| t.is_some_and(|t| t != ptr))
                {
                    errs.push(format!(
                        "{at}: havoc_bytes takes (pointer, pointer-sized length)"
                    ));
                }
            }
            Op::MemSet { dst, byte, len } => {
                if [ty(dst), ty(len)]
                    .iter()
                    .any(|t| t.is_some_and(|t| t != ptr))
                    || ty(byte).is_some_and(|b| b != Ty::I8)
                {
                    errs.push(format!(
                        "{at}: memset takes (pointer, i8, pointer-sized length)"
                    ));
                }
            }
            Op::Halt(Some(c)) => {
                if ty(c).is_some_and(|t| !t.is_int()) {
                    errs.push(format!("{at}: exit code must be an int"));
                }
            }
            Op::Call { dst, callee, args } => {
                let Some(g) = p.functions.get(callee.index()) else {
                    errs.push(format!("{at}: calls a missing function"));
                    continue;
                };
                if args.len() != g.params.len() {
                    errs.push(format!(
                        "{at}: @{} takes {} arguments, given {}",
                        g.name,
                        g.params.len(),
                        args.len()
                    ));
                }
                for (a, prm) in args.iter().zip(&g.params) {
                    let want = g.locals.get(prm.index()).map(|l| l.ty);
                    let t = ty(a);
                    if t.is_some() && t != want {
                        errs.push(format!(
                            "{at}: argument of type {t:?} for a parameter of type {want:?}"
                        ));
                    }
                }
                if let Some(d) = dst {
                    match g.ret.and_then(|r| g.locals.get(r.index())) {
                        Some(r) if r.ty == env.var_ty(*d) => {}
                        _ => errs.push(format!(
                            "{at}: result of @{} does not fit the destination",
                            g.name
                        )),
                    }
                }
            }
            Op::Error(a) => match p.assertions.get(a.index()) {
                Some(asr) if asr.func == fid => {}
                Some(_) => errs.push(format!("{at}: assertion {a} belongs to another function")),
                None => errs.push(format!("{at}: assertion {a} does not exist")),
            },
        }
        errs.extend(type_errs);
    }
}

/// Every location a run can reach from `entry`, other than `exit`, `err` and `halt`, has an
/// outgoing edge. A run blocks only where an `assume` says so: a location without any edge
/// would silently block every run through it (a function whose lowering forgot its way to
/// `exit` makes everything after each call "unreachable", and a TRUE from that is unsound).
fn verify_no_dead_ends(errs: &mut Vec<String>, ctx: &str, f: &Function) {
    let n = f.num_locs as usize;
    if f.entry.index() >= n
        || f.edges
            .iter()
            .any(|e| e.from.index() >= n || e.to.index() >= n)
    {
        return; // reported elsewhere
    }
    let mut has_out = vec![false; n];
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in &f.edges {
        has_out[e.from.index()] = true;
        succ[e.from.index()].push(e.to.index());
    }
    let mut seen = vec![false; n];
    let mut stack = vec![f.entry.index()];
    seen[f.entry.index()] = true;
    while let Some(l) = stack.pop() {
        if !has_out[l] && !f.is_final(Loc(l as u32)) {
            errs.push(format!(
                "{ctx}: location L{l} is reachable from entry but has no outgoing edge (runs would block there)"
            ));
        }
        for &t in &succ[l] {
            if !seen[t] {
                seen[t] = true;
                stack.push(t);
            }
        }
    }
}

fn is_byte_int(t: Ty) -> bool {
    matches!(t, Ty::Int(w) if w % 8 == 0 && (8..=64).contains(&w))
}

/// The type of `e`, or `None` after recording why it is ill-typed.
fn check_expr(
    errs: &mut Vec<String>,
    p: &Program,
    env: &dyn TypeEnv,
    e: &Expr,
    at: &str,
) -> Option<Ty> {
    let mut bad = |msg: String| {
        errs.push(format!(
            "{at}: {msg} in {}",
            crate::print::expr_str(p, None, e)
        ));
        None
    };
    match e {
        Expr::Const { ty, value } => {
            if matches!(ty, Ty::Int(w) if *w == 0 || *w > 64)
                || matches!(ty, Ty::Float(w) if !float_width_ok(*w))
            {
                return bad(format!("constant of type {ty}"));
            }
            if *value & !ty.mask() != 0 {
                return bad(format!("constant {value} does not fit {ty}"));
            }
            Some(*ty)
        }
        Expr::Var(v) => Some(env.var_ty(*v)),
        Expr::ObjAddr(o) => {
            if p.object(*o).is_none() {
                return bad(format!("object {o} does not exist"));
            }
            Some(env.pointer_ty())
        }
        Expr::Unary(op, a) => {
            let t = check_expr(errs, p, env, a, at)?;
            match (op, t) {
                (UnOp::Neg, Ty::Bool) => {
                    errs.push(format!("{at}: neg of a bool"));
                    None
                }
                (_, Ty::Float(_)) => {
                    errs.push(format!(
                        "{at}: int operator on a float (use fneg, fptobits)"
                    ));
                    None
                }
                _ => Some(t),
            }
        }
        Expr::Binary(op, a, b) => {
            let ta = check_expr(errs, p, env, a, at)?;
            let tb = check_expr(errs, p, env, b, at)?;
            if ta != tb {
                errs.push(format!("{at}: {} of {ta} and {tb}", op.name()));
                return None;
            }
            if ta == Ty::Bool && !op.accepts_bool() {
                errs.push(format!("{at}: {} of bools", op.name()));
                return None;
            }
            if ta.is_float() {
                // Bit-pattern equality is not IEEE equality (NaN, -0): floats use FpOp.
                errs.push(format!(
                    "{at}: {} of floats (use the f* operators)",
                    op.name()
                ));
                return None;
            }
            Some(if op.is_comparison() { Ty::Bool } else { ta })
        }
        Expr::Cast(op, to, a) => {
            let from = check_expr(errs, p, env, a, at)?;
            let ok = to.bits() <= 64
                && match (op, from, *to) {
                    (CastOp::Zext | CastOp::Sext, Ty::Int(f), Ty::Int(t)) => t >= f,
                    (CastOp::Trunc, Ty::Int(f), Ty::Int(t)) => t <= f,
                    _ => false,
                };
            if !ok {
                errs.push(format!("{at}: {}.{} of {from}", op.name(), to));
                return None;
            }
            Some(*to)
        }
        Expr::Ite(c, a, b) => {
            let tc = check_expr(errs, p, env, c, at)?;
            let ta = check_expr(errs, p, env, a, at)?;
            let tb = check_expr(errs, p, env, b, at)?;
            if tc != Ty::Bool || ta != tb {
                errs.push(format!("{at}: ill-typed ite"));
                return None;
            }
            Some(ta)
        }
        Expr::Load(t, a) => {
            let ta = check_expr(errs, p, env, a, at)?;
            if ta != env.pointer_ty() || !is_byte_int(*t) {
                errs.push(format!("{at}: ill-typed load"));
                return None;
            }
            Some(*t)
        }
        Expr::Valid(k, n, a) => {
            let ta = check_expr(errs, p, env, a, at)?;
            // `freeable.0`: the start of an object of any size (`malloc(0)`'s too);
            // `readable.0`: into or just past a live object (a pointer that may be used).
            if ta != env.pointer_ty() || (*n == 0 && *k == crate::Access::Write) {
                errs.push(format!("{at}: ill-typed valid"));
                return None;
            }
            Some(Ty::Bool)
        }
        Expr::Fp(op, args) => {
            let mut tys = Vec::new();
            for a in args {
                tys.push(check_expr(errs, p, env, a, at)?);
            }
            if tys.len() != op.arity() {
                errs.push(format!(
                    "{at}: {} takes {} operand(s), found {}",
                    op.name(),
                    op.arity(),
                    tys.len()
                ));
                return None;
            }
            let t = tys[0];
            if tys.iter().any(|x| *x != t) {
                errs.push(format!("{at}: {} of different types", op.name()));
                return None;
            }
            let operand_ok = match op {
                FpOp::FromSInt { .. } | FpOp::FromUInt { .. } => {
                    matches!(t, Ty::Int(w) if (1..=64).contains(&w))
                }
                FpOp::FromBits => matches!(t, Ty::Int(w) if float_width_ok(w)),
                _ => matches!(t, Ty::Float(w) if float_width_ok(w)),
            };
            let target_ok = match *op {
                FpOp::ToSInt { to } | FpOp::ToUInt { to } => (1..=64).contains(&to),
                FpOp::Convert { to, .. }
                | FpOp::FromSInt { to, .. }
                | FpOp::FromUInt { to, .. } => float_width_ok(to),
                _ => true,
            };
            if !operand_ok || !target_ok {
                errs.push(format!("{at}: {} of {t}", crate::print::fp_op_name(*op)));
                return None;
            }
            Some(op.result_ty(t))
        }
    }
}
