//! The one encoding of the IR's float operations in SMT-LIB's floating-point theory, shared by
//! every back-end.
//!
//! Floats are bit-vectors of their IEEE bits in the term store; a float node converts its
//! operands to the theory's floats, applies the theory's operation, and converts the result
//! back to bits. Every choice SMT-LIB leaves open is fixed here as `qicc_ir::semantics::float`
//! fixes it (the bits of a NaN, `min(-0, +0)`, float-to-int conversions out of range, C's
//! `fmod` against IEEE's remainder). A back-end supplies the theory's constructors through
//! [`FpTheory`]; only how a float becomes its IEEE bits differs between solvers (Z3 has
//! `fp.to_ieee_bv`, Bitwuzla has no such operator), so both translations are exact to the
//! IR's semantics by construction, and the differential tests hold them to each other.

use crate::store::TermStore;
use crate::term::TermId;
use qicc_ir::semantics::float::default_nan;
use qicc_ir::types::mask;
use qicc_ir::{FpOp, RoundingMode};
use std::collections::HashMap;

/// One operation of the floating-point theory (with the Boolean connectives the encoding
/// needs). Rounded operations take the rounding mode as their first argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Fp {
    Add,
    Sub,
    Mul,
    Div,
    Sqrt,
    RoundToIntegral,
    Fma,
    /// IEEE remainder (`fp.rem`).
    Rem,
    IsNan,
    IsZero,
    IsNegative,
    Abs,
    Neg,
    Lt,
    Leq,
    Geq,
    /// IEEE equality (`fp.eq`).
    Eq,
    Ite,
    And,
    Not,
    Xor,
}

/// The constructors of one back-end's floating-point theory, over its term handle `T`.
pub(crate) trait FpTheory {
    type T: Copy;
    fn rm(&mut self, m: RoundingMode) -> Result<Self::T, String>;
    /// The bit-vector constant `v` (masked to `w` bits).
    fn bv(&mut self, w: u16, v: u64) -> Result<Self::T, String>;
    /// The float of width `w` whose IEEE bits are `bits`.
    fn float_of_bits(&mut self, w: u16, bits: Self::T) -> Result<Self::T, String>;
    /// The IEEE bits of the float `r` of width `w` when it is not a NaN (any NaN's bits
    /// when it is: [`bits_of_float`] fixes those).
    fn ieee_bits(&mut self, w: u16, r: Self::T) -> Result<Self::T, String>;
    fn op(&mut self, op: Fp, args: &[Self::T]) -> Result<Self::T, String>;
    /// The float of width `to` nearest to `x` in mode `rm`: `x` a float, or a signed or
    /// unsigned bit-vector.
    fn to_float(&mut self, from: From, rm: Self::T, x: Self::T, to: u16)
        -> Result<Self::T, String>;
    /// `x` (a float) rounded in mode `rm` to a signed or unsigned bit-vector of width `to`
    /// (SMT-LIB's `fp.to_sbv`/`fp.to_ubv`: unspecified out of range).
    fn to_int(&mut self, signed: bool, rm: Self::T, x: Self::T, to: u16)
        -> Result<Self::T, String>;

    fn float_const(&mut self, w: u16, v: u64) -> Result<Self::T, String> {
        let b = self.bv(w, v)?;
        self.float_of_bits(w, b)
    }

    fn ite(&mut self, c: Self::T, a: Self::T, b: Self::T) -> Result<Self::T, String> {
        self.op(Fp::Ite, &[c, a, b])
    }
}

/// What [`FpTheory::to_float`] converts from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum From {
    Float,
    SInt,
    UInt,
}

/// The operands of the float node `t` as a back-end translated them (`memo`, by term index):
/// the width of the first, their terms, and the float values known for them (`float_value`:
/// see [`encode`]'s `known`).
pub(crate) fn operands<T: Copy>(
    store: &TermStore,
    t: TermId,
    op: FpOp,
    memo: &[Option<T>],
    float_value: &HashMap<usize, T>,
) -> Result<(u16, Vec<T>, Vec<Option<T>>), String> {
    let mut args: Vec<TermId> = Vec::with_capacity(3);
    store.node(t).for_each_child(|c| args.push(c));
    let Some(&first) = args.first() else {
        return Err(format!("internal error: {} with no operands", op.name()));
    };
    let mut k = Vec::with_capacity(args.len());
    for a in &args {
        match memo.get(a.index()).copied().flatten() {
            Some(x) => k.push(x),
            None => return Err("internal error: child translated after its parent".to_string()),
        }
    }
    let known = args
        .iter()
        .map(|a| float_value.get(&a.index()).copied())
        .collect();
    Ok((store.width(first), k, known))
}

