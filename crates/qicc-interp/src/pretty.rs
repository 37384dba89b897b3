//! How traces show names, values and expressions to a C programmer.
//!
//! - Names: front-end temporaries (`tmp.N`) are hidden by the caller; a shadowing copy `x.3`
//!   shows as `x`.
//! - Values: decimal; negative (two's complement, top bit set) values also in hex, as are
//!   values above 0xffff; a pointer-width value whose object part names an object known at
//!   that point of the run shows as `&name + offset` (byte offset) with the hex value.
//! - Expressions: C operators with C precedence; casts are invisible; a load is named as C
//!   names it where the source types allow (`a[i].next`, `p->len`, `buf[i + 1]`: a base, at
//!   most one index scaled by its element size, a constant offset), else `*(address)`; a
//!   constant compared with a character reads as a character literal (`s[i] != '/'`).

use qicc_ir::debug::{DebugType, IntShow};
use qicc_ir::semantics::to_signed;
use qicc_ir::DebugTypeId;
use qicc_ir::{BinOp, Expr, FpOp, Function, Program, RoundingMode, Ty, UnOp, VarRef};
use std::collections::HashMap;

/// Whether a variable name is a front-end temporary.
pub(crate) fn is_temp(name: &str) -> bool {
    name.starts_with("tmp.")
}

/// The name a user wrote: `x.3` (the 3rd shadowing `x`) shows as `x`; `pointee.b`, the
/// object a `--function` entry makes for pointer parameter `b`, as `(*b)`.
pub(crate) fn display_name(name: &str) -> std::borrow::Cow<'_, str> {
    if let Some(p) = name.strip_prefix("pointee.") {
        return format!("(*{p})").into();
    }
    match name.rsplit_once('.') {
        Some((head, tail))
            if !head.is_empty() && !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head.into()
        }
        _ => name.into(),
    }
}

/// The raw name of a variable of `f` (or a global).
pub(crate) fn var_name<'a>(p: &'a Program, f: &'a Function, v: VarRef) -> &'a str {
    match v {
        VarRef::Local(l) => f.locals.get(l.index()).map_or("?", |l| l.name.as_str()),
        VarRef::Global(g) => p.globals.get(g.index()).map_or("?", |g| g.name.as_str()),
    }
}

/// Whether C declared the variable unsigned (its values are shown unsigned).
pub(crate) fn var_unsigned(p: &Program, f: &Function, v: VarRef) -> bool {
    match v {
        VarRef::Local(l) => f.locals.get(l.index()).is_some_and(|l| l.unsigned),
        VarRef::Global(g) => p.globals.get(g.index()).is_some_and(|g| g.unsigned),
    }
}

/// The source type of a variable of `f` (or a global), when the front-end recorded one.
pub(crate) fn var_debug(p: &Program, f: &Function, v: VarRef) -> Option<DebugTypeId> {
    match v {
        VarRef::Local(l) => f.locals.get(l.index()).and_then(|l| l.debug_type),
        VarRef::Global(g) => p.debug_types.globals.get(&g.0).copied(),
    }
}

pub(crate) fn var_ty(p: &Program, f: &Function, v: VarRef) -> Ty {
    match v {
        VarRef::Local(l) => f.locals.get(l.index()).map_or(Ty::I64, |l| l.ty),
        VarRef::Global(g) => p.globals.get(g.index()).map_or(Ty::I64, |g| g.ty),
    }
}

/// Names of the objects known so far in a run: static ones by their declaration, dynamic
/// ones as the trace names them when they are allocated.
pub(crate) struct ObjectNames<'p> {
    program: &'p Program,
    dynamic: HashMap<u32, String>,
    /// The source types of dynamic objects that have one: a variable's stack object; a heap
    /// object, once a pointer of known type points at its start (`count` elements of it).
    dynamic_types: HashMap<u32, (DebugTypeId, Option<u64>)>,
    /// The sizes of heap objects not typed yet.
    untyped_heap: HashMap<u32, u64>,
}

