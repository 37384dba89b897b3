//! IR types, constants and expressions as C, with the IR's exact (SMT-LIB) meaning.
//!
//! Invariants of every C expression produced here:
//! - Its *value* is the IR value: an `iN` expression evaluates to the unsigned number the IR
//!   bit-vector denotes, a `bool` expression to 0 or 1.
//! - Its C *type* is the IR type's C type (`uintN_t`) for 32 and 64 bits, and an integer type
//!   that holds the value for 8 and 16 bits (those are cast back after every operation, so
//!   integer promotion never leaks a wider value).
//! - It has no undefined behaviour for any operand values: arithmetic is done in unsigned
//!   types of at least `int`'s width (so promoted `uint8_t`/`uint16_t` operands never meet
//!   signed overflow), and division, remainder and shifts go through helper functions that
//!   implement SMT-LIB's results for division by zero, `INT_MIN / -1` and over-wide shifts
//!   before C's operator is ever reached.
//!
//! Signed comparisons and sign extension convert unsigned values to `intN_t`; C calls that
//! implementation-defined (not undefined), and gcc, CBMC, ESBMC and Ultimate all define it
//! as two's complement.

use crate::EmitError;
use qicc_ir::{BinOp, CastOp, Expr, Ty, UnOp, VarRef};
use std::collections::BTreeSet;

/// Deeper expressions are refused rather than risk the emitter's stack.
const MAX_DEPTH: u32 = 5_000;

/// The C type of an IR type.
pub fn c_type(ty: Ty) -> Result<&'static str, EmitError> {
    match ty {
        Ty::Bool => Ok("_Bool"),
        Ty::Int(8) => Ok("uint8_t"),
        Ty::Int(16) => Ok("uint16_t"),
        Ty::Int(32) => Ok("uint32_t"),
        Ty::Int(64) => Ok("uint64_t"),
        Ty::Int(w) => Err(EmitError::Unsupported(format!(
            "bit-vectors of width {w} (C has 8, 16, 32 and 64-bit integers)"
        ))),
        // Not yet emitted (issue 19): refused, so the external verifier is not asked at all.
        Ty::Float(_) => Err(EmitError::Unsupported(float_unsupported())),
    }
}

/// Why a program with floats is not emitted: the C emission of IR floats (their rounding,
/// NaN bits and saturating conversions spelled in C) is not written yet, so Qicc+X answers
/// UNKNOWN for such a program's regions instead of asking the external verifier.
pub const FLOAT_EMISSION_GAP: &str =
    "floating point (the C emission of IR floats is not implemented yet)";

fn float_unsupported() -> String {
    FLOAT_EMISSION_GAP.to_string()
}

/// The signed C type of the same width.
fn signed_type(bits: u16) -> &'static str {
    match bits {
        8 => "int8_t",
        16 => "int16_t",
        32 => "int32_t",
        _ => "int64_t",
    }
}

/// An unsigned literal of the given width, of C type `uint32_t` (8 to 32 bits) or 64-bit.
fn unsigned_literal(bits: u16, value: u64) -> String {
    let digits = if value < 1024 {
        value.to_string()
    } else {
        format!("{value:#x}")
    };
    if bits > 32 {
        format!("{digits}ull")
    } else {
        format!("{digits}u")
    }
}

/// A constant of an IR type as a C expression.
pub fn literal(ty: Ty, value: u64) -> Result<String, EmitError> {
    let v = value & ty.mask();
    Ok(match ty {
        Ty::Bool => if v != 0 { "1" } else { "0" }.to_string(),
        Ty::Int(w @ (8 | 16)) => format!("(({}){})", c_type(ty)?, unsigned_literal(w, v)),
        Ty::Int(w) => {
            c_type(ty)?;
            unsigned_literal(w, v)
        }
        Ty::Float(_) => return Err(EmitError::Unsupported(float_unsupported())),
    })
}

/// The operator helpers the emitted file defines (only the ones it uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Helper {
    UDiv(u16),
    SDiv(u16),
    URem(u16),
    SRem(u16),
    Shl(u16),
    LShr(u16),
    AShr(u16),
}

impl Helper {
    fn of(op: BinOp, bits: u16) -> Option<Helper> {
        Some(match op {
            BinOp::UDiv => Helper::UDiv(bits),
            BinOp::SDiv => Helper::SDiv(bits),
            BinOp::URem => Helper::URem(bits),
            BinOp::SRem => Helper::SRem(bits),
            BinOp::Shl => Helper::Shl(bits),
            BinOp::LShr => Helper::LShr(bits),
            BinOp::AShr => Helper::AShr(bits),
            _ => return None,
        })
    }

