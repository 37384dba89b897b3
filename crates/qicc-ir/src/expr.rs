//! Side-effect-free terms.
//!
//! An expression reads variables and memory but never changes them; every change of state is
//! an [`crate::Op`] on an edge. Evaluation is total: division by zero, over-wide shifts and
//! reads of memory that was never written all have a value (SMT-LIB's, see
//! [`crate::semantics`]; for the float operations [`FpOp`], IEEE 754's with the choices of
//! [`crate::semantics::float`]: one default NaN, saturating float-to-int conversion). Where C leaves such a case undefined, the front-end guards it with an
//! explicit undefined-behaviour check edge before the expression is evaluated.

use crate::types::Ty;
use crate::{GlobalId, LocalId, ObjectId};
use serde::{Deserialize, Serialize};

/// A scalar variable: local to the function it appears in, or a program-wide global.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum VarRef {
    Local(LocalId),
    Global(GlobalId),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UnOp {
    /// Two's complement negation (ints).
    Neg,
    /// Bitwise complement on ints, logical negation on bools.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    UDiv,
    SDiv,
    URem,
    SRem,
    Shl,
    LShr,
    AShr,
    /// Bitwise on ints, logical on bools (both operands are evaluated: expressions are pure).
    And,
    Or,
    Xor,
    Eq,
    Ne,
    Ult,
    Ule,
    Slt,
    Sle,
}

impl BinOp {
    pub const ALL: [BinOp; 19] = [
        BinOp::Add,
        BinOp::Sub,
        BinOp::Mul,
        BinOp::UDiv,
        BinOp::SDiv,
        BinOp::URem,
        BinOp::SRem,
        BinOp::Shl,
        BinOp::LShr,
        BinOp::AShr,
        BinOp::And,
        BinOp::Or,
        BinOp::Xor,
        BinOp::Eq,
        BinOp::Ne,
        BinOp::Ult,
        BinOp::Ule,
        BinOp::Slt,
        BinOp::Sle,
    ];

    pub fn name(self) -> &'static str {
        match self {
            BinOp::Add => "add",
            BinOp::Sub => "sub",
            BinOp::Mul => "mul",
            BinOp::UDiv => "udiv",
            BinOp::SDiv => "sdiv",
            BinOp::URem => "urem",
            BinOp::SRem => "srem",
            BinOp::Shl => "shl",
            BinOp::LShr => "lshr",
            BinOp::AShr => "ashr",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Xor => "xor",
            BinOp::Eq => "eq",
            BinOp::Ne => "ne",
            BinOp::Ult => "ult",
            BinOp::Ule => "ule",
            BinOp::Slt => "slt",
            BinOp::Sle => "sle",
        }
    }

    pub fn from_name(s: &str) -> Option<BinOp> {
        BinOp::ALL.iter().copied().find(|op| op.name() == s)
    }

    /// Comparisons produce `bool` from two ints (or, for `eq`/`ne`, two bools).
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Ult | BinOp::Ule | BinOp::Slt | BinOp::Sle
        )
    }

    /// Operations defined on bools as well as ints.
    pub fn accepts_bool(self) -> bool {
        matches!(
            self,
            BinOp::And | BinOp::Or | BinOp::Xor | BinOp::Eq | BinOp::Ne
        )
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CastOp {
    /// Zero-extend to a wider int.
    Zext,
    /// Sign-extend to a wider int.
    Sext,
    /// Keep the low bits.
    Trunc,
}

impl CastOp {
    pub fn name(self) -> &'static str {
        match self {
            CastOp::Zext => "zext",
            CastOp::Sext => "sext",
            CastOp::Trunc => "trunc",
        }
    }

    pub fn from_name(s: &str) -> Option<CastOp> {
        match s {
            "zext" => Some(CastOp::Zext),
            "sext" => Some(CastOp::Sext),
            "trunc" => Some(CastOp::Trunc),
            _ => None,
        }
    }
}

/// An IEEE 754 rounding mode (SMT-LIB's five). C's `fesetround` has the first four
/// (`FE_TONEAREST`, `FE_UPWARD`, `FE_DOWNWARD`, `FE_TOWARDZERO`); `Rna` is IEEE's
/// round-to-nearest-ties-away, kept so that the IR covers SMT-LIB's rounding modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum RoundingMode {
    /// Round to nearest, ties to even (C's default).
    Rne,
    /// Round to nearest, ties away from zero.
    Rna,
    /// Toward +infinity.
    Rtp,
    /// Toward -infinity.
    Rtn,
    /// Toward zero.
    Rtz,
}