impl<'p> ObjectNames<'p> {
    pub(crate) fn new(program: &'p Program) -> ObjectNames<'p> {
        ObjectNames {
            program,
            dynamic: HashMap::new(),
            dynamic_types: HashMap::new(),
            untyped_heap: HashMap::new(),
        }
    }

    pub(crate) fn name(&self, obj: u32) -> Option<&str> {
        if obj == 0 {
            return None;
        }
        match self.program.object(qicc_ir::ObjectId(obj)) {
            Some(o) => Some(o.name.as_str()),
            None => self.dynamic.get(&obj).map(String::as_str),
        }
    }

    pub(crate) fn is_taken(&self, name: &str) -> bool {
        self.program.objects.iter().any(|o| o.name == name)
            || self.dynamic.values().any(|n| n == name)
    }

    pub(crate) fn add(&mut self, obj: u32, name: String, ty: Option<DebugTypeId>) {
        self.dynamic.insert(obj, name);
        match ty {
            Some(t) => self.dynamic_types.insert(obj, (t, None)),
            None => self.dynamic_types.remove(&obj),
        };
    }

    /// A new heap object of `size` bytes: typed when a pointer of known type first points at
    /// its start ([`ObjectNames::saw_pointer`]).
    pub(crate) fn add_heap(&mut self, obj: u32, name: String, size: u64) {
        self.add(obj, name, None);
        self.untyped_heap.insert(obj, size);
    }

    /// `v` was assigned or stored as a value of source type `ty`: a pointer to `T` at the start
    /// of an untyped heap object makes it an array of `T` (one `T`: the object itself).
    pub(crate) fn saw_pointer(&mut self, v: u64, ty: Option<DebugTypeId>) {
        let dt = &self.program.debug_types;
        let Some(DebugType::Pointer { to: Some(to), .. }) = ty.and_then(|t| dt.get(t)) else {
            return;
        };
        let layout = self.program.layout;
        let obj = layout.object_of(v);
        if layout.offset_of(v) != 0 {
            return;
        }
        let (Some(size), Some(elem)) = (self.untyped_heap.get(&obj), dt.size(*to)) else {
            return;
        };
        if elem == 0 || size % elem != 0 || *size == 0 {
            return;
        }
        let count = (*size != elem).then_some(size / elem);
        self.dynamic_types.insert(obj, (*to, count));
        self.untyped_heap.remove(&obj);
    }

    /// Where `offset` (an access of `bytes` bytes, or a position) is in object `obj`, when the
    /// object's source type is known.
    fn typed_place(
        &self,
        obj: u32,
        offset: u64,
        bytes: Option<u64>,
    ) -> Option<qicc_ir::debug::Place> {
        let dt = &self.program.debug_types;
        let (ty, count) = match self.program.object(qicc_ir::ObjectId(obj)) {
            Some(_) => (*dt.objects.get(&obj)?, None),
            None => *self.dynamic_types.get(&obj)?,
        };
        let Some(n) = count else {
            return Some(dt.place(ty, offset, bytes));
        };
        // A heap array of `n` elements of `ty`.
        let elem = dt.size(ty).filter(|e| *e > 0)?;
        let i = offset / elem;
        if i > n || i == n && (bytes.is_some() || offset % elem != 0) {
            return None;
        }
        let inner = dt.place(ty, offset % elem, bytes);
        Some(qicc_ir::debug::Place {
            path: format!("[{i}]{}", inner.path),
            ..inner
        })
    }

    /// `(name, offset)` of an address inside a known object.
    pub(crate) fn place(&self, addr: u64) -> Option<(&str, u64)> {
        let layout = self.program.layout;
        self.name(layout.object_of(addr))
            .map(|n| (n, layout.offset_of(addr)))
    }

    /// `&a[3].x` for an address in a known object of known type; `(char *)&a + 12` where the
    /// address is inside a member, or the object's type is not known.
    pub(crate) fn pointer(&self, addr: u64) -> Option<String> {
        let (n, off) = self.place(addr)?;
        if let Some(lit) = self.string_literal(self.program.layout.object_of(addr)) {
            return Some(match off {
                0 => lit,
                _ => format!("{lit} + {off}"),
            });
        }
        let (path, rest) = match self.typed_place(self.program.layout.object_of(addr), off, None) {
            Some(pl) => (pl.path, pl.rest),
            None => (String::new(), off),
        };
        Some(match rest {
            0 => format!("&{n}{path}"),
            _ => format!("(char *)&{n}{path} + {rest}"),
        })
    }

    /// A string literal's object as C wrote it (`"hi"`), when `obj` is one.
    fn string_literal(&self, obj: u32) -> Option<String> {
        let o = self.program.object(qicc_ir::ObjectId(obj))?;
        if !o.readonly || !o.name.starts_with("str.") {
            return None;
        }
        let [qicc_ir::InitItem::Bytes { offset: 0, bytes }] = &o.init[..] else {
            return None;
        };
        let text = bytes.strip_suffix(&[0]).unwrap_or(bytes);
        let mut lit = String::from("\"");
        for &b in text.iter().take(60) {
            match b {
                b'"' => lit.push_str("\\\""),
                b'\\' => lit.push_str("\\\\"),
                b'\n' => lit.push_str("\\n"),
                b'\t' => lit.push_str("\\t"),
                0x20..=0x7e => lit.push(b as char),
                _ => lit.push_str(&format!("\\x{b:02x}")),
            }
        }
        if text.len() > 60 {
            lit.push_str("...");
        }
        lit.push('"');
        Some(lit)
    }

    /// The memory a `store` of `bytes` bytes at `addr` writes, as an lvalue, and its source
    /// type when it is one whole member: `a[2].name[1]` in an object of known type, `a` for a
    /// whole scalar object, `*(a + 12)` (byte offset) otherwise, `*(0x...)` outside objects.
    pub(crate) fn lvalue(&self, addr: u64, bytes: u32) -> (String, Option<DebugTypeId>) {
        let Some((n, off)) = self.place(addr) else {
            return (format!("*({addr:#x})"), None);
        };
        let dt = &self.program.debug_types;
        let obj = self.program.layout.object_of(addr);
        if let Some(pl) = self.typed_place(obj, off, Some(u64::from(bytes))) {
            let whole = pl.ty.and_then(|t| dt.size(t)) == Some(u64::from(bytes));
            if pl.rest == 0 && whole {
                return (format!("{n}{}", pl.path), pl.ty);
            }
        }
        let lv = match off {
            0 => {
                let whole = self
                    .program
                    .objects
                    .iter()
                    .find(|o| o.name == n)
                    .is_some_and(|o| o.size == bytes as u64);
                if whole {
                    n.to_string()
                } else {
                    format!("*{n}")
                }
            }
            off => format!("*({n} + {off})"),
        };
        (lv, None)
    }

    /// A value shown as its source type says when it is known (`97 ('a')` for a character,
    /// signedness, pointer form), else as [`ObjectNames::value`] does.
    pub(crate) fn typed_value(
        &self,
        v: u64,
        ty: Ty,
        debug: Option<DebugTypeId>,
        unsigned: bool,
    ) -> String {
        match debug.and_then(|d| self.program.debug_types.get(d)) {
            Some(DebugType::Int {
                show: IntShow::Char,
                signed,
                ..
            }) => {
                let shown = self.value(v, ty, !signed);
                match char_literal(v as u8) {
                    Some(c) => format!("{shown} ({c})"),
                    None => shown,
                }
            }
            // An enumerated type's value also by its enumerator's name.
            Some(DebugType::Int { signed, .. }) => {
                self.with_enumerator(self.value(v, ty, !signed), v, debug)
            }
            _ => self.value(v, ty, unsigned),
        }
    }

    /// A value of type `ty` in full: decimal, hex where it helps, pointer form where it names
    /// a known object.
    pub(crate) fn value(&self, v: u64, ty: Ty, unsigned: bool) -> String {
        match ty {
            Ty::Bool => (v != 0).to_string(),
            Ty::Int(w) => {
                if w == self.program.layout.pointer_bits {
                    if let Some(p) = self.pointer(v) {
                        return format!("{p} ({v:#x})");
                    }
                }
                let s = to_signed(v, w);
                if unsigned {
                    if v > 0xffff {
                        format!("{v} ({v:#x})")
                    } else {
                        v.to_string()
                    }
                } else if s < 0 || v > 0xffff {
                    format!("{s} ({v:#x})")
                } else {
                    v.to_string()
                }
            }
            // Readable and exact: `1.5 (0x3fc00000)`, `-0.0 (0x80000000)`, `nan (0x7fc00000)`.
            Ty::Float(w) => format!("{} ({v:#x})", float_display(w, v)),
        }
    }

    /// An unsigned value in short form: pointer form or unsigned decimal.
    pub(crate) fn short_unsigned(&self, v: u64, ty: Ty) -> String {
        match ty {
            Ty::Bool => (v != 0).to_string(),
            Ty::Int(w) if w == self.program.layout.pointer_bits => {
                self.pointer(v).unwrap_or_else(|| v.to_string())
            }
            Ty::Int(_) => v.to_string(),
            Ty::Float(w) => float_display(w, v),
        }
    }

    /// A value in short form (call arguments and the like): pointer form or signed decimal.
    pub(crate) fn short_value(&self, v: u64, ty: Ty) -> String {
        match ty {
            Ty::Bool => (v != 0).to_string(),
            Ty::Int(w) => {
                if w == self.program.layout.pointer_bits {
                    if let Some(p) = self.pointer(v) {
                        return p;
                    }
                }
                to_signed(v, w).to_string()
            }
            Ty::Float(w) => float_display(w, v),
        }
    }

    /// `shown` followed by the enumerator's name when `debug` is an enumerated type.
    pub(crate) fn with_enumerator(
        &self,
        shown: String,
        v: u64,
        debug: Option<DebugTypeId>,
    ) -> String {
        let Some(DebugType::Int {
            show: IntShow::Enum(e),
            signed,
            bytes,
        }) = debug.and_then(|d| self.program.debug_types.get(d))
        else {
            return shown;
        };
        let n = if *signed {
            to_signed(v, u16::from(*bytes) * 8)
        } else {
            v as i64
        };
        match self.program.debug_types.enumerator(*e, n) {
            Some(name) => format!("{shown} ({name})"),
            None => shown,
        }
    }
}

/// A byte as a C character literal, when it is a printable one or a common escape.
fn char_literal(b: u8) -> Option<String> {
    Some(match b {
        b'\'' => "'\\''".to_string(),
        b'\\' => "'\\\\'".to_string(),
        0x20..=0x7e => format!("'{}'", b as char),
        0 => "'\\0'".to_string(),
        b'\n' => "'\\n'".to_string(),
        b'\t' => "'\\t'".to_string(),
        b'\r' => "'\\r'".to_string(),
        _ => return None,
    })
}

/// A float value for people (`1.5`, `-0.0`, `inf`, `nan`); the one rendering is
/// `qicc_ir::semantics::float::display`.
fn float_display(bits: u16, v: u64) -> String {
    qicc_ir::semantics::float::display(bits, v)
}

/// Whether `__VERIFIER_nondet_<t>` returns a signed C type (`int`, `long`, `char`, ...);
/// unsigned types, `bool`, pointers and `size_t` are not.
pub(crate) fn nondet_is_signed(function: &str) -> bool {
    let t = qicc_ir::input_function_type(function).unwrap_or(function);
    !(t.starts_with('u')
        || matches!(
            t,
            "bool" | "_Bool" | "pointer" | "pchar" | "size_t" | "charp"
        ))
}

/// An input's value as the C program sees it: decimal in the input type's signedness.
pub(crate) fn input_decimal(v: u64, ty: Ty, signed: bool) -> String {
    match ty {
        Ty::Bool => (v != 0).to_string(),
        Ty::Int(w) if signed => to_signed(v, w).to_string(),
        Ty::Int(_) => v.to_string(),
        Ty::Float(w) => float_display(w, v),
    }
}

/// An expression in C syntax (names as the user wrote them).
pub(crate) fn c_expr(p: &Program, f: &Function, e: &Expr) -> String {
    CExpr {
        p,
        f,
        env: p.env(f),
    }
    .go(e)
    .0
}

struct CExpr<'a> {
    p: &'a Program,
    f: &'a Function,
    env: qicc_ir::FnEnv<'a>,
}