    fn name(self) -> String {
        let (op, w) = match self {
            Helper::UDiv(w) => ("udiv", w),
            Helper::SDiv(w) => ("sdiv", w),
            Helper::URem(w) => ("urem", w),
            Helper::SRem(w) => ("srem", w),
            Helper::Shl(w) => ("shl", w),
            Helper::LShr(w) => ("lshr", w),
            Helper::AShr(w) => ("ashr", w),
        };
        format!("qicc_{op}{w}")
    }

    /// The helper's C definition (one function, SMT-LIB's edge cases first).
    pub fn definition(self) -> String {
        let w = match self {
            Helper::UDiv(w)
            | Helper::SDiv(w)
            | Helper::URem(w)
            | Helper::SRem(w)
            | Helper::Shl(w)
            | Helper::LShr(w)
            | Helper::AShr(w) => w,
        };
        let t = c_type(Ty::Int(w)).unwrap_or("uint64_t");
        let s = signed_type(w);
        let max = unsigned_literal(w, qicc_ir::types::mask(w));
        let sign = unsigned_literal(w, 1u64 << (w - 1));
        // The unsigned type arithmetic happens in: never narrower than int.
        let wide = if w > 32 { "uint64_t" } else { "uint32_t" };
        let name = self.name();
        let body = match self {
            Helper::UDiv(_) => format!("return b == 0 ? ({t}){max} : ({t})(a / b);"),
            Helper::URem(_) => format!("return b == 0 ? a : ({t})(a % b);"),
            Helper::SDiv(_) => format!(
                "if (b == 0) return (a & {sign}) ? ({t})1 : ({t}){max};\n  \
                 if (a == {sign} && b == {max}) return a; /* INT_MIN / -1 wraps */\n  \
                 return ({t})(({s})a / ({s})b);"
            ),
            Helper::SRem(_) => format!(
                "if (b == 0) return a;\n  \
                 if (a == {sign} && b == {max}) return 0; /* INT_MIN % -1 */\n  \
                 return ({t})(({s})a % ({s})b);"
            ),
            Helper::Shl(_) => format!("return b >= {w}u ? ({t})0 : ({t})(({wide})a << b);"),
            Helper::LShr(_) => format!("return b >= {w}u ? ({t})0 : ({t})(a >> b);"),
            Helper::AShr(_) => format!(
                "if (b >= {w}u) return (a & {sign}) ? ({t}){max} : ({t})0;\n  \
                 return ({t})((a >> b) | ((a & {sign}) ? ({t})~(({wide}){max} >> b) : ({t})0));"
            ),
        };
        format!("static inline {t} {name}({t} a, {t} b) {{\n  {body}\n}}\n")
    }
}

/// How expressions name things, and what they need defined.
pub struct ExprCx<'a> {
    pub env: &'a dyn qicc_ir::TypeEnv,
    pub local_names: &'a [Option<String>],
    pub global_names: &'a [String],
    /// The C macro of each static object's address, by `ObjectId` index (0 unused).
    pub object_addrs: &'a [String],
    pub helpers: &'a mut BTreeSet<Helper>,
    /// Whether the expression needed the memory runtime.
    pub uses_memory: bool,
}