impl RoundingMode {
    pub const ALL: [RoundingMode; 5] = [
        RoundingMode::Rne,
        RoundingMode::Rna,
        RoundingMode::Rtp,
        RoundingMode::Rtn,
        RoundingMode::Rtz,
    ];

    pub fn name(self) -> &'static str {
        match self {
            RoundingMode::Rne => "rne",
            RoundingMode::Rna => "rna",
            RoundingMode::Rtp => "rtp",
            RoundingMode::Rtn => "rtn",
            RoundingMode::Rtz => "rtz",
        }
    }

    pub fn from_name(s: &str) -> Option<RoundingMode> {
        RoundingMode::ALL.iter().copied().find(|m| m.name() == s)
    }
}

/// A floating-point operation; its meaning is [`crate::semantics::float::eval_fp`]. Operands
/// are floats of one width unless said otherwise. Operations that round carry their rounding
/// mode. The result type is [`FpOp::result_ty`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FpOp {
    Add(RoundingMode),
    Sub(RoundingMode),
    Mul(RoundingMode),
    Div(RoundingMode),
    Sqrt(RoundingMode),
    /// `a * b + c` rounded once (C's `fma`).
    Fma(RoundingMode),
    /// C's `fmod`: `x - n*y` with `n` = `x/y` truncated toward zero; always exact.
    Fmod,
    /// The integral value nearest to the operand in the given mode (C's `rint`/`nearbyint`
    /// in RNE, `round` in RNA, `ceil` RTP, `floor` RTN, `trunc` RTZ).
    RoundToIntegral(RoundingMode),
    /// C's `fmin`/`fmax`: a NaN operand is ignored; `min(-0, +0) = -0`, `max(-0, +0) = +0`.
    Min,
    Max,
    /// Sign-bit flip / clear (bit operations: NaN payloads are kept).
    Neg,
    Abs,
    /// IEEE comparisons to `bool`: false if an operand is NaN; `-0 == +0`.
    Eq,
    Lt,
    Le,
    /// C's `!=`: the negation of `Eq`, so true if an operand is NaN.
    Ne,
    IsNan,
    IsInf,
    IsZero,
    IsNormal,
    IsSubnormal,
    /// The sign bit (C's `signbit`: true for `-0` and for a NaN with its sign bit set).
    SignBit,
    /// Float to float of width `to` (exact when widening).
    Convert {
        to: u16,
        rm: RoundingMode,
    },
    /// Signed / unsigned int operand (any width) to the float of width `to`.
    FromSInt {
        to: u16,
        rm: RoundingMode,
    },
    FromUInt {
        to: u16,
        rm: RoundingMode,
    },
    /// Float to signed / unsigned int of width `to`, truncating toward zero (C's cast). A NaN
    /// gives 0 and a value out of the target's range saturates to its minimum or maximum
    /// (Rust's `as`): C makes these undefined and the front-end guards them with a UB check.
    ToSInt {
        to: u16,
    },
    ToUInt {
        to: u16,
    },
    /// Reinterprets an int of width 32/64 as the float of the same width, and back.
    FromBits,
    ToBits,
}

impl FpOp {
    /// The number of operands.
    pub fn arity(self) -> usize {
        match self {
            FpOp::Add(_)
            | FpOp::Sub(_)
            | FpOp::Mul(_)
            | FpOp::Div(_)
            | FpOp::Fmod
            | FpOp::Min
            | FpOp::Max
            | FpOp::Eq
            | FpOp::Lt
            | FpOp::Le
            | FpOp::Ne => 2,
            FpOp::Fma(_) => 3,
            _ => 1,
        }
    }

    /// The operation's rounding mode, if it rounds.
    pub fn rounding_mode(self) -> Option<RoundingMode> {
        match self {
            FpOp::Add(rm)
            | FpOp::Sub(rm)
            | FpOp::Mul(rm)
            | FpOp::Div(rm)
            | FpOp::Sqrt(rm)
            | FpOp::Fma(rm)
            | FpOp::RoundToIntegral(rm)
            | FpOp::Convert { rm, .. }
            | FpOp::FromSInt { rm, .. }
            | FpOp::FromUInt { rm, .. } => Some(rm),
            _ => None,
        }
    }