/// Precedence of a primary expression and of unary operators.
const PRIMARY: u8 = 15;
const UNARY: u8 = 14;
const TERNARY: u8 = 3;

impl CExpr<'_> {
    fn wrap(&self, e: &Expr, need: u8) -> String {
        let (s, prec) = self.go(e);
        if prec < need {
            format!("({s})")
        } else {
            s
        }
    }

    fn object(&self, o: qicc_ir::ObjectId) -> String {
        self.p
            .object(o)
            .map_or_else(|| format!("obj{}", o.0), |o| o.name.clone())
    }

    fn go(&self, e: &Expr) -> (String, u8) {
        match e {
            Expr::Const {
                ty: Ty::Bool,
                value,
            } => ((*value != 0).to_string(), PRIMARY),
            Expr::Const {
                ty: Ty::Int(w),
                value,
            } => {
                let s = to_signed(*value, *w);
                if s < 0 {
                    (s.to_string(), UNARY)
                } else {
                    (value.to_string(), PRIMARY)
                }
            }
            Expr::Const {
                ty: Ty::Float(w),
                value,
            } => {
                let s = float_display(*w, *value);
                let prec = if s.starts_with('-') { UNARY } else { PRIMARY };
                (s, prec)
            }
            Expr::Var(v) => (
                display_name(var_name(self.p, self.f, *v)).to_string(),
                PRIMARY,
            ),
            Expr::ObjAddr(o) => (format!("&{}", self.object(*o)), UNARY),
            Expr::Unary(UnOp::Neg, a) => (format!("-{}", self.wrap(a, UNARY)), UNARY),
            Expr::Unary(UnOp::Not, a) => {
                if a.ty(&self.env) == Ty::Bool {
                    if let Expr::Binary(op, x, y) = &**a {
                        if let Some(flipped) = negated_comparison(*op) {
                            return self.binary(flipped, x, y);
                        }
                    }
                    (format!("!{}", self.wrap(a, UNARY)), UNARY)
                } else {
                    (format!("~{}", self.wrap(a, UNARY)), UNARY)
                }
            }
            Expr::Binary(op, a, b) => {
                let (sym, prec) = binop_c(*op, a.ty(&self.env) == Ty::Bool);
                if prec == 9 || prec == 10 {
                    // A comparison: a character compared with a constant.
                    return self.comparison(sym, prec, a, b);
                }
                let l = self.wrap(a, prec);
                let r = self.wrap(b, prec + 1);
                (format!("{l} {sym} {r}"), prec)
            }
            Expr::Cast(_, _, a) => self.go(a),
            Expr::Ite(c, a, b) => (
                format!(
                    "{} ? {} : {}",
                    self.wrap(c, TERNARY + 1),
                    self.wrap(a, TERNARY),
                    self.wrap(b, TERNARY)
                ),
                TERNARY,
            ),
            Expr::Load(ty, a) => match &**a {
                Expr::ObjAddr(o) => (self.object(*o), PRIMARY),
                _ => match self.load_place(u64::from(ty.bits() / 8), a) {
                    Some((name, _)) => (name, PRIMARY),
                    None => (format!("*{}", self.wrap(a, UNARY)), UNARY),
                },
            },
            Expr::Valid(k, n, a) => (format!("{}({}, {n})", k.op_name(), self.go(a).0), PRIMARY),
            Expr::Fp(op, args) => self.fp(*op, args),
        }
    }

    /// A float operation: C's infix operator where it means the same (round-to-nearest-even
    /// arithmetic, the comparisons), else the IR operator's name as a call.
    fn fp(&self, op: FpOp, args: &[Expr]) -> (String, u8) {
        let infix = match op {
            FpOp::Add(RoundingMode::Rne) => Some(("+", 12)),
            FpOp::Sub(RoundingMode::Rne) => Some(("-", 12)),
            FpOp::Mul(RoundingMode::Rne) => Some(("*", 13)),
            FpOp::Div(RoundingMode::Rne) => Some(("/", 13)),
            FpOp::Eq => Some(("==", 9)),
            FpOp::Ne => Some(("!=", 9)),
            FpOp::Lt => Some(("<", 10)),
            FpOp::Le => Some(("<=", 10)),
            _ => None,
        };
        match (infix, args) {
            (Some((sym, prec)), [a, b]) => {
                let l = self.wrap(a, prec);
                let r = self.wrap(b, prec + 1);
                (format!("{l} {sym} {r}"), prec)
            }
            (_, [a]) if op == FpOp::Neg => (format!("-{}", self.wrap(a, UNARY)), UNARY),
            // Bit casts and conversions are implicit in C's reading of the value.
            (_, [a]) if matches!(op, FpOp::FromBits | FpOp::ToBits | FpOp::Convert { .. }) => {
                self.go(a)
            }
            _ => {
                let args: Vec<String> = args.iter().map(|a| self.go(a).0).collect();
                (
                    format!("{}({})", qicc_ir::print::fp_op_name(op), args.join(", ")),
                    PRIMARY,
                )
            }
        }
    }

    fn binary(&self, op: FlippedCmp, a: &Expr, b: &Expr) -> (String, u8) {
        let (sym, prec) = match op {
            FlippedCmp::Ge => (">=", 10),
            FlippedCmp::Gt => (">", 10),
            FlippedCmp::Ne => ("!=", 9),
            FlippedCmp::Eq => ("==", 9),
        };
        self.comparison(sym, prec, a, b)
    }

    /// `a sym b`, a constant side as a character literal when the other side is a character,
    /// as an enumerator when it is of an enumerated type.
    fn comparison(&self, sym: &str, prec: u8, a: &Expr, b: &Expr) -> (String, u8) {
        let side = |e: &Expr, need: u8, other: &Expr| {
            self.named_constant(e, other)
                .unwrap_or_else(|| self.wrap(e, need))
        };
        let l = side(a, prec, b);
        let r = side(b, prec + 1, a);
        (format!("{l} {sym} {r}"), prec)
    }

    /// Constant `e` as the source writes it, by the type of what it is compared with: a
    /// character literal beside a `char` (a printable one), an enumerator's name beside a
    /// value of an enumerated type (a load or a variable).
    fn named_constant(&self, e: &Expr, other: &Expr) -> Option<String> {
        let Expr::Const {
            ty: Ty::Int(w),
            value,
        } = strip_casts(e)
        else {
            return None;
        };
        let place_ty = match strip_casts(other) {
            Expr::Load(ty, addr) => self.load_place(u64::from(ty.bits() / 8), addr)?.1?,
            Expr::Var(v) => var_debug(self.p, self.f, *v)?,
            _ => return None,
        };
        let v = to_signed(*value, *w);
        match self.p.debug_types.get(place_ty)? {
            DebugType::Int {
                show: IntShow::Char,
                ..
            } => {
                let byte = u8::try_from(v).or_else(|_| u8::try_from(v + 256)).ok()?;
                char_literal(byte)
            }
            DebugType::Int {
                show: IntShow::Enum(id),
                ..
            } => self.p.debug_types.enumerator(*id, v).map(str::to_string),
            _ => None,
        }
    }

    /// Variable `v` as the base of an address, with the type an index steps through: a
    /// local holding its frame object's address (a variable in memory: its source type is
    /// the object's), or a pointer variable (the pointed-to type, `true`); `None` for any
    /// other variable (an index, a cast pointer).
    fn var_base(&self, v: VarRef) -> Option<(String, DebugTypeId, bool)> {
        let t = var_debug(self.p, self.f, v)?;
        let frame = self.f.edges.iter().any(|e| {
            matches!(&e.op, qicc_ir::Op::Alloc { dst, kind: qicc_ir::AllocKind::Frame, .. }
                if *dst == v)
        });
        let name = display_name(var_name(self.p, self.f, v)).to_string();
        match self.p.debug_types.get(t) {
            _ if frame => Some((name, t, false)),
            Some(DebugType::Pointer { to: Some(to), .. }) => Some((name, *to, true)),
            _ => None,
        }
    }

    /// The C lvalue a load of `bytes` bytes at `addr` is, with its source type: a base (an
    /// object's address, a local holding its frame object's, or a pointer variable), at most
    /// one index scaled by the element size there, and a constant offset. `None` when the
    /// source types do not say (IR written by hand, a cast pointer, two indices).
    fn load_place(&self, bytes: u64, addr: &Expr) -> Option<(String, Option<DebugTypeId>)> {
        let dt = &self.p.debug_types;
        let mut terms = Vec::new();
        flatten_add(addr, &mut terms);
        // (name, type, whether the base is a pointer to the type rather than the object)
        let mut base: Option<(String, DebugTypeId, bool)> = None;
        let mut offset: i64 = 0;
        let mut index: Option<(&Expr, u64)> = None;
        for t in terms {
            match t {
                Expr::Const {
                    ty: Ty::Int(w),
                    value,
                } => offset = offset.wrapping_add(to_signed(*value, *w)),
                Expr::ObjAddr(o) if base.is_none() => {
                    base = Some((self.object(*o), *dt.objects.get(&o.0)?, false));
                }
                Expr::Var(v) if base.is_none() && index.is_some() => {
                    base = Some(self.var_base(*v)?)
                }
                Expr::Var(v) if base.is_none() => match self.var_base(*v) {
                    Some(b) => base = Some(b),
                    None => index = Some(scaled(t)),
                },
                other if index.is_none() => index = Some(scaled(other)),
                _ => return None,
            }
        }
        let (name, ty, through_pointer) = base?;
        // The element the index steps over: the pointed-to type, or an array object's element.
        let (head, elem) = if through_pointer {
            (None, ty)
        } else {
            match (index, dt.get(ty)) {
                (Some(_), Some(DebugType::Array { elem, .. })) => (Some(name.clone()), *elem),
                (Some(_), _) => return None,
                (None, _) => {
                    let at = dt.place(ty, u64::try_from(offset).ok()?, Some(bytes));
                    return (at.rest == 0).then(|| (format!("{name}{}", at.path), at.ty));
                }
            }
        };
        let size = i64::try_from(dt.size(elem)?).ok().filter(|s| *s > 0)?;
        let (j, rest) = (offset.div_euclid(size), offset.rem_euclid(size));
        let at = dt.place(elem, rest as u64, Some(bytes));
        if at.rest != 0 {
            return None;
        }
        let subscript = match index {
            Some((x, k)) => {
                if k != size as u64 {
                    return None;
                }
                let x = self.wrap(x, 12);
                match j {
                    0 => x,
                    j if j > 0 => format!("{x} + {j}"),
                    j => format!("{x} - {}", -j),
                }
            }
            None => j.to_string(),
        };
        let text = match head {
            Some(object) => format!("{object}[{subscript}]{}", at.path),
            None if index.is_none() && j == 0 => match at.path.strip_prefix('.') {
                Some(field) => format!("{name}->{field}"),
                None if at.path.is_empty() => format!("*{name}"),
                None => format!("(*{name}){}", at.path),
            },
            None => format!("{name}[{subscript}]{}", at.path),
        };
        Some((text, at.ty))
    }
}