impl ExprCx<'_> {
    pub fn var(&self, v: VarRef) -> Result<String, EmitError> {
        let name = match v {
            VarRef::Local(l) => self.local_names.get(l.index()).cloned().flatten(),
            VarRef::Global(g) => self.global_names.get(g.index()).cloned(),
        };
        name.ok_or_else(|| EmitError::Invalid(vec![format!("unknown variable {v:?}")]))
    }

    pub fn expr(&mut self, e: &Expr) -> Result<String, EmitError> {
        self.expr_at(e, 0)
    }

    fn expr_at(&mut self, e: &Expr, depth: u32) -> Result<String, EmitError> {
        if depth > MAX_DEPTH {
            return Err(EmitError::Unsupported(format!(
                "expression nested deeper than {MAX_DEPTH}"
            )));
        }
        let d = depth + 1;
        let ty = e.ty(self.env);
        Ok(match e {
            Expr::Const { ty, value } => literal(*ty, *value)?,
            Expr::Var(v) => self.var(*v)?,
            Expr::ObjAddr(o) => self
                .object_addrs
                .get(o.index())
                .cloned()
                .ok_or_else(|| EmitError::Invalid(vec![format!("object {o} does not exist")]))?,
            Expr::Unary(op, a) => {
                let a = self.expr_at(a, d)?;
                match (op, ty) {
                    (UnOp::Not, Ty::Bool) => format!("(!{a})"),
                    (UnOp::Not, Ty::Int(w)) if w <= 16 => {
                        format!("(({})~(uint32_t){a})", c_type(ty)?)
                    }
                    (UnOp::Not, _) => format!("(~{a})"),
                    (UnOp::Neg, Ty::Int(w)) if w <= 16 => {
                        format!("(({})(0u - (uint32_t){a}))", c_type(ty)?)
                    }
                    (UnOp::Neg, Ty::Int(w)) if w <= 32 => format!("(0u - {a})"),
                    (UnOp::Neg, _) => format!("(({})(0ull - {a}))", c_type(ty)?),
                }
            }
            Expr::Binary(op, a, b) => {
                let operand_ty = a.ty(self.env);
                let (sa, sb) = (self.expr_at(a, d)?, self.expr_at(b, d)?);
                self.binary(*op, operand_ty, sa, sb)?
            }
            Expr::Cast(op, to, a) => {
                let from = a.ty(self.env);
                let sa = self.expr_at(a, d)?;
                let t = c_type(*to)?;
                c_type(from)?;
                match op {
                    CastOp::Zext | CastOp::Trunc => format!("(({t}){sa})"),
                    CastOp::Sext => format!(
                        "(({t})({})({}){sa})",
                        signed_type(to.bits()),
                        signed_type(from.bits())
                    ),
                }
            }
            Expr::Ite(c, a, b) => {
                let (sc, sa, sb) = (
                    self.expr_at(c, d)?,
                    self.expr_at(a, d)?,
                    self.expr_at(b, d)?,
                );
                if ty == Ty::Bool {
                    format!("({sc} ? {sa} : {sb})")
                } else {
                    format!("(({})({sc} ? {sa} : {sb}))", c_type(ty)?)
                }
            }
            Expr::Load(t, a) => {
                c_type(*t)?;
                self.uses_memory = true;
                let sa = self.expr_at(a, d)?;
                format!("qicc_load{}({sa})", t.bits())
            }
            Expr::Valid(k, n, a) => {
                self.uses_memory = true;
                let sa = self.expr_at(a, d)?;
                let mode = match k {
                    qicc_ir::Access::Read => 0,
                    qicc_ir::Access::Write => 1,
                    qicc_ir::Access::Free => 2,
                };
                format!("qicc_access({sa}, {n}u, {mode})")
            }
            Expr::Fp(..) => return Err(EmitError::Unsupported(float_unsupported())),
        })
    }

    fn binary(&mut self, op: BinOp, ty: Ty, a: String, b: String) -> Result<String, EmitError> {
        if let Some(h) = Helper::of(op, ty.bits()) {
            c_type(ty)?;
            self.helpers.insert(h);
            return Ok(format!("{}({a}, {b})", h.name()));
        }
        let sym = match op {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Ult | BinOp::Slt => "<",
            BinOp::Ule | BinOp::Sle => "<=",
            _ => unreachable!("helper operators are handled above"),
        };
        Ok(match (op, ty) {
            (BinOp::Slt | BinOp::Sle, Ty::Int(w)) => {
                let s = signed_type(w);
                format!("(({s}){a} {sym} ({s}){b})")
            }
            _ if op.is_comparison() || ty == Ty::Bool => format!("({a} {sym} {b})"),
            (_, Ty::Int(w)) if w <= 16 => {
                format!("(({})((uint32_t){a} {sym} (uint32_t){b}))", c_type(ty)?)
            }
            (BinOp::Add | BinOp::Sub | BinOp::Mul, Ty::Int(64)) => {
                format!("((uint64_t)({a} {sym} {b}))")
            }
            _ => format!("({a} {sym} {b})"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_carry_their_width() {
        assert_eq!(literal(Ty::I8, 0x1ff).unwrap(), "((uint8_t)255u)");
        assert_eq!(literal(Ty::I32, 5).unwrap(), "5u");
        assert_eq!(literal(Ty::I64, u64::MAX).unwrap(), "0xffffffffffffffffull");
        assert_eq!(literal(Ty::Bool, 1).unwrap(), "1");
        assert!(matches!(
            literal(Ty::Int(12), 1),
            Err(EmitError::Unsupported(_))
        ));
    }

    #[test]
    fn helpers_guard_the_edge_cases_before_dividing_or_shifting() {
        let d = Helper::SDiv(32).definition();
        let guard = d.find("b == 0").unwrap();
        let div = d.find("(int32_t)a / (int32_t)b").unwrap();
        assert!(guard < div);
        assert!(d.contains("a == 0x80000000u && b == 0xffffffffu"));
        let s = Helper::Shl(8).definition();
        assert!(s.contains("b >= 8u ? (uint8_t)0 : (uint8_t)((uint32_t)a << b)"));
    }
}
