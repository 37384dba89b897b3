//! Proven invariants as text: an IR condition at a loop head rendered as a side-effect-free
//! C expression over the program's variables, and whether that text is plain C.
//!
//! The IR keeps signedness in its operators and computes on bit-vectors of 8 to 64 bits; C
//! keeps it in its types and promotes everything narrower than `int`. The rendering bridges
//! the two so that the C expression means what the IR condition means:
//! - every sub-expression has a C type (`Kind`) of its IR width: 8, 16, 32, 64 bits are
//!   `char`, `short`, `int`, `long long` (the same in ILP32 and LP64), signed or unsigned as
//!   the variable was declared; an operator that needs a signedness its operand's C type does
//!   not have (an `ult` on `int` variables) casts it (`(unsigned int)x < (unsigned int)y`);
//! - an arithmetic result narrower than `int` is cast back to its type, so C's promotion
//!   never keeps bits the IR drops;
//! - constants take the type the context needs (`4294967295u`, `-1`), in hexadecimal as
//!   operands of bit operations.
//!
//! Signed `+ - *` of `int` and `long long` are C's own operators: the same value wherever C
//! defines them (the front-end's overflow checks keep the program's own arithmetic there).
//!
//! Three kinds of names are not C: a ghost `ghost.L<h>.<x>` (the value of `x` when loop
//! `L<h>` was entered) renders as ACSL's `\at(x, LoopEntry)`; `ghost.cell` (an array index
//! the condition holds for every value of) as `k`, and the condition is marked quantified and reads `\forall k: …`;
//! names the front-end invented (`tmp.3`, `x.1`) stay as they are. A condition with any of
//! them, or with a memory read the renderer cannot name in C, is not plain C.

use qicc_analysis::LoopInfo;
use qicc_ir::semantics::to_signed;
use qicc_ir::{BinOp, CastOp, Expr, FnEnv, Function, Program, Ty, UnOp, VarRef};

/// A condition as text (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CText {
    pub text: String,
    /// Plain C over the program's variables, with the IR's meaning.
    pub c: bool,
    /// Holds for every value of the bound variable (`text` is `\forall k: …`).
    pub quantified: bool,
}

/// The name of the local whose value a quantified invariant ranges over.
pub const CELL: &str = "ghost.cell";

/// Renders the condition `e` of function `f` (at the head of loop `l`, whose ghosts name the
/// entry values).
pub fn render(p: &Program, f: &Function, l: Option<&LoopInfo>, e: &Expr) -> CText {
    let mut r = Renderer {
        p,
        f,
        l,
        c: true,
        quantified: false,
        bound: bound_name(p, f),
    };
    let out = r.cond(e);
    CText {
        text: if r.quantified {
            format!("\\forall {}: {}", r.bound, out.s)
        } else {
            out.s
        },
        c: r.c,
        quantified: r.quantified,
    }
}

/// `k`, or `k1`, `k2`, … when the program already names a variable `k`.
fn bound_name(p: &Program, f: &Function) -> String {
    let taken =
        |n: &str| f.locals.iter().any(|l| l.name == n) || p.globals.iter().any(|g| g.name == n);
    std::iter::once("k".to_string())
        .chain((1..).map(|i| format!("k{i}")))
        .find(|n| !taken(n))
        .unwrap_or_else(|| "k".into())
}

/// The C type of a sub-expression: C's `int` result of a comparison is `Bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Bool,
    Int { bits: u16, signed: bool },
}

/// C's precedence levels (higher binds tighter).
const PRIMARY: u8 = 16;
const UNARY: u8 = 15;
const MUL: u8 = 13;
const ADD: u8 = 12;
const SHIFT: u8 = 11;
const REL: u8 = 10;
const EQ: u8 = 9;
const LAND: u8 = 5;
const LOR: u8 = 4;
const COND: u8 = 3;

/// A rendered sub-expression.
struct Out {
    s: String,
    prec: u8,
    kind: Kind,
}

