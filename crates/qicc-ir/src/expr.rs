//! Side-effect-free terms.
//!
//! An expression reads variables and memory but never changes them; every change of state is
//! an [`crate::Op`] on an edge. Evaluation is total: division by zero, over-wide shifts and
//! reads of memory that was never written all have a value (SMT-LIB's, see
//! [`crate::semantics`]). Where C leaves such a case undefined, the front-end guards it with an
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
    /// True iff `bytes` bytes starting at the address lie inside one live, writable object
    /// (used by the front-end's checks before writes).
    Valid(u32, Box<Expr>),
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
        Expr::Valid(bytes, Box::new(addr))
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
        }
    }

    /// Calls `f` on this expression and every sub-expression, parents first.
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match self {
            Expr::Const { .. } | Expr::Var(_) | Expr::ObjAddr(_) => {}
            Expr::Unary(_, a) | Expr::Cast(_, _, a) | Expr::Load(_, a) | Expr::Valid(_, a) => {
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
            Expr::Valid(n, a) => Expr::valid(*n, a.rewrite(f)),
            Expr::Binary(op, a, b) => Expr::binary(*op, a.rewrite(f), b.rewrite(f)),
            Expr::Ite(c, a, b) => Expr::ite(c.rewrite(f), a.rewrite(f), b.rewrite(f)),
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
