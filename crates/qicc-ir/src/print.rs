//! The IR's text format (printer). The grammar is documented in `ARCHITECTURE.md` and is
//! read back by [`crate::parse`]; `parse(print(p)) == p` for every well-formed program.
//!
//! ```text
//! qicc-ir 1
//! data-model ilp32 object-bits 8
//! file 0 "t.c"
//! object @a size 400 zeroed !0:3:5
//! global $g: i32 = 0:i32
//! assertion #0 verifier_assert in @main !0:9:3 "x < 10"
//! entry @main
//!
//! fn @main() -> %ret !0:5:1 {
//!   local %ret: i32
//!   local %x: i32
//!   locs 7 entry L0 exit L1 err L2 halt L3
//!   L0 -> L4: %x := 0:i32 !0:6:7
//!   L4 -> L5: assume slt(%x, 10:i32) !0:7:10
//! }
//! ```
//!
//! Float constants print as Rust's shortest round-tripping decimal (`0.1:f32`, `-0.0:f64`,
//! `inf:f32`), the default NaN as `nan:f64`, any other NaN as its bits (`0x7fc00001:f32`): the
//! parser reads each back to the same bits.

use crate::expr::{Expr, VarRef};
use crate::program::*;
use crate::semantics::to_signed;
use crate::types::Ty;
use std::fmt::Write;

/// Prints a whole program.
pub fn print_program(p: &Program) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "qicc-ir 1");
    let _ = writeln!(
        out,
        "data-model {} object-bits {}",
        p.data_model.name(),
        p.layout.object_bits
    );
    for (i, f) in p.files.iter().enumerate() {
        let _ = writeln!(out, "file {i} {}", quote(f.as_bytes()));
    }
    for o in &p.objects {
        let _ = write!(out, "object @{} size {}", o.name, o.size);
        if o.readonly {
            out.push_str(" readonly");
        }
        if o.zeroed {
            out.push_str(" zeroed");
        }
        for item in &o.init {
            match item {
                InitItem::Bytes { offset, bytes } => {
                    let _ = write!(out, " bytes {offset} {}", quote(bytes));
                }
                InitItem::Value { offset, value } => {
                    let _ = write!(out, " value {offset} {}", expr_str(p, None, value));
                }
            }
        }
        out.push_str(&span_suffix(o.span));
        out.push('\n');
    }
    for g in &p.globals {
        let _ = write!(out, "global ${}: {}", g.name, g.ty);
        if g.unsigned {
            out.push_str(" unsigned");
        }
        if let Some(init) = &g.init {
            let _ = write!(out, " = {}", expr_str(p, None, init));
        }
        out.push_str(&span_suffix(g.span));
        out.push('\n');
    }
    for (i, a) in p.assertions.iter().enumerate() {
        let fname = p
            .functions
            .get(a.func.index())
            .map(|f| f.name.as_str())
            .unwrap_or("?");
        let _ = write!(
            out,
            "assertion #{i} {} in @{fname}{}",
            a.kind.name(),
            span_suffix(a.span)
        );
        if let Some(text) = &a.text {
            let _ = write!(out, " {}", quote(text.as_bytes()));
        }
        out.push('\n');
    }
    if let Some(f) = p.functions.get(p.entry.index()) {
        let _ = writeln!(out, "entry @{}", f.name);
    }
    for f in &p.functions {
        out.push('\n');
        out.push_str(&print_function(p, f));
    }
    out
}

/// Prints one function.
pub fn print_function(p: &Program, f: &Function) -> String {
    let mut out = String::new();
    let params: Vec<String> = f
        .params
        .iter()
        .map(|l| format!("%{}", f.local(*l).name))
        .collect();
    let _ = write!(out, "fn @{}({})", f.name, params.join(", "));
    if let Some(r) = f.ret {
        let _ = write!(out, " -> %{}", f.local(r).name);
    }
    let _ = writeln!(out, "{} {{", span_suffix(f.span));
    for l in &f.locals {
        let _ = writeln!(
            out,
            "  local %{}: {}{}",
            l.name,
            l.ty,
            if l.unsigned { " unsigned" } else { "" }
        );
    }
    let _ = writeln!(
        out,
        "  locs {} entry {} exit {} err {} halt {}",
        f.num_locs, f.entry, f.exit, f.err, f.halt
    );
    for e in &f.edges {
        let _ = writeln!(
            out,
            "  {} -> {}: {}{}",
            e.from,
            e.to,
            op_str(p, f, &e.op),
            span_suffix(e.span)
        );
    }
    out.push_str("}\n");
    out
}