    /// The operator's name in the text format, without rounding mode and width suffixes.
    pub fn name(self) -> &'static str {
        match self {
            FpOp::Add(_) => "fadd",
            FpOp::Sub(_) => "fsub",
            FpOp::Mul(_) => "fmul",
            FpOp::Div(_) => "fdiv",
            FpOp::Sqrt(_) => "fsqrt",
            FpOp::Fma(_) => "ffma",
            FpOp::Fmod => "fmod",
            FpOp::RoundToIntegral(_) => "frint",
            FpOp::Min => "fmin",
            FpOp::Max => "fmax",
            FpOp::Neg => "fneg",
            FpOp::Abs => "fabs",
            FpOp::Eq => "feq",
            FpOp::Lt => "flt",
            FpOp::Le => "fle",
            FpOp::Ne => "fne",
            FpOp::IsNan => "fisnan",
            FpOp::IsInf => "fisinf",
            FpOp::IsZero => "fiszero",
            FpOp::IsNormal => "fisnormal",
            FpOp::IsSubnormal => "fissubnormal",
            FpOp::SignBit => "fsignbit",
            FpOp::Convert { .. } => "fconv",
            FpOp::FromSInt { .. } => "sitofp",
            FpOp::FromUInt { .. } => "uitofp",
            FpOp::ToSInt { .. } => "fptosi",
            FpOp::ToUInt { .. } => "fptoui",
            FpOp::FromBits => "bitstofp",
            FpOp::ToBits => "fptobits",
        }
    }

    /// The target width an operation names (conversions), if any.
    pub fn target_width(self) -> Option<u16> {
        match self {
            FpOp::Convert { to, .. }
            | FpOp::FromSInt { to, .. }
            | FpOp::FromUInt { to, .. }
            | FpOp::ToSInt { to }
            | FpOp::ToUInt { to } => Some(to),
            _ => None,
        }
    }

    /// Builds the operator from its text-format parts (see [`FpOp::name`]); `None` if the
    /// parts do not name one.
    pub fn from_parts(name: &str, rm: Option<RoundingMode>, to: Option<u16>) -> Option<FpOp> {
        let op = match (name, rm, to) {
            ("fadd", Some(rm), None) => FpOp::Add(rm),
            ("fsub", Some(rm), None) => FpOp::Sub(rm),
            ("fmul", Some(rm), None) => FpOp::Mul(rm),
            ("fdiv", Some(rm), None) => FpOp::Div(rm),
            ("fsqrt", Some(rm), None) => FpOp::Sqrt(rm),
            ("ffma", Some(rm), None) => FpOp::Fma(rm),
            ("frint", Some(rm), None) => FpOp::RoundToIntegral(rm),
            ("fconv", Some(rm), Some(to)) => FpOp::Convert { to, rm },
            ("sitofp", Some(rm), Some(to)) => FpOp::FromSInt { to, rm },
            ("uitofp", Some(rm), Some(to)) => FpOp::FromUInt { to, rm },
            ("fptosi", None, Some(to)) => FpOp::ToSInt { to },
            ("fptoui", None, Some(to)) => FpOp::ToUInt { to },
            (n, None, None) => [
                FpOp::Fmod,
                FpOp::Min,
                FpOp::Max,
                FpOp::Neg,
                FpOp::Abs,
                FpOp::Eq,
                FpOp::Lt,
                FpOp::Le,
                FpOp::Ne,
                FpOp::IsNan,
                FpOp::IsInf,
                FpOp::IsZero,
                FpOp::IsNormal,
                FpOp::IsSubnormal,
                FpOp::SignBit,
                FpOp::FromBits,
                FpOp::ToBits,
            ]
            .into_iter()
            .find(|op| op.name() == n)?,
            _ => return None,
        };
        Some(op)
    }

    /// The result type given the first operand's type (assuming a well-typed use).
    pub fn result_ty(self, operand: Ty) -> Ty {
        match self {
            FpOp::Eq
            | FpOp::Lt
            | FpOp::Le
            | FpOp::Ne
            | FpOp::IsNan
            | FpOp::IsInf
            | FpOp::IsZero
            | FpOp::IsNormal
            | FpOp::IsSubnormal
            | FpOp::SignBit => Ty::Bool,
            FpOp::Convert { to, .. } | FpOp::FromSInt { to, .. } | FpOp::FromUInt { to, .. } => {
                Ty::Float(to)
            }
            FpOp::ToSInt { to } | FpOp::ToUInt { to } => Ty::Int(to),
            FpOp::FromBits => Ty::Float(operand.bits()),
            FpOp::ToBits => Ty::Int(operand.bits()),
            _ => operand,
        }
    }
}