/// `e` without the casts around it.
fn strip_casts(e: &Expr) -> &Expr {
    match e {
        Expr::Cast(_, _, a) => strip_casts(a),
        e => e,
    }
}

/// The terms of a sum (`add` chains, casts around them ignored).
fn flatten_add<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match strip_casts(e) {
        Expr::Binary(BinOp::Add, a, b) => {
            flatten_add(a, out);
            flatten_add(b, out);
        }
        e => out.push(e),
    }
}

/// An index term and its scale: `i * 8`, `8 * i`, `i << 3`, or `i` (scale 1).
fn scaled(e: &Expr) -> (&Expr, u64) {
    let konst = |e: &Expr| match strip_casts(e) {
        Expr::Const {
            ty: Ty::Int(_),
            value,
        } => Some(*value),
        _ => None,
    };
    match e {
        Expr::Binary(BinOp::Mul, a, b) => match (konst(a), konst(b)) {
            (_, Some(k)) => (a, k),
            (Some(k), _) => (b, k),
            _ => (e, 1),
        },
        Expr::Binary(BinOp::Shl, a, b) => match konst(b) {
            Some(s) if s < 64 => (a, 1 << s),
            _ => (e, 1),
        },
        _ => (e, 1),
    }
}

enum FlippedCmp {
    Ge,
    Gt,
    Ne,
    Eq,
}