fn span_suffix(s: Span) -> String {
    if s.is_known() {
        format!(" !{}:{}:{}", s.file, s.line, s.col)
    } else {
        String::new()
    }
}

/// A quoted string with C-like escapes for bytes outside printable ASCII.
pub fn quote(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}

fn var_name(p: &Program, f: Option<&Function>, v: VarRef) -> String {
    match v {
        VarRef::Local(l) => match f.and_then(|f| f.locals.get(l.index())) {
            Some(local) => format!("%{}", local.name),
            None => format!("%?{}", l.0),
        },
        VarRef::Global(g) => match p.globals.get(g.index()) {
            Some(global) => format!("${}", global.name),
            None => format!("$?{}", g.0),
        },
    }
}

/// Prints an expression; `f` gives the names of locals (none for global initialisers).
pub fn expr_str(p: &Program, f: Option<&Function>, e: &Expr) -> String {
    let mut s = String::new();
    write_expr(&mut s, p, f, e);
    s
}

fn write_const(s: &mut String, ty: Ty, value: u64) {
    match ty {
        Ty::Bool => s.push_str(if value != 0 { "true" } else { "false" }),
        Ty::Int(w) => {
            let signed = to_signed(value, w);
            if signed < 0 {
                let _ = write!(s, "{signed}:{ty}");
            } else {
                let _ = write!(s, "{value}:{ty}");
            }
        }
        Ty::Float(w) => {
            let f = crate::semantics::float::Format::of(w);
            if f.is_nan(value) && value != f.nan() {
                // A NaN other than the default one: only its bits say which.
                let _ = write!(s, "0x{value:x}:{ty}");
            } else {
                // Rust's shortest round-tripping decimal (or inf/-inf/nan): parses back to
                // the same bits.
                let _ = write!(s, "{}:{ty}", crate::semantics::float::display(w, value));
            }
        }
    }
}

fn write_expr(s: &mut String, p: &Program, f: Option<&Function>, e: &Expr) {
    match e {
        Expr::Const { ty, value } => write_const(s, *ty, *value),
        Expr::Var(v) => s.push_str(&var_name(p, f, *v)),
        Expr::ObjAddr(o) => match p.object(*o) {
            Some(obj) => {
                let _ = write!(s, "@{}", obj.name);
            }
            None => {
                let _ = write!(s, "@?{}", o.0);
            }
        },
        Expr::Unary(op, a) => {
            s.push_str(match op {
                crate::UnOp::Neg => "neg(",
                crate::UnOp::Not => "not(",
            });
            write_expr(s, p, f, a);
            s.push(')');
        }
        Expr::Binary(op, a, b) => {
            s.push_str(op.name());
            s.push('(');
            write_expr(s, p, f, a);
            s.push_str(", ");
            write_expr(s, p, f, b);
            s.push(')');
        }
        Expr::Cast(op, ty, a) => {
            let _ = write!(s, "{}.{}(", op.name(), ty);
            write_expr(s, p, f, a);
            s.push(')');
        }
        Expr::Ite(c, a, b) => {
            s.push_str("ite(");
            write_expr(s, p, f, c);
            s.push_str(", ");
            write_expr(s, p, f, a);
            s.push_str(", ");
            write_expr(s, p, f, b);
            s.push(')');
        }
        Expr::Load(ty, a) => {
            let _ = write!(s, "load.{ty}(");
            write_expr(s, p, f, a);
            s.push(')');
        }
        Expr::Valid(k, n, a) => {
            let _ = write!(s, "{}.{n}(", k.op_name());
            write_expr(s, p, f, a);
            s.push(')');
        }
        Expr::Fp(op, args) => {
            s.push_str(&fp_op_name(*op));
            s.push('(');
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    s.push_str(", ");
                }
                write_expr(s, p, f, a);
            }
            s.push(')');
        }
    }
}