/// What a validity check asks of the bytes: that they may be written (a live object that is
/// not read-only), read (any live object), or freed (a live object `malloc`, `calloc` or
/// `realloc` allocated: never a static object, a frame's or `alloca`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Access {
    Write,
    Read,
    Free,
}

impl Access {
    /// The operator's name in the text format.
    pub fn op_name(self) -> &'static str {
        match self {
            Access::Write => "valid",
            Access::Read => "readable",
            Access::Free => "freeable",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Expr {
    /// A constant; `value` holds the low `ty.bits()` bits (bools are 0 or 1).
    Const {
        ty: Ty,
        value: u64,
    },
    Var(VarRef),
    /// The address of byte 0 of a static object.
    ObjAddr(ObjectId),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Width change of an int; the target width is `ty`.
    Cast(CastOp, Ty, Box<Expr>),
    Ite(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Little-endian read of `ty.bits() / 8` bytes at the address.
    Load(Ty, Box<Expr>),
    /// True iff `bytes` bytes starting at the address lie inside one live object, writable
    /// for [`Access::Write`] (the front-end's checks before writes: `valid.N`), any for
    /// [`Access::Read`] (before reads: `readable.N`; read-only objects may be read), a heap
    /// object for [`Access::Free`] (before `free`: `freeable.N`).
    Valid(Access, u32, Box<Expr>),
    /// A floating-point operation on `op.arity()` operands.
    Fp(FpOp, Vec<Expr>),
}

/// Where an expression finds the types of variables.
pub trait TypeEnv {
    fn var_ty(&self, v: VarRef) -> Ty;
    fn pointer_ty(&self) -> Ty;
}

impl Expr {
    pub fn int(bits: u16, value: u64) -> Expr {
        let ty = Ty::Int(bits);
        Expr::Const {
            ty,
            value: value & ty.mask(),
        }
    }

    pub fn konst(ty: Ty, value: u64) -> Expr {
        Expr::Const {
            ty,
            value: value & ty.mask(),
        }
    }

    pub fn bool(b: bool) -> Expr {
        Expr::Const {
            ty: Ty::Bool,
            value: b as u64,
        }
    }

    pub fn local(id: LocalId) -> Expr {
        Expr::Var(VarRef::Local(id))
    }

    pub fn global(id: GlobalId) -> Expr {
        Expr::Var(VarRef::Global(id))
    }

    pub fn unary(op: UnOp, a: Expr) -> Expr {
        Expr::Unary(op, Box::new(a))
    }

    pub fn binary(op: BinOp, a: Expr, b: Expr) -> Expr {
        Expr::Binary(op, Box::new(a), Box::new(b))
    }

    pub fn not(a: Expr) -> Expr {
        Expr::unary(UnOp::Not, a)
    }

    pub fn cast(op: CastOp, ty: Ty, a: Expr) -> Expr {
        Expr::Cast(op, ty, Box::new(a))
    }

    pub fn ite(c: Expr, a: Expr, b: Expr) -> Expr {
        Expr::Ite(Box::new(c), Box::new(a), Box::new(b))
    }

    pub fn load(ty: Ty, addr: Expr) -> Expr {
        Expr::Load(ty, Box::new(addr))
    }

    pub fn valid(bytes: u32, addr: Expr) -> Expr {
        Expr::Valid(Access::Write, bytes, Box::new(addr))
    }

    /// `freeable.bytes(addr)`: the bytes lie in one live heap object.
    pub fn freeable(bytes: u32, addr: Expr) -> Expr {
        Expr::Valid(Access::Free, bytes, Box::new(addr))
    }

    /// `readable.bytes(addr)`: the bytes lie in one live object (read-only ones too).
    pub fn readable(bytes: u32, addr: Expr) -> Expr {
        Expr::Valid(Access::Read, bytes, Box::new(addr))
    }

    pub fn fp(op: FpOp, args: Vec<Expr>) -> Expr {
        Expr::Fp(op, args)
    }

    /// A float constant of width 32 or 64 from its value.
    pub fn f32(x: f32) -> Expr {
        Expr::Const {
            ty: Ty::F32,
            value: x.to_bits() as u64,
        }
    }

    pub fn f64(x: f64) -> Expr {
        Expr::Const {
            ty: Ty::F64,
            value: x.to_bits(),
        }
    }

    pub fn as_const(&self) -> Option<u64> {
        match self {
            Expr::Const { value, .. } => Some(*value),
            _ => None,
        }
    }

    pub fn is_true(&self) -> bool {
        matches!(
            self,
            Expr::Const {
                ty: Ty::Bool,
                value: 1
            }
        )
    }

    pub fn is_false(&self) -> bool {
        matches!(
            self,
            Expr::Const {
                ty: Ty::Bool,
                value: 0
            }
        )
    }

    /// The type of the expression, assuming it is well-typed (see [`crate::verify`]).
    pub fn ty(&self, env: &dyn TypeEnv) -> Ty {
        match self {
            Expr::Const { ty, .. } => *ty,
            Expr::Var(v) => env.var_ty(*v),
            Expr::ObjAddr(_) => env.pointer_ty(),
            Expr::Unary(_, a) => a.ty(env),
            Expr::Binary(op, a, _) => {
                if op.is_comparison() {
                    Ty::Bool
                } else {
                    a.ty(env)
                }
            }
            Expr::Cast(_, ty, _) => *ty,
            Expr::Ite(_, a, _) => a.ty(env),
            Expr::Load(ty, _) => *ty,
            Expr::Valid(..) => Ty::Bool,
            Expr::Fp(op, args) => op.result_ty(args.first().map_or(Ty::Bool, |a| a.ty(env))),
        }
    }

    /// Calls `f` on this expression and every sub-expression, parents first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Const { .. } | Expr::Var(_) | Expr::ObjAddr(_) => {}
            Expr::Unary(_, a) | Expr::Cast(_, _, a) | Expr::Load(_, a) | Expr::Valid(_, _, a) => {
                a.visit(f)
            }
            Expr::Binary(_, a, b) => {
                a.visit(f);
                b.visit(f);
            }
            Expr::Ite(c, a, b) => {
                c.visit(f);
                a.visit(f);
                b.visit(f);
            }
            Expr::Fp(_, args) => {
                for a in args {
                    a.visit(f);
                }
            }
        }
    }

    /// Rebuilds the expression bottom-up, replacing each node by `f(node)` after its children
    /// have been rewritten.
    pub fn rewrite(&self, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
        let e = match self {
            Expr::Const { .. } | Expr::Var(_) | Expr::ObjAddr(_) => self.clone(),
            Expr::Unary(op, a) => Expr::unary(*op, a.rewrite(f)),
            Expr::Cast(op, ty, a) => Expr::cast(*op, *ty, a.rewrite(f)),
            Expr::Load(ty, a) => Expr::load(*ty, a.rewrite(f)),
            Expr::Valid(k, n, a) => Expr::Valid(*k, *n, Box::new(a.rewrite(f))),
            Expr::Binary(op, a, b) => Expr::binary(*op, a.rewrite(f), b.rewrite(f)),
            Expr::Ite(c, a, b) => Expr::ite(c.rewrite(f), a.rewrite(f), b.rewrite(f)),
            Expr::Fp(op, args) => Expr::Fp(*op, args.iter().map(|a| a.rewrite(f)).collect()),
        };
        f(e)
    }

    /// The variables the expression reads.
    pub fn vars(&self) -> Vec<VarRef> {
        let mut out = Vec::new();
        self.visit(&mut |e| {
            if let Expr::Var(v) = e {
                if !out.contains(v) {
                    out.push(*v);
                }
            }
        });
        out
    }

    /// Whether the expression reads memory (a load or a validity test).
    pub fn reads_memory(&self) -> bool {
        let mut found = false;
        self.visit(&mut |e| found |= matches!(e, Expr::Load(..) | Expr::Valid(..)));
        found
    }

    /// Replaces variables by expressions.
    pub fn substitute(&self, f: &mut dyn FnMut(VarRef) -> Option<Expr>) -> Expr {
        self.rewrite(&mut |e| match e {
            Expr::Var(v) => f(v).unwrap_or(Expr::Var(v)),
            other => other,
        })
    }
}