/// `!(a < b)` reads better as `a >= b`.
fn negated_comparison(op: BinOp) -> Option<FlippedCmp> {
    match op {
        BinOp::Ult | BinOp::Slt => Some(FlippedCmp::Ge),
        BinOp::Ule | BinOp::Sle => Some(FlippedCmp::Gt),
        BinOp::Eq => Some(FlippedCmp::Ne),
        BinOp::Ne => Some(FlippedCmp::Eq),
        _ => None,
    }
}

/// C operator and precedence (higher binds tighter) of a binary operator.
fn binop_c(op: BinOp, on_bools: bool) -> (&'static str, u8) {
    match op {
        BinOp::Or if on_bools => ("||", 4),
        BinOp::And if on_bools => ("&&", 5),
        BinOp::Xor if on_bools => ("!=", 9),
        BinOp::Or => ("|", 6),
        BinOp::Xor => ("^", 7),
        BinOp::And => ("&", 8),
        BinOp::Eq => ("==", 9),
        BinOp::Ne => ("!=", 9),
        BinOp::Ult | BinOp::Slt => ("<", 10),
        BinOp::Ule | BinOp::Sle => ("<=", 10),
        BinOp::Shl => ("<<", 11),
        BinOp::LShr | BinOp::AShr => (">>", 11),
        BinOp::Add => ("+", 12),
        BinOp::Sub => ("-", 12),
        BinOp::Mul => ("*", 13),
        BinOp::UDiv | BinOp::SDiv => ("/", 13),
        BinOp::URem | BinOp::SRem => ("%", 13),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::{parse_program, Op};

    #[test]
    fn names_drop_shadowing_suffixes_only() {
        assert_eq!(display_name("x.3"), "x");
        assert_eq!(display_name("x"), "x");
        assert_eq!(display_name("f.x"), "f.x");
        assert_eq!(display_name("x."), "x.");
        assert_eq!(display_name(".3"), ".3");
        assert!(is_temp("tmp.4") && !is_temp("tmpx"));
    }

    #[test]
    fn nondet_signedness_follows_the_c_type() {
        for f in ["int", "long", "short", "char", "longlong", "loff_t"] {
            assert!(nondet_is_signed(&format!("__VERIFIER_nondet_{f}")), "{f}");
        }
        for f in [
            "uint", "ulong", "ushort", "uchar", "bool", "pointer", "size_t", "unsigned",
        ] {
            assert!(!nondet_is_signed(&format!("__VERIFIER_nondet_{f}")), "{f}");
        }
    }

    #[test]
    fn expressions_print_with_c_precedence() {
        let p = parse_program(
            "data-model ilp32\nobject @a size 8 zeroed\nentry @main\nfn @main() {\n  local %x: i32\n  local %y.2: i32\n  local %b: bool\n\
             locs 4 entry L0 exit L1 err L2 halt L3\n}\n",
        )
        .expect("parses");
        let f = &p.functions[0];
        let show = |text: &str| {
            let q = parse_program(&format!(
                "data-model ilp32\nobject @a size 8 zeroed\nentry @main\nfn @main() {{\n  local %x: i32\n  local %y.2: i32\n  local %b: bool\n\
                 locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: assume {text}\n}}\n"
            ))
            .expect("parses");
            let Op::Assume(e) = &q.functions[0].edges[0].op else {
                unreachable!("an assume edge")
            };
            c_expr(&p, f, e)
        };
        assert_eq!(
            show("slt(mul(add(%x, %y.2), 3:i32), -1:i32)"),
            "(x + y) * 3 < -1"
        );
        assert_eq!(
            show("eq(sub(%x, sub(%y.2, 1:i32)), 0:i32)"),
            "x - (y - 1) == 0"
        );
        assert_eq!(show("not(ult(%x, 10:i32))"), "x >= 10");
        assert_eq!(
            show("or(and(%b, not(%b)), xor(%b, true))"),
            "b && !b || b != true"
        );
        assert_eq!(show("eq(load.i32(@a), zext.i32(trunc.i8(%x)))"), "a == x");
        assert_eq!(show("valid.4(add(@a, 4:i32))"), "valid(&a + 4, 4)");
    }

    /// `struct s { int x; char name[4]; struct s *next; } a[2]; struct s *p; char buf[8];`
    /// (LP64): loads are named through the source types.
    #[test]
    fn loads_are_named_as_c_names_them() {
        let text = |assume: &str| {
            format!(
                "data-model lp64\nobject @a size 32 zeroed\nentry @main\nfn @main() {{\n  local %p: i64\n  \
                 local %i: i64\n  local %buf: i64\n  locs 5 entry L0 exit L1 err L2 halt L3\n  \
                 L0 -> L4: %buf := alloc.frame(8:i64)\n  L4 -> L1: assume {assume}\n}}\n"
            )
        };
        let types = |p: &mut Program| {
            let t = &mut p.debug_types;
            let int = t.add(DebugType::Int {
                bytes: 4,
                signed: true,
                show: IntShow::Number,
            });
            let ch = t.add(DebugType::Int {
                bytes: 1,
                signed: true,
                show: IntShow::Char,
            });
            let name = t.add(DebugType::Array {
                elem: ch,
                elem_size: 1,
                len: Some(4),
            });
            let rec = DebugTypeId(t.types.len() as u32 + 1);
            let ptr = t.add(DebugType::Pointer {
                bytes: 8,
                to: Some(rec),
            });
            let field = |name: &str, offset, ty| qicc_ir::debug::DebugField {
                name: Some(name.to_string()),
                offset,
                ty,
                bit_field: false,
            };
            let s = t.add(DebugType::Record {
                tag: "struct s".into(),
                size: 16,
                union: false,
                fields: vec![
                    field("x", 0, int),
                    field("name", 4, name),
                    field("next", 8, ptr),
                ],
            });
            let arr = t.add(DebugType::Array {
                elem: s,
                elem_size: 16,
                len: Some(2),
            });
            let buf = t.add(DebugType::Array {
                elem: ch,
                elem_size: 1,
                len: Some(8),
            });
            let long = t.add(DebugType::Int {
                bytes: 8,
                signed: true,
                show: IntShow::Number,
            });
            t.objects.insert(1, arr); // object numbers start at 1
            let f = &mut p.functions[0];
            f.locals[0].debug_type = Some(ptr);
            f.locals[1].debug_type = Some(long);
            f.locals[2].debug_type = Some(buf);
        };
        let show = |assume: &str| {
            let mut q = parse_program(&text(assume)).expect("parses");
            types(&mut q);
            let f = &q.functions[0];
            let Op::Assume(e) = &f.edges[1].op else {
                unreachable!("an assume edge")
            };
            c_expr(&q, f, e)
        };
        let a_i = "add(@a, mul(%i, 16:i64))";
        assert_eq!(show(&format!("eq(load.i32({a_i}), 0:i32)")), "a[i].x == 0");
        assert_eq!(
            show(&format!("ne(load.i8(add({a_i}, 5:i64)), 47:i8)")),
            "a[i].name[1] != '/'"
        );
        assert_eq!(
            show("eq(load.i32(add(@a, 20:i64)), 0:i32)"),
            "a[1].name == 0"
        );
        assert_eq!(show("eq(load.i64(add(%p, 8:i64)), 0:i64)"), "p->next == 0");
        assert_eq!(show("eq(load.i32(%p), 0:i32)"), "p->x == 0");
        assert_eq!(show("eq(load.i32(add(%p, 16:i64)), 0:i32)"), "p[1].x == 0");
        assert_eq!(
            show("eq(load.i32(add(%p, add(mul(%i, 16:i64), 16:i64))), 0:i32)"),
            "p[i + 1].x == 0"
        );
        assert_eq!(show("eq(load.i8(add(%buf, %i)), 43:i8)"), "buf[i] == '+'");
        assert_eq!(
            show("eq(load.i8(add(%buf, 2:i64)), 0:i8)"),
            "buf[2] == '\\0'"
        );
        // No source type says what a scale of 3 steps over: the address as it is.
        assert_eq!(
            show("eq(load.i8(add(%p, mul(%i, 3:i64))), 0:i8)"),
            "*(p + i * 3) == 0"
        );
    }
}