/// A float operator's text-format name: `name[.rm][.fW|.iW]`, e.g. `fadd.rne`,
/// `fconv.rtz.f32`, `fptosi.i32`, `sitofp.rne.f64`.
pub fn fp_op_name(op: crate::FpOp) -> String {
    let mut s = op.name().to_string();
    if let Some(rm) = op.rounding_mode() {
        s.push('.');
        s.push_str(rm.name());
    }
    if let Some(w) = op.target_width() {
        let ty = match op {
            crate::FpOp::ToSInt { .. } | crate::FpOp::ToUInt { .. } => Ty::Int(w),
            _ => Ty::Float(w),
        };
        let _ = write!(s, ".{ty}");
    }
    s
}

/// Prints an edge's operation.
pub fn op_str(p: &Program, f: &Function, op: &Op) -> String {
    let e = |x: &Expr| expr_str(p, Some(f), x);
    let v = |x: VarRef| var_name(p, Some(f), x);
    match op {
        Op::Skip => "skip".into(),
        Op::Assign(d, x) => format!("{} := {}", v(*d), e(x)),
        Op::Assume(c) => format!("assume {}", e(c)),
        Op::NoWrap(c) => format!("nowrap {}", e(c)),
        Op::Havoc(d, kind) => match kind {
            HavocKind::Nondet(name) => format!("havoc {} nondet {}", v(*d), quote(name.as_bytes())),
            HavocKind::Uninit => format!("havoc {} uninit", v(*d)),
            HavocKind::Extern(name) => format!("havoc {} extern {}", v(*d), quote(name.as_bytes())),
            HavocKind::Platform(name) => {
                format!("havoc {} platform {}", v(*d), quote(name.as_bytes()))
            }
            HavocKind::Applied {
                name,
                args,
                reads_memory,
            } => format!(
                "havoc {} {} {}({})",
                v(*d),
                if *reads_memory { "pure" } else { "const" },
                quote(name.as_bytes()),
                args.iter().map(e).collect::<Vec<_>>().join(", ")
            ),
            HavocKind::Region => format!("havoc {} region", v(*d)),
        },
        Op::Store { ty, addr, value } => format!("store.{ty} {}, {}", e(addr), e(value)),
        Op::Alloc { dst, size, kind } => {
            let k = match kind {
                AllocKind::Frame => "frame",
                AllocKind::Stack => "stack",
                AllocKind::Heap => "heap",
            };
            format!("{} := alloc.{k}({})", v(*dst), e(size))
        }
        Op::Free(a) => format!("free({})", e(a)),
        Op::MemCopy { dst, src, len } => format!("memcpy({}, {}, {})", e(dst), e(src), e(len)),
        Op::MemSet { dst, byte, len } => format!("memset({}, {}, {})", e(dst), e(byte), e(len)),
        Op::HavocMemory => "havoc_memory".into(),
        Op::HavocContents => "havoc_contents".into(),
        Op::HavocBytes { dst, len } => format!("havoc_bytes({}, {})", e(dst), e(len)),
        Op::Call { dst, callee, args } => {
            let name = p
                .functions
                .get(callee.index())
                .map(|g| g.name.as_str())
                .unwrap_or("?");
            let args: Vec<String> = args.iter().map(e).collect();
            match dst {
                Some(d) => format!("{} := call @{name}({})", v(*d), args.join(", ")),
                None => format!("call @{name}({})", args.join(", ")),
            }
        }
        Op::Error(a) => format!("error {a}"),
        Op::Halt(None) => "halt".into(),
        Op::Halt(Some(c)) => format!("halt({})", e(c)),
    }
}