/// The IEEE bits of the float `r` of width `w`, a NaN as the IR's default NaN (SMT-LIB leaves
/// the bits of a NaN unspecified; `qicc_ir::semantics::float` fixes them).
fn bits_of_float<B: FpTheory>(b: &mut B, w: u16, r: B::T) -> Result<B::T, String> {
    let nan = b.bv(w, default_nan(w))?;
    let is_nan = b.op(Fp::IsNan, &[r])?;
    let bits = b.ieee_bits(w, r)?;
    b.ite(is_nan, nan, bits)
}

/// The term of the float node `op` over the translated operands `k` (IEEE bits of width `w`,
/// ints for the int-to-float conversions): bits for operations with a float result, a Bool for
/// comparisons, an int for float-to-int conversions. With it, for an operation with a float
/// result, that float (the theory's value the bits were taken from).
///
/// `known[i]`, when given, is the float operand `i`'s bits were taken from (the value another
/// float node returned): it is used instead of converting the bits back, which is the same
/// value — `to_fp(ite(isNaN r, NaN, bits r))` is `r` under SMT-LIB's `=`, where every NaN is
/// one value — and keeps chains of float operations in the float theory, as the solvers'
/// float reasoning wants them, rather than through a conversion to bits and back at each step.
pub(crate) fn encode<B: FpTheory>(
    b: &mut B,
    op: FpOp,
    w: u16,
    k: &[B::T],
    known: &[Option<B::T>],
) -> Result<(B::T, Option<B::T>), String> {
    if k.len() != op.arity() {
        return Err(format!(
            "internal error: {} with {} operands",
            op.name(),
            k.len()
        ));
    }
    // The operands as floats (not for the int-to-float conversions, whose operand is an int).
    let mut f: Vec<B::T> = Vec::with_capacity(3);
    if !matches!(op, FpOp::FromSInt { .. } | FpOp::FromUInt { .. }) {
        for (i, &x) in k.iter().enumerate() {
            match known.get(i).copied().flatten() {
                Some(r) => f.push(r),
                None => f.push(b.float_of_bits(w, x)?),
            }
        }
    }
    // The float result, for the operations that have one.
    let mut value = None;
    let mut bits = |b: &mut B, w: u16, r: B::T| {
        value = Some(r);
        bits_of_float(b, w, r)
    };
    let r = match op {
        FpOp::Add(m) | FpOp::Sub(m) | FpOp::Mul(m) | FpOp::Div(m) => {
            let rm = b.rm(m)?;
            let g = match op {
                FpOp::Add(_) => Fp::Add,
                FpOp::Sub(_) => Fp::Sub,
                FpOp::Mul(_) => Fp::Mul,
                _ => Fp::Div,
            };
            let r = b.op(g, &[rm, f[0], f[1]])?;
            bits(b, w, r)?
        }
        FpOp::Sqrt(m) | FpOp::RoundToIntegral(m) => {
            let rm = b.rm(m)?;
            let g = if matches!(op, FpOp::Sqrt(_)) {
                Fp::Sqrt
            } else {
                Fp::RoundToIntegral
            };
            let r = b.op(g, &[rm, f[0]])?;
            bits(b, w, r)?
        }
        FpOp::Fma(m) => {
            let rm = b.rm(m)?;
            let r = b.op(Fp::Fma, &[rm, f[0], f[1], f[2]])?;
            bits(b, w, r)?
        }
        FpOp::Fmod => {
            // C's fmod is x - n*y with n = x/y truncated; IEEE's remainder (fp.rem) rounds
            // n to nearest instead, so its result m lies in [-|y|/2, |y|/2] and may have the
            // sign opposite to x. Then fmod = m + |y| (x positive) or m - |y| (x negative):
            // the two differ by exactly |y|, and fmod's result is representable (fmod is
            // always exact), so the addition rounds nothing. A zero m already has x's sign
            // (IEEE), as fmod's zero has; NaN, infinite x and zero y give NaN either way,
            // and infinite y gives m = x, as fmod does.
            let (x, y) = (f[0], f[1]);
            let m = b.op(Fp::Rem, &[x, y])?;
            let m_zero = b.op(Fp::IsZero, &[m])?;
            let m_nonzero = b.op(Fp::Not, &[m_zero])?;
            let m_neg = b.op(Fp::IsNegative, &[m])?;
            let x_neg = b.op(Fp::IsNegative, &[x])?;
            let differ = b.op(Fp::Xor, &[m_neg, x_neg])?;
            let fix = b.op(Fp::And, &[m_nonzero, differ])?;
            let ay = b.op(Fp::Abs, &[y])?;
            let nay = b.op(Fp::Neg, &[ay])?;
            let step = b.ite(x_neg, nay, ay)?;
            let rne = b.rm(RoundingMode::Rne)?;
            let fixed = b.op(Fp::Add, &[rne, m, step])?;
            let r = b.ite(fix, fixed, m)?;
            bits(b, w, r)?
        }
        FpOp::Min | FpOp::Max => {
            // C's fmin/fmax on the bits (SMT-LIB's fp.min/fp.max leave min(-0, +0) open):
            // a NaN operand is ignored (two give the default NaN), -0 < +0, and otherwise
            // min picks x iff x < y, max picks x iff not x < y (`semantics::float::min_max`).
            let (x, y) = (f[0], f[1]);
            let (xb, yb) = (k[0], k[1]);
            let nan = b.bv(w, default_nan(w))?;
            let x_nan = b.op(Fp::IsNan, &[x])?;
            let y_nan = b.op(Fp::IsNan, &[y])?;
            let x_zero = b.op(Fp::IsZero, &[x])?;
            let y_zero = b.op(Fp::IsZero, &[y])?;
            let zeros = b.op(Fp::And, &[x_zero, y_zero])?;
            let x_neg = b.op(Fp::IsNegative, &[x])?;
            let lt = b.op(Fp::Lt, &[x, y])?;
            let (on_zeros, on_lt) = if op == FpOp::Min {
                (b.ite(x_neg, xb, yb)?, b.ite(lt, xb, yb)?)
            } else {
                (b.ite(x_neg, yb, xb)?, b.ite(lt, yb, xb)?)
            };
            let numbers = b.ite(zeros, on_zeros, on_lt)?;
            let x_num = b.ite(y_nan, xb, numbers)?;
            let x_is_nan = b.ite(y_nan, nan, yb)?;
            b.ite(x_nan, x_is_nan, x_num)?
        }
        FpOp::Eq => b.op(Fp::Eq, &[f[0], f[1]])?,
        FpOp::Lt => b.op(Fp::Lt, &[f[0], f[1]])?,
        FpOp::Le => b.op(Fp::Leq, &[f[0], f[1]])?,
        FpOp::Convert { to, rm: m } => {
            let rm = b.rm(m)?;
            let r = b.to_float(From::Float, rm, f[0], to)?;
            bits(b, to, r)?
        }
        FpOp::FromSInt { to, rm: m } | FpOp::FromUInt { to, rm: m } => {
            let rm = b.rm(m)?;
            let from = if matches!(op, FpOp::FromSInt { .. }) {
                From::SInt
            } else {
                From::UInt
            };
            let r = b.to_float(from, rm, k[0], to)?;
            bits(b, to, r)?
        }
        FpOp::ToSInt { to } | FpOp::ToUInt { to } => {
            // Truncation toward zero (RTZ), with SMT-LIB's unspecified cases fixed as the IR
            // fixes them: NaN gives 0, values below / at or above the range saturate.
            let x = f[0];
            let signed = matches!(op, FpOp::ToSInt { .. });
            let (low, min, high, max) = if signed {
                let lim = crate::build_fp::pow2_bits(w, to - 1);
                let hi = b.float_const(w, lim)?;
                let lo = b.op(Fp::Neg, &[hi])?;
                (lo, 1u64 << (to - 1), hi, mask(to) >> 1)
            } else {
                // Below 0 is (-1, 0), which truncates to 0, or less, which saturates to 0.
                let lo = b.float_const(w, 0)?;
                let hi = b.float_const(w, crate::build_fp::pow2_bits(w, to))?;
                (lo, 0, hi, mask(to))
            };
            let rtz = b.rm(RoundingMode::Rtz)?;
            let conv = b.to_int(signed, rtz, x, to)?;
            let zero = b.bv(to, 0)?;
            let min = b.bv(to, min)?;
            let max = b.bv(to, max)?;
            let is_nan = b.op(Fp::IsNan, &[x])?;
            let below = b.op(Fp::Lt, &[x, low])?;
            let above = b.op(Fp::Geq, &[x, high])?;
            let r = b.ite(above, max, conv)?;
            let r = b.ite(below, min, r)?;
            b.ite(is_nan, zero, r)?
        }
        // `TermStore::fp` builds these from bit-vector operators: never nodes.
        _ => return Err(format!("internal error: {} as a float node", op.name())),
    };
    Ok((r, value))
}