impl Out {
    /// The text as an operand that needs at least precedence `min`.
    fn at(&self, min: u8) -> String {
        if self.prec < min {
            format!("({})", self.s)
        } else {
            self.s.clone()
        }
    }
}

/// The C integer type of a width, or `None` for a width C has no type for.
fn type_name(bits: u16, signed: bool) -> Option<&'static str> {
    Some(match (bits, signed) {
        (8, true) => "signed char",
        (8, false) => "unsigned char",
        (16, true) => "short",
        (16, false) => "unsigned short",
        (32, true) => "int",
        (32, false) => "unsigned int",
        (64, true) => "long long",
        (64, false) => "unsigned long long",
        _ => return None,
    })
}

fn is_c_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

struct Renderer<'a> {
    p: &'a Program,
    f: &'a Function,
    l: Option<&'a LoopInfo>,
    c: bool,
    quantified: bool,
    bound: String,
}

impl Renderer<'_> {
    fn bits(&self, e: &Expr) -> u16 {
        e.ty(&FnEnv {
            program: self.p,
            func: self.f,
        })
        .bits()
    }

    fn type_name(&mut self, bits: u16, signed: bool) -> String {
        match type_name(bits, signed) {
            Some(t) => t.to_string(),
            None => {
                self.c = false;
                format!("{}{bits}", if signed { "int" } else { "uint" })
            }
        }
    }

    /// Whether C's name `name` means `v` at the loop's head: a block-scope local is visible
    /// only inside its scope, and a global not where a visible local of the same name hides
    /// it. Without a loop (or a known position) every name counts as visible.
    fn visible(&self, v: VarRef, name: &str) -> bool {
        let Some(at) = self.l.map(|l| l.span).filter(|s| s.is_known()) else {
            return true;
        };
        let in_scope = |x: &qicc_ir::Local| x.scope.is_none_or(|s| s.contains(at));
        match v {
            VarRef::Local(l) => self.f.locals.get(l.index()).is_some_and(in_scope),
            VarRef::Global(_) => !self.f.locals.iter().any(|x| x.name == name && in_scope(x)),
        }
    }

    /// The declared signedness and IR type of a variable; a ghost has its variable's.
    fn var_decl(&self, v: VarRef) -> (String, Ty, bool) {
        match v {
            VarRef::Local(l) => match self.f.locals.get(l.index()) {
                Some(x) => (x.name.clone(), x.ty, x.unsigned),
                None => (format!("?{}", l.0), Ty::I32, false),
            },
            VarRef::Global(g) => match self.p.globals.get(g.index()) {
                Some(x) => (x.name.clone(), x.ty, x.unsigned),
                None => (format!("?{}", g.0), Ty::I32, false),
            },
        }
    }

    /// The C type of `e` as it will be rendered; `None` for a constant, which takes the type
    /// its context needs.
    fn kind(&self, e: &Expr) -> Option<Kind> {
        let int = |bits, signed| Some(Kind::Int { bits, signed });
        match e {
            Expr::Const { ty: Ty::Bool, .. } | Expr::Valid(..) => Some(Kind::Bool),
            Expr::Const { .. } => None,
            Expr::Var(v) => Some(self.var_kind(*v)),
            Expr::ObjAddr(_) => int(self.p.data_model.pointer_bits(), false),
            Expr::Unary(_, a) => self.kind(a),
            Expr::Binary(op, a, b) => match op {
                _ if op.is_comparison() => Some(Kind::Bool),
                BinOp::UDiv | BinOp::URem | BinOp::LShr => int(self.bits(a), false),
                BinOp::SDiv | BinOp::SRem | BinOp::AShr => int(self.bits(a), true),
                BinOp::Shl => int(self.bits(a), self.signed(a, a)),
                _ if self.kind(a) == Some(Kind::Bool) => Some(Kind::Bool),
                _ => int(self.bits(a), self.signed(a, b)),
            },
            Expr::Cast(CastOp::Zext, ty, _) => int(ty.bits(), false),
            Expr::Cast(CastOp::Sext, ty, _) => int(ty.bits(), true),
            Expr::Cast(CastOp::Trunc, ty, a) => int(ty.bits(), self.signed(a, a)),
            Expr::Ite(_, a, b) => match self.kind(a).or_else(|| self.kind(b)) {
                Some(Kind::Bool) => Some(Kind::Bool),
                _ => int(self.bits(a), self.signed(a, b)),
            },
            Expr::Load(ty, _) => int(ty.bits(), true),
            Expr::Fp(op, args) => match args
                .first()
                .map(|a| op.result_ty(a.ty(&self.p.env(self.f))))
            {
                Some(Ty::Bool) => Some(Kind::Bool),
                Some(t) => int(t.bits(), true),
                None => None,
            },
        }
    }

    fn var_kind(&self, v: VarRef) -> Kind {
        let (_, ty, unsigned) = self.entry_var(v);
        match ty {
            Ty::Bool => Kind::Bool,
            Ty::Int(bits) => Kind::Int {
                bits,
                signed: !unsigned,
            },
            // Rendering only: `var` marks any float as not plain C.
            Ty::Float(bits) => Kind::Int { bits, signed: true },
        }
    }

    /// A ghost's variable (name, type, unsignedness); any other variable itself.
    fn entry_var(&self, v: VarRef) -> (String, Ty, bool) {
        let (name, ty, unsigned) = self.var_decl(v);
        if !name.starts_with("ghost.L") {
            return (name, ty, unsigned);
        }
        let of = self
            .l
            .and_then(|l| l.ghosts.iter().find(|(_, g)| VarRef::Local(*g) == v))
            .map(|(x, _)| self.var_decl(*x));
        match of {
            Some(d) => d,
            // `ghost.L<h>.<name>`: the name after the loop's.
            None => {
                let rest = name.trim_start_matches("ghost.L");
                let base = rest.split_once('.').map_or(rest, |(_, n)| n);
                (base.to_string(), ty, unsigned)
            }
        }
    }

    /// The signedness C's usual arithmetic conversions give two operands (a constant takes
    /// the other's); signed when neither says.
    fn signed(&self, a: &Expr, b: &Expr) -> bool {
        let s = |e| match self.kind(e) {
            Some(Kind::Int { signed, .. }) => Some(signed),
            _ => None,
        };
        match (s(a), s(b)) {
            (Some(x), Some(y)) => x && y,
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => true,
        }
    }

    /// `e` as a condition (an integer `x` as `x != 0`).
    fn cond(&mut self, e: &Expr) -> Out {
        let o = self.expr(e);
        match o.kind {
            Kind::Bool => o,
            Kind::Int { .. } => Out {
                s: format!("{} != 0", o.at(EQ + 1)),
                prec: EQ,
                kind: Kind::Bool,
            },
        }
    }

    /// `e` with the C type `bits`/`signed` (a cast where its own type differs).
    fn coerce(&mut self, e: &Expr, bits: u16, signed: bool, hex: bool) -> Out {
        if let Expr::Const {
            ty: Ty::Int(_),
            value,
        } = e
        {
            return self.literal(*value, bits, signed, hex);
        }
        let o = self.expr(e);
        let want = Kind::Int { bits, signed };
        if o.kind == want {
            return o;
        }
        let t = self.type_name(bits, signed);
        Out {
            s: format!("({t}){}", o.at(UNARY)),
            prec: UNARY,
            kind: want,
        }
    }

    /// A constant of the given C type.
    fn literal(&mut self, value: u64, bits: u16, signed: bool, hex: bool) -> Out {
        let kind = Kind::Int { bits, signed };
        let big = |v: u64| v > i32::MAX as u64;
        let digits = |v: u64| {
            if hex && v >= 255 {
                format!("{v:#x}")
            } else {
                v.to_string()
            }
        };
        let v = value & Ty::Int(bits).mask();
        if !signed {
            let suffix = match bits {
                64 if big(v) => "ull",
                32 if big(v) => "u",
                _ => "",
            };
            return Out {
                s: format!("{}{suffix}", digits(v)),
                prec: PRIMARY,
                kind,
            };
        }
        let sv = to_signed(v, bits);
        let ll = if bits == 64 { "LL" } else { "" };
        if bits >= 32 && sv == to_signed(1u64 << (bits - 1), bits) {
            // The most negative value has no literal: its negation does not fit.
            let max = (1u64 << (bits - 1)) - 1;
            return Out {
                s: format!("(-{max}{ll} - 1)"),
                prec: PRIMARY,
                kind,
            };
        }
        let (neg, mag) = (sv < 0, sv.unsigned_abs());
        let suffix = if big(mag) { ll } else { "" };
        Out {
            s: format!("{}{}{suffix}", if neg { "-" } else { "" }, digits(mag)),
            prec: if neg { UNARY } else { PRIMARY },
            kind,
        }
    }

    /// An arithmetic result of a width narrower than `int`, cast back to it.
    fn narrow(&mut self, o: Out, bits: u16, signed: bool) -> Out {
        let kind = Kind::Int { bits, signed };
        if bits >= 32 {
            return Out { kind, ..o };
        }
        let t = self.type_name(bits, signed);
        Out {
            s: format!("({t})({})", o.s),
            prec: UNARY,
            kind,
        }
    }

    fn var(&mut self, v: VarRef) -> Out {
        let (name, ty, _) = self.var_decl(v);
        if ty.is_float() {
            // Floats have no C rendering here yet (issue 19): the text is not plain C.
            self.c = false;
        }
        let kind = self.var_kind(v);
        let s = if name == CELL {
            self.quantified = true;
            self.c = false;
            self.bound.clone()
        } else if name.starts_with("ghost.L") {
            self.c = false;
            format!("\\at({}, LoopEntry)", self.entry_var(v).0)
        } else {
            self.c &= is_c_identifier(&name) && self.visible(v, &name);
            name
        };
        Out {
            s,
            prec: PRIMARY,
            kind,
        }
    }

    fn expr(&mut self, e: &Expr) -> Out {
        match e {
            Expr::Const {
                ty: Ty::Bool,
                value,
            } => Out {
                s: if *value != 0 { "1" } else { "0" }.into(),
                prec: PRIMARY,
                kind: Kind::Bool,
            },
            Expr::Fp(..)
            | Expr::Const {
                ty: Ty::Float(_), ..
            } => {
                // Floats are rendered in IR syntax and marked as not plain C (issue 19).
                self.c = false;
                let kind = self.kind(e).unwrap_or(Kind::Int {
                    bits: 64,
                    signed: true,
                });
                Out {
                    s: qicc_ir::print::expr_str(self.p, Some(self.f), e),
                    prec: PRIMARY,
                    kind,
                }
            }
            Expr::Const { ty, value } => self.literal(*value, ty.bits(), true, false),
            Expr::Var(v) => self.var(*v),
            Expr::ObjAddr(o) => {
                // C's `&a` is a typed pointer where the IR has a byte address: not the same
                // arithmetic, so only ever plain C inside the loads below.
                self.c = false;
                let name = self.object_name(*o);
                Out {
                    s: format!("&{name}"),
                    prec: UNARY,
                    kind: Kind::Int {
                        bits: self.p.data_model.pointer_bits(),
                        signed: false,
                    },
                }
            }
            Expr::Unary(UnOp::Not, a) if self.kind(a) == Some(Kind::Bool) => {
                let a = self.cond(a);
                Out {
                    s: format!("!{}", a.at(UNARY)),
                    prec: UNARY,
                    kind: Kind::Bool,
                }
            }
            Expr::Unary(op, a) => {
                let bits = self.bits(a);
                let signed = self.signed(a, a);
                let a = self.coerce(a, bits, signed, *op == UnOp::Not);
                let sym = if *op == UnOp::Neg { "-" } else { "~" };
                let o = Out {
                    s: format!("{sym}{}", a.at(UNARY)),
                    prec: UNARY,
                    kind: a.kind,
                };
                self.narrow(o, bits, signed)
            }
            Expr::Binary(op, a, b) => self.binary(*op, a, b),
            Expr::Cast(op, ty, a) => self.cast(*op, *ty, a),
            Expr::Ite(c, a, b) => {
                let c = self.cond(c);
                let (a, b) = match self.kind(e) {
                    Some(Kind::Int { bits, signed }) => (
                        self.coerce(a, bits, signed, false),
                        self.coerce(b, bits, signed, false),
                    ),
                    _ => (self.cond(a), self.cond(b)),
                };
                Out {
                    s: format!("{} ? {} : {}", c.at(LOR), a.at(LOR), b.at(COND)),
                    prec: COND,
                    kind: a.kind,
                }
            }
            Expr::Load(ty, addr) => self.load(*ty, addr),
            Expr::Valid(k, n, addr) => {
                self.c = false;
                let a = self.expr(addr);
                let acsl = match k {
                    qicc_ir::Access::Write => "\\valid",
                    qicc_ir::Access::Read => "\\valid_read",
                    // ACSL's `\freeable` takes the pointer alone (the start of the object).
                    qicc_ir::Access::Free => {
                        return Out {
                            s: format!("\\freeable({})", a.s),
                            prec: PRIMARY,
                            kind: Kind::Bool,
                        }
                    }
                };
                Out {
                    s: format!(
                        "{acsl}((char *){} + (0 .. {}))",
                        a.at(UNARY),
                        n.saturating_sub(1)
                    ),
                    prec: PRIMARY,
                    kind: Kind::Bool,
                }
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Out {
        let bits = self.bits(a);
        if self.kind(a) == Some(Kind::Bool) || self.kind(b) == Some(Kind::Bool) {
            // Logical operators on conditions.
            let (sym, prec) = match op {
                BinOp::And => ("&&", LAND),
                BinOp::Or => ("||", LOR),
                BinOp::Eq => ("==", EQ),
                _ => ("!=", EQ),
            };
            let (x, y) = (self.cond(a), self.cond(b));
            // Mixed `&&` and `||` get parentheses although C does not need them.
            let min = if prec == LOR { LAND + 1 } else { prec + 1 };
            return Out {
                s: format!("{} {sym} {}", x.at(min), y.at(min)),
                prec,
                kind: Kind::Bool,
            };
        }
        let common = self.signed(a, b);
        let (sym, prec, signed, result) = match op {
            BinOp::Add => ("+", ADD, common, true),
            BinOp::Sub => ("-", ADD, common, true),
            BinOp::Mul => ("*", MUL, common, true),
            BinOp::UDiv => ("/", MUL, false, true),
            BinOp::SDiv => ("/", MUL, true, true),
            BinOp::URem => ("%", MUL, false, true),
            BinOp::SRem => ("%", MUL, true, true),
            BinOp::Shl | BinOp::LShr | BinOp::AShr => return self.shift(op, a, b),
            BinOp::And => ("&", UNARY, common, true),
            BinOp::Or => ("|", UNARY, common, true),
            BinOp::Xor => ("^", UNARY, common, true),
            BinOp::Eq => ("==", EQ, common, false),
            BinOp::Ne => ("!=", EQ, common, false),
            BinOp::Ult => ("<", REL, false, false),
            BinOp::Ule => ("<=", REL, false, false),
            BinOp::Slt => ("<", REL, true, false),
            BinOp::Sle => ("<=", REL, true, false),
        };
        let bitwise = matches!(op, BinOp::And | BinOp::Or | BinOp::Xor);
        let bit_prec = match op {
            BinOp::And => 8,
            BinOp::Xor => 7,
            _ => 6,
        };
        let x = self.coerce(a, bits, signed, bitwise);
        let y = self.coerce(b, bits, signed, bitwise);
        // Bit operations show their operands in parentheses (C's precedence of `&` below
        // `==` surprises readers); the rest follow C's precedence, left-associative.
        let (lmin, rmin) = if bitwise {
            (UNARY, UNARY)
        } else {
            (prec, prec + 1)
        };
        let o = Out {
            s: format!("{} {sym} {}", x.at(lmin), y.at(rmin)),
            prec: if bitwise { bit_prec } else { prec },
            kind: if result {
                Kind::Int { bits, signed }
            } else {
                Kind::Bool
            },
        };
        if result && !bitwise {
            self.narrow(o, bits, signed)
        } else {
            o
        }
    }

    fn shift(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Out {
        let bits = self.bits(a);
        let (sym, signed) = match op {
            BinOp::Shl => ("<<", self.signed(a, a)),
            BinOp::LShr => (">>", false),
            _ => (">>", true),
        };
        let x = self.coerce(a, bits, signed, false);
        let amount_bits = self.bits(b);
        let amount_signed = self.signed(b, b);
        let y = self.coerce(b, amount_bits, amount_signed, false);
        let o = Out {
            s: format!("{} {sym} {}", x.at(SHIFT), y.at(SHIFT + 1)),
            prec: SHIFT,
            kind: Kind::Int { bits, signed },
        };
        self.narrow(o, bits, signed)
    }

    fn cast(&mut self, op: CastOp, ty: Ty, a: &Expr) -> Out {
        let from = self.bits(a);
        let to = ty.bits();
        let (x, signed) = match op {
            CastOp::Zext => (self.coerce(a, from, false, false), false),
            CastOp::Sext => (self.coerce(a, from, true, false), true),
            CastOp::Trunc => {
                let s = self.signed(a, a);
                (self.coerce(a, from, s, false), s)
            }
        };
        if from == to && x.kind == (Kind::Int { bits: to, signed }) {
            return x;
        }
        let t = self.type_name(to, signed);
        Out {
            s: format!("({t}){}", x.at(UNARY)),
            prec: UNARY,
            kind: Kind::Int { bits: to, signed },
        }
    }

    fn object_name(&mut self, o: qicc_ir::ObjectId) -> String {
        match self.p.object(o) {
            Some(obj) => {
                self.c &= is_c_identifier(&obj.name);
                obj.name.clone()
            }
            None => {
                self.c = false;
                format!("?{}", o.0)
            }
        }
    }

    /// A read of a `ty` at `addr`: `a[i]` where the address is `base + i * sizeof(T)` (or a
    /// constant multiple of it), the object's name where it is a scalar in memory, else
    /// `*(T *)(addr)`, which is not plain C (the IR's address arithmetic is on bytes).
    fn load(&mut self, ty: Ty, addr: &Expr) -> Out {
        let bytes = u64::from(ty.bits() / 8);
        let kind = Kind::Int {
            bits: ty.bits(),
            signed: true,
        };
        if let Expr::ObjAddr(o) = addr {
            if self.p.object(*o).is_some_and(|obj| obj.size == bytes) {
                let s = self.object_name(*o);
                return Out {
                    s,
                    prec: PRIMARY,
                    kind,
                };
            }
        }
        if let Some((base, index)) = self.indexed(addr, bytes) {
            return Out {
                s: format!("{base}[{index}]"),
                prec: PRIMARY,
                kind,
            };
        }
        let t = self.type_name(ty.bits(), true);
        let a = self.expr(addr);
        self.c = false;
        Out {
            s: format!("*({t} *)({})", a.s),
            prec: UNARY,
            kind,
        }
    }

    /// `addr` as `base[index]` for elements of `bytes` bytes, if it has that shape.
    fn indexed(&mut self, addr: &Expr, bytes: u64) -> Option<(String, String)> {
        let Expr::Binary(BinOp::Add, base, off) = addr else {
            return None;
        };
        if !matches!(**base, Expr::ObjAddr(_) | Expr::Var(_)) || bytes == 0 {
            return None;
        }
        let index = match &**off {
            Expr::Binary(BinOp::Mul, i, s) | Expr::Binary(BinOp::Mul, s, i)
                if s.as_const() == Some(bytes) =>
            {
                IndexOf::Expr(strip_conversion(self, i))
            }
            Expr::Const { ty, value } => {
                let v = to_signed(*value, ty.bits());
                if v % bytes as i64 != 0 {
                    return None;
                }
                IndexOf::Const(v / bytes as i64)
            }
            _ => return None,
        };
        let base = match &**base {
            Expr::ObjAddr(o) => self.object_name(*o),
            other => self.expr(other).at(PRIMARY),
        };
        let index = match index {
            IndexOf::Const(v) => v.to_string(),
            IndexOf::Expr(i) => self.expr(i).s,
        };
        Some((base, index))
    }
}

enum IndexOf<'e> {
    Const(i64),
    Expr(&'e Expr),
}

/// An index without the widening C applies itself (`sext` of a signed, `zext` of an
/// unsigned variable to the pointer's width).
fn strip_conversion<'e>(r: &Renderer<'_>, i: &'e Expr) -> &'e Expr {
    match i {
        Expr::Cast(CastOp::Sext, _, x) if r.signed(x, x) => x,
        Expr::Cast(CastOp::Zext, _, x) if !r.signed(x, x) => x,
        _ => i,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::{parse_program, Op};

    /// Each row: an IR condition (over the locals and objects below), its C text, and
    /// whether that text is plain C.
    const TABLE: &[(&str, &str, bool)] = &[
        ("slt(%i, 10:i32)", "i < 10", true),
        // An unsigned comparison on signed variables casts them; on unsigned ones it does not.
        ("ult(%i, %j)", "(unsigned int)i < (unsigned int)j", true),
        ("ule(%u, $n)", "u <= n", true),
        ("sle(%u, %i)", "(int)u <= i", true),
        ("sle(0:i32, %u)", "0 <= (int)u", true),
        ("ult(%i, -1:i32)", "(unsigned int)i < 4294967295u", true),
        ("eq(%i, -2147483648:i32)", "i == (-2147483647 - 1)", true),
        ("eq(urem(%u, 2:i32), 0:i32)", "u % 2 == 0", true),
        ("eq(srem(%u, 2:i32), 1:i32)", "(int)u % 2 == 1", true),
        (
            "eq(urem(%i, 2:i32), 0:i32)",
            "(unsigned int)i % 2 == 0",
            true,
        ),
        ("eq(and(%i, 255:i32), 0:i32)", "(i & 0xff) == 0", true),
        (
            "eq(lshr(%i, 1:i32), 3:i32)",
            "(unsigned int)i >> 1 == 3",
            true,
        ),
        // Casts: C's conversion where it is the IR's, and width-correct types.
        ("slt(sext.i64(%i), %l)", "(long long)i < l", true),
        (
            "ult(zext.i64(%i), 4294967296:i64)",
            "(unsigned long long)(unsigned int)i < 4294967296ull",
            true,
        ),
        ("eq(trunc.i8(%i), %c)", "(signed char)i == c", true),
        (
            "eq(zext.i32(%c), 200:i32)",
            "(unsigned int)(unsigned char)c == 200",
            true,
        ),
        ("eq(trunc.i16(%u), 7:i16)", "(unsigned short)u == 7", true),
        // Arithmetic narrower than int wraps as the IR's does.
        ("slt(add(%c, 1:i8), 0:i8)", "(signed char)(c + 1) < 0", true),
        (
            "eq(add(%i, mul(2:i32, %j)), %l32)",
            "i + 2 * j == l32",
            true,
        ),
        (
            "eq(sub(%i, sub(%j, 1:i32)), 0:i32)",
            "i - (j - 1) == 0",
            true,
        ),
        // Memory: indexed reads as the program writes them, the rest is not plain C.
        (
            "eq(load.i32(add(@a, mul(sext.i64(%i), 4:i64))), 0:i32)",
            "a[i] == 0",
            true,
        ),
        ("eq(load.i32(add(%p, 8:i64)), %i)", "p[2] == i", true),
        ("eq(load.i32(@g), 0:i32)", "g == 0", true),
        (
            "eq(load.i32(add(%p, 2:i64)), 0:i32)",
            "*(int *)(p + 2) == 0",
            false,
        ),
        // Logic.
        (
            "or(slt(%i, 0:i32), and(sle(0:i32, %u), ult(%u, 5:i32)))",
            "i < 0 || (0 <= (int)u && u < 5)",
            true,
        ),
        ("not(eq(%i, -1:i32))", "!(i == -1)", true),
        (
            "sle(%i, ite(slt(%i, 0:i32), neg(%i), %i))",
            "i <= (i < 0 ? -i : i)",
            true,
        ),
        // Names that are not C.
        ("sle(%ghost.L4.i, %i)", "\\at(i, LoopEntry) <= i", false),
        (
            "ult(%ghost.L4.i, %u)",
            "(unsigned int)\\at(i, LoopEntry) < u",
            false,
        ),
        ("slt(%tmp.1, 0:i32)", "tmp.1 < 0", false),
        (
            "eq(load.i32(add(@a, mul(%ghost.cell, 4:i64))), 0:i32)",
            "\\forall k: a[k] == 0",
            false,
        ),
    ];

    fn program(conds: &[&str]) -> Program {
        let mut text = String::from(
            "qicc-ir 1\ndata-model lp64 object-bits 16\nfile 0 \"t.c\"\n\
             object @a size 40 zeroed !0:1:5\nobject @g size 4 zeroed !0:1:5\n\
             global $n: i32 unsigned\nentry @main\n\nfn @main() -> %ret.val !0:2:5 {\n",
        );
        for (name, ty) in [
            ("ret.val", "i32"),
            ("i", "i32"),
            ("j", "i32"),
            ("u", "i32 unsigned"),
            ("c", "i8"),
            ("l", "i64"),
            ("l32", "i32"),
            ("p", "i64"),
            ("ghost.L4.i", "i32"),
            ("ghost.cell", "i64"),
            ("tmp.1", "i32"),
        ] {
            text.push_str(&format!("  local %{name}: {ty}\n"));
        }
        text.push_str("  locs 4 entry L0 exit L1 err L2 halt L3\n");
        for c in conds {
            text.push_str(&format!("  L0 -> L1: assume {c} !0:3:1\n"));
        }
        text.push_str("}\n");
        parse_program(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
    }

    #[test]
    fn ir_conditions_render_as_c_with_the_same_meaning() {
        let conds: Vec<&str> = TABLE.iter().map(|r| r.0).collect();
        let p = program(&conds);
        let f = &p.functions[0];
        let mut wrong = Vec::new();
        for ((ir, want, c), edge) in TABLE.iter().zip(&f.edges) {
            let Op::Assume(e) = &edge.op else {
                panic!("an assume edge")
            };
            let got = render(&p, f, None, e);
            let quantified = ir.contains("ghost.cell");
            if got.text != *want || got.c != *c || got.quantified != quantified {
                wrong.push(format!(
                    "{ir}: got {:?} (c: {}, quantified: {}), want {want:?} (c: {c})",
                    got.text, got.c, got.quantified
                ));
            }
        }
        assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    }

    #[test]
    fn the_bound_variable_avoids_a_program_variable_named_k() {
        let p = parse_program(
            "qicc-ir 1\ndata-model ilp32 object-bits 8\nfile 0 \"t.c\"\n\
             object @a size 40 zeroed !0:1:5\nentry @main\n\nfn @main() {\n\
             local %k: i32\n  local %ghost.cell: i32\n  locs 4 entry L0 exit L1 err L2 halt L3\n\
             L0 -> L1: assume slt(load.i32(add(@a, mul(%ghost.cell, 4:i32))), %k) !0:3:1\n}\n",
        )
        .expect("parses");
        let f = &p.functions[0];
        let Op::Assume(e) = &f.edges[0].op else {
            panic!("an assume edge")
        };
        let got = render(&p, f, None, e);
        assert_eq!(got.text, "\\forall k1: a[k1] < k");
        assert!(got.quantified && !got.c);
    }
}
