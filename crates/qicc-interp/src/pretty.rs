//! How traces show names, values and expressions to a C programmer.
//!
//! - Names: front-end temporaries (`tmp.N`) are hidden by the caller; a shadowing copy `x.3`
//!   shows as `x`.
//! - Values: decimal; negative (two's complement, top bit set) values also in hex, as are
//!   values above 0xffff; a pointer-width value whose object part names an object known at
//!   that point of the run shows as `&name + offset` (byte offset) with the hex value.
//! - Expressions: C operators with C precedence; casts are invisible; `load` is `*`.

use qicc_ir::semantics::to_signed;
use qicc_ir::{BinOp, Expr, FpOp, Function, Program, RoundingMode, Ty, UnOp, VarRef};
use std::collections::HashMap;

/// Whether a variable name is a front-end temporary.
pub(crate) fn is_temp(name: &str) -> bool {
    name.starts_with("tmp.")
}

/// The name a user wrote: `x.3` (the 3rd shadowing `x`) shows as `x`.
pub(crate) fn display_name(name: &str) -> &str {
    match name.rsplit_once('.') {
        Some((head, tail))
            if !head.is_empty() && !tail.is_empty() && tail.bytes().all(|b| b.is_ascii_digit()) =>
        {
            head
        }
        _ => name,
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
}

impl<'p> ObjectNames<'p> {
    pub(crate) fn new(program: &'p Program) -> ObjectNames<'p> {
        ObjectNames {
            program,
            dynamic: HashMap::new(),
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

    pub(crate) fn add(&mut self, obj: u32, name: String) {
        self.dynamic.insert(obj, name);
    }

    /// `(name, offset)` of an address inside a known object.
    pub(crate) fn place(&self, addr: u64) -> Option<(&str, u64)> {
        let layout = self.program.layout;
        self.name(layout.object_of(addr))
            .map(|n| (n, layout.offset_of(addr)))
    }

    /// `&a + 12` for an address in a known object.
    pub(crate) fn pointer(&self, addr: u64) -> Option<String> {
        self.place(addr).map(|(n, off)| match off {
            0 => format!("&{n}"),
            _ => format!("&{n} + {off}"),
        })
    }

    /// The memory a `store` of `bytes` bytes at `addr` writes, as an lvalue: `a` for a whole
    /// scalar object, `*(a + 12)` (byte offset) inside one, `*(0x...)` elsewhere.
    pub(crate) fn lvalue(&self, addr: u64, bytes: u32) -> String {
        match self.place(addr) {
            Some((n, 0)) => {
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
            Some((n, off)) => format!("*({n} + {off})"),
            None => format!("*({addr:#x})"),
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
            Expr::Load(_, a) => match &**a {
                Expr::ObjAddr(o) => (self.object(*o), PRIMARY),
                _ => (format!("*{}", self.wrap(a, UNARY)), UNARY),
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
        let l = self.wrap(a, prec);
        let r = self.wrap(b, prec + 1);
        (format!("{l} {sym} {r}"), prec)
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
}
