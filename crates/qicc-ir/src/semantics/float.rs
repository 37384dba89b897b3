//! The meaning of the IEEE 754 floating-point operations ([`FpOp`]) on bit patterns.
//!
//! Floats are binary32 (`Ty::Float(32)`) and binary64 (`Ty::Float(64)`) values held as their
//! IEEE bit patterns in `u64`s. Decisions where IEEE or C leave a choice, made once here:
//!
//! - **NaN results.** Every operation that computes a float (arithmetic, `sqrt`, `fmod`,
//!   round-to-integral, min/max, conversions) and produces a NaN produces the *default quiet
//!   NaN*, positive with only the top fraction bit set (`0x7fc00000`, `0x7ff8000000000000`),
//!   whatever the NaN operands' payloads: one NaN, as in SMT-LIB's floating-point theory, so
//!   that the solver's models replay exactly. (x86 SSE instead propagates a NaN operand's
//!   payload and produces `0xffc00000` for invalid operations; only a program that reads a
//!   NaN's bits can see the difference.) `neg`, `abs`, the bit casts and the memory keep a
//!   NaN's bits: they are bit operations.
//! - **Signed zeros** are exact: `x + (-x)` is `+0` except in RTN where it is `-0`,
//!   `sqrt(-0) = -0`, products and quotients take the sign of their operands' signs.
//! - **min/max** follow C's `fmin`/`fmax` (a NaN operand is ignored) and order the zeros:
//!   `min(-0, +0) = -0`, `max(-0, +0) = +0`.
//! - **Float to int** truncates toward zero (C's cast); NaN gives 0 and a value outside the
//!   target's range saturates to the target's minimum or maximum (Rust's `as`). C makes both
//!   undefined; the front-end guards them with a UB check, so the value only has to be
//!   deterministic.
//!
//! Round-to-nearest-even arithmetic uses Rust's `f32`/`f64`, which is exact IEEE. The other
//! rounding modes go through [`round`], which rounds an exact value (a big integer times a
//! power of two, plus a "sticky" flag for an inexact tail) to the format; property tests check
//! that this path agrees with Rust's in round-to-nearest-even and brackets the exact result in
//! the directed modes.

use crate::expr::{FpOp, RoundingMode};
use crate::semantics::to_signed;
use crate::types::{mask, Ty};
use num_bigint::BigUint;
use std::cmp::Ordering;

/// The parameters of a binary interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub bits: u16,
    /// Explicit fraction bits (23, 52).
    pub frac: u32,
    /// Exponent bits (8, 11).
    pub exp: u32,
}

pub const BINARY32: Format = Format {
    bits: 32,
    frac: 23,
    exp: 8,
};
pub const BINARY64: Format = Format {
    bits: 64,
    frac: 52,
    exp: 11,
};

impl Format {
    /// The format of a float width. Only 32 and 64 are well-formed ([`crate::verify`] rejects
    /// the rest); any other width is evaluated as binary64 so that evaluation stays total.
    pub fn of(bits: u16) -> Format {
        if bits == 32 {
            BINARY32
        } else {
            BINARY64
        }
    }

    fn bias(self) -> i64 {
        (1i64 << (self.exp - 1)) - 1
    }

    /// Precision in bits, the hidden bit included.
    fn prec(self) -> u32 {
        self.frac + 1
    }

    /// The exponent of the least significant bit of the subnormals.
    fn emin_q(self) -> i64 {
        1 - self.bias() - self.frac as i64
    }

    fn sign(self) -> u64 {
        1u64 << (self.bits - 1)
    }

    fn max_biased(self) -> u64 {
        (1u64 << self.exp) - 1
    }

    fn frac_mask(self) -> u64 {
        (1u64 << self.frac) - 1
    }

    fn sign_if(self, neg: bool) -> u64 {
        if neg {
            self.sign()
        } else {
            0
        }
    }

    pub fn zero(self, neg: bool) -> u64 {
        self.sign_if(neg)
    }

    pub fn inf(self, neg: bool) -> u64 {
        self.sign_if(neg) | self.max_biased() << self.frac
    }

    pub fn max_finite(self, neg: bool) -> u64 {
        self.sign_if(neg) | (self.max_biased() - 1) << self.frac | self.frac_mask()
    }

    /// The default quiet NaN (see the module documentation).
    pub fn nan(self) -> u64 {
        self.max_biased() << self.frac | 1u64 << (self.frac - 1)
    }

    fn biased_exp(self, x: u64) -> u64 {
        (x >> self.frac) & self.max_biased()
    }

    pub fn is_nan(self, x: u64) -> bool {
        self.biased_exp(x) == self.max_biased() && x & self.frac_mask() != 0
    }

    pub fn is_inf(self, x: u64) -> bool {
        self.biased_exp(x) == self.max_biased() && x & self.frac_mask() == 0
    }

    pub fn is_zero(self, x: u64) -> bool {
        x & mask(self.bits) & !self.sign() == 0
    }

    pub fn is_subnormal(self, x: u64) -> bool {
        self.biased_exp(x) == 0 && x & self.frac_mask() != 0
    }

    pub fn is_normal(self, x: u64) -> bool {
        let e = self.biased_exp(x);
        e != 0 && e != self.max_biased()
    }

    pub fn is_negative(self, x: u64) -> bool {
        x & self.sign() != 0
    }

    /// The value as an `f64` (exact: every binary32 value is a binary64 value).
    pub fn to_f64(self, x: u64) -> f64 {
        if self.bits == 32 {
            f32::from_bits(x as u32) as f64
        } else {
            f64::from_bits(x)
        }
    }
}

/// The default quiet NaN of a float width.
pub fn default_nan(bits: u16) -> u64 {
    Format::of(bits).nan()
}

/// A float split into its meaning.
enum Class {
    Nan,
    Inf(bool),
    /// `(-1)^neg * m * 2^e`, zero included (`m = 0`).
    Finite {
        neg: bool,
        m: u64,
        e: i64,
    },
}

fn decode(f: Format, x: u64) -> Class {
    let neg = f.is_negative(x);
    let be = f.biased_exp(x);
    let fr = x & f.frac_mask();
    if be == f.max_biased() {
        if fr != 0 {
            Class::Nan
        } else {
            Class::Inf(neg)
        }
    } else if be == 0 {
        Class::Finite {
            neg,
            m: fr,
            e: f.emin_q(),
        }
    } else {
        Class::Finite {
            neg,
            m: fr | 1u64 << f.frac,
            e: be as i64 + f.emin_q() - 1,
        }
    }
}

fn big_to_u64(b: &BigUint) -> u64 {
    // Callers only convert values below 2^54 here; a larger one would be a bug in this module,
    // and saturating keeps evaluation total.
    let d = b.to_u64_digits();
    match d.len() {
        0 => 0,
        1 => d[0],
        _ => u64::MAX,
    }
}

/// Rounds the exact value `(-1)^neg * (mag + t) * 2^e`, where `t` is 0 if `!sticky` and some
/// number strictly between 0 and 1 otherwise, to format `f` in mode `rm`. An exact zero
/// (`mag = 0`, `!sticky`) gives the zero of sign `neg`.
pub(crate) fn round(
    f: Format,
    neg: bool,
    mag: BigUint,
    e: i64,
    sticky: bool,
    rm: RoundingMode,
) -> u64 {
    let p = f.prec() as u64;
    let (mut mag, mut e) = (mag, e);
    if sticky && mag.bits() < p + 2 {
        // Make room so that the inexact tail lies strictly below the rounding position (and
        // below its half): then it only breaks ties and makes the result inexact.
        let k = p + 2 - mag.bits();
        mag <<= k as usize;
        e -= k as i64;
    }
    if mag.bits() == 0 {
        return f.zero(neg);
    }
    let top = e + mag.bits() as i64 - 1;
    let mut q = (top - (p as i64 - 1)).max(f.emin_q());
    let shift = q - e;
    let mut kept = if shift <= 0 {
        // Exact (sticky is impossible here, see above).
        big_to_u64(&(mag << (-shift) as usize))
    } else {
        let shift = shift as usize;
        let kept_big = &mag >> shift;
        let rem = &mag - (&kept_big << shift);
        let half = BigUint::from(1u8) << (shift - 1);
        let kept = big_to_u64(&kept_big);
        let (above, tie) = match rem.cmp(&half) {
            Ordering::Greater => (true, false),
            Ordering::Equal => (sticky, !sticky),
            Ordering::Less => (false, false),
        };
        let inexact = rem.bits() != 0 || sticky;
        let up = match rm {
            RoundingMode::Rne => above || (tie && kept & 1 == 1),
            RoundingMode::Rna => above || tie,
            RoundingMode::Rtz => false,
            RoundingMode::Rtp => inexact && !neg,
            RoundingMode::Rtn => inexact && neg,
        };
        kept + up as u64
    };
    if kept == 1u64 << p {
        kept >>= 1;
        q += 1;
    }
    if kept == 0 {
        return f.zero(neg);
    }
    if kept < 1u64 << (p - 1) {
        // Subnormal: q is the subnormal exponent.
        return f.sign_if(neg) | kept;
    }
    let biased = q - f.emin_q() + 1;
    if biased >= f.max_biased() as i64 {
        return overflow(f, neg, rm);
    }
    f.sign_if(neg) | (biased as u64) << f.frac | (kept & f.frac_mask())
}

/// The result of a finite value too large for the format.
fn overflow(f: Format, neg: bool, rm: RoundingMode) -> u64 {
    let to_inf = match rm {
        RoundingMode::Rne | RoundingMode::Rna => true,
        RoundingMode::Rtz => false,
        RoundingMode::Rtp => !neg,
        RoundingMode::Rtn => neg,
    };
    if to_inf {
        f.inf(neg)
    } else {
        f.max_finite(neg)
    }
}

/// `a + b` rounded in `rm`, through the exact path.
pub fn add_exact(f: Format, a: u64, b: u64, rm: RoundingMode) -> u64 {
    match (decode(f, a), decode(f, b)) {
        (Class::Nan, _) | (_, Class::Nan) => f.nan(),
        (Class::Inf(x), Class::Inf(y)) => {
            if x == y {
                f.inf(x)
            } else {
                f.nan()
            }
        }
        (Class::Inf(x), _) | (_, Class::Inf(x)) => f.inf(x),
        (
            Class::Finite {
                neg: na,
                m: ma,
                e: ea,
            },
            Class::Finite {
                neg: nb,
                m: mb,
                e: eb,
            },
        ) => sum_exact(
            f,
            (na, BigUint::from(ma), ea),
            (nb, BigUint::from(mb), eb),
            rm,
        ),
    }
}

/// The exact sum of `(-1)^neg * mag * 2^e` terms, rounded in `rm`.
fn sum_exact(
    f: Format,
    (na, ma, ea): (bool, BigUint, i64),
    (nb, mb, eb): (bool, BigUint, i64),
    rm: RoundingMode,
) -> u64 {
    let e = ea.min(eb);
    let x = ma << (ea - e) as usize;
    let y = mb << (eb - e) as usize;
    let (neg, mag) = if na == nb {
        (na, x + y)
    } else if x >= y {
        (na, x - y)
    } else {
        (nb, y - x)
    };
    if mag.bits() == 0 {
        // An exact zero sum: the terms' sign if they agree, else +0 (-0 in RTN).
        return f.zero(if na == nb {
            na
        } else {
            rm == RoundingMode::Rtn
        });
    }
    round(f, neg, mag, e, false, rm)
}

/// `a * b + c` with one rounding (IEEE fusedMultiplyAdd).
pub fn fma_exact(f: Format, a: u64, b: u64, c: u64, rm: RoundingMode) -> u64 {
    let np = f.is_negative(a) != f.is_negative(b);
    match (decode(f, a), decode(f, b), decode(f, c)) {
        (Class::Nan, _, _) | (_, Class::Nan, _) | (_, _, Class::Nan) => f.nan(),
        (Class::Inf(_), Class::Finite { m: 0, .. }, _)
        | (Class::Finite { m: 0, .. }, Class::Inf(_), _) => f.nan(),
        (Class::Inf(_), _, cc) | (_, Class::Inf(_), cc) => match cc {
            Class::Inf(nc) if nc != np => f.nan(),
            _ => f.inf(np),
        },
        (_, _, Class::Inf(nc)) => f.inf(nc),
        (
            Class::Finite { m: ma, e: ea, .. },
            Class::Finite { m: mb, e: eb, .. },
            Class::Finite {
                neg: nc,
                m: mc,
                e: ec,
            },
        ) => sum_exact(
            f,
            (np, BigUint::from(ma) * BigUint::from(mb), ea + eb),
            (nc, BigUint::from(mc), ec),
            rm,
        ),
    }
}

pub fn mul_exact(f: Format, a: u64, b: u64, rm: RoundingMode) -> u64 {
    let neg = f.is_negative(a) != f.is_negative(b);
    match (decode(f, a), decode(f, b)) {
        (Class::Nan, _) | (_, Class::Nan) => f.nan(),
        (Class::Inf(_), Class::Finite { m: 0, .. })
        | (Class::Finite { m: 0, .. }, Class::Inf(_)) => f.nan(),
        (Class::Inf(_), _) | (_, Class::Inf(_)) => f.inf(neg),
        (Class::Finite { m: ma, e: ea, .. }, Class::Finite { m: mb, e: eb, .. }) => round(
            f,
            neg,
            BigUint::from(ma) * BigUint::from(mb),
            ea + eb,
            false,
            rm,
        ),
    }
}

pub fn div_exact(f: Format, a: u64, b: u64, rm: RoundingMode) -> u64 {
    let neg = f.is_negative(a) != f.is_negative(b);
    match (decode(f, a), decode(f, b)) {
        (Class::Nan, _) | (_, Class::Nan) | (Class::Inf(_), Class::Inf(_)) => f.nan(),
        (Class::Inf(_), _) => f.inf(neg),
        (_, Class::Inf(_)) => f.zero(neg),
        (Class::Finite { m: 0, .. }, Class::Finite { m: 0, .. }) => f.nan(),
        (Class::Finite { m: 0, .. }, _) => f.zero(neg),
        (_, Class::Finite { m: 0, .. }) => f.inf(neg),
        (Class::Finite { m: ma, e: ea, .. }, Class::Finite { m: mb, e: eb, .. }) => {
            // Enough quotient bits that the remainder only decides stickiness.
            let k = f.prec() as u64 + 3 + (64 - mb.leading_zeros()) as u64;
            let num = BigUint::from(ma) << k as usize;
            let den = BigUint::from(mb);
            let q = &num / &den;
            let r = num - &q * &den;
            round(f, neg, q, ea - eb - k as i64, r.bits() != 0, rm)
        }
    }
}

pub fn sqrt_exact(f: Format, a: u64, rm: RoundingMode) -> u64 {
    match decode(f, a) {
        Class::Nan | Class::Inf(true) => f.nan(),
        Class::Inf(false) => f.inf(false),
        Class::Finite { m: 0, .. } => a & mask(f.bits),
        Class::Finite { neg: true, .. } => f.nan(),
        Class::Finite { m, e, .. } => {
            let (mut m, mut e) = (BigUint::from(m), e);
            if e.rem_euclid(2) != 0 {
                m <<= 1usize;
                e -= 1;
            }
            let k = f.prec() as usize + 3;
            m <<= 2 * k;
            e -= 2 * k as i64;
            let r = m.sqrt();
            let sticky = &r * &r != m;
            round(f, false, r, e / 2, sticky, rm)
        }
    }
}

/// Converts a float of format `from` to format `to`, rounding in `rm`.
pub fn convert(from: Format, to: Format, a: u64, rm: RoundingMode) -> u64 {
    match decode(from, a) {
        Class::Nan => to.nan(),
        Class::Inf(neg) => to.inf(neg),
        Class::Finite { neg, m, e } => round(to, neg, BigUint::from(m), e, false, rm),
    }
}

/// The integer `(-1)^neg * mag` in format `f`, rounding in `rm` (zero is `+0`).
pub fn from_int(f: Format, neg: bool, mag: u64, rm: RoundingMode) -> u64 {
    if mag == 0 {
        return f.zero(false);
    }
    round(f, neg, BigUint::from(mag), 0, false, rm)
}

/// The value `(-1)^neg * (mag + t) * 2^e` in format `f`, rounding in `rm`, where `t` is 0 if
/// `!sticky` and some number strictly between 0 and 1 otherwise (the digits of a C hex float
/// literal that did not fit in `mag`).
pub fn from_scaled(f: Format, neg: bool, mag: u128, e: i64, sticky: bool, rm: RoundingMode) -> u64 {
    round(f, neg, BigUint::from(mag), e, sticky, rm)
}

fn native_rne(f: Format, op: FpOp, a: u64, b: u64) -> u64 {
    let r = if f.bits == 32 {
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        (match op {
            FpOp::Add(_) => x + y,
            FpOp::Sub(_) => x - y,
            FpOp::Mul(_) => x * y,
            FpOp::Div(_) => x / y,
            _ => x.sqrt(),
        })
        .to_bits() as u64
    } else {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        (match op {
            FpOp::Add(_) => x + y,
            FpOp::Sub(_) => x - y,
            FpOp::Mul(_) => x * y,
            FpOp::Div(_) => x / y,
            _ => x.sqrt(),
        })
        .to_bits()
    };
    canon(f, r)
}

/// The result with any NaN replaced by the default NaN.
fn canon(f: Format, r: u64) -> u64 {
    if f.is_nan(r) {
        f.nan()
    } else {
        r
    }
}

/// Applies an `f64` function to a float of format `f`; for binary32 the function must give a
/// binary32 value for binary32 arguments (true of the exact operations used here).
fn via_f64(f: Format, a: u64, g: impl Fn(f64) -> f64) -> u64 {
    let r = g(f.to_f64(a));
    let bits = if f.bits == 32 {
        (r as f32).to_bits() as u64
    } else {
        r.to_bits()
    };
    canon(f, bits)
}

fn min_max(f: Format, a: u64, b: u64, max: bool) -> u64 {
    match (f.is_nan(a), f.is_nan(b)) {
        (true, true) => return f.nan(),
        (true, false) => return b,
        (false, true) => return a,
        _ => {}
    }
    if f.is_zero(a) && f.is_zero(b) {
        // Order the zeros: -0 < +0.
        let a_first = f.is_negative(a) != max;
        return if a_first { a } else { b };
    }
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    if (x < y) != max {
        a
    } else {
        b
    }
}

/// Float to int of width `to` (see the module documentation for NaN and out-of-range).
fn to_int(f: Format, a: u64, to: u16, signed: bool) -> u64 {
    // Well-formed IR has 1..=64; clamping keeps ill-formed IR from shifting out of range.
    let to = to.clamp(1, 64);
    let x = f.to_f64(a);
    if x.is_nan() {
        return 0;
    }
    let t = x.trunc();
    let v = if signed {
        // Powers of two are exact in f64.
        let lim = 2f64.powi(to as i32 - 1);
        if t >= lim {
            mask(to) >> 1
        } else if t < -lim {
            1u64 << (to - 1)
        } else {
            t as i64 as u64
        }
    } else if t <= 0.0 {
        0
    } else if t >= 2f64.powi(to as i32) {
        mask(to)
    } else {
        t as u64
    };
    v & mask(to)
}

/// Evaluates a float operation. `ty` is the type of the first operand (for [`FpOp::FromSInt`]
/// and [`FpOp::FromUInt`], an int; for [`FpOp::FromBits`], the int of the float's width);
/// `args` holds `op.arity()` values (missing ones read as 0 so that evaluation stays total).
/// Booleans are returned as 0 or 1.
pub fn eval_fp(op: FpOp, ty: Ty, args: &[u64]) -> u64 {
    let a = args.first().copied().unwrap_or(0) & ty.mask();
    let b = args.get(1).copied().unwrap_or(0) & ty.mask();
    let f = Format::of(ty.bits());
    match op {
        FpOp::Add(RoundingMode::Rne)
        | FpOp::Sub(RoundingMode::Rne)
        | FpOp::Mul(RoundingMode::Rne)
        | FpOp::Div(RoundingMode::Rne) => native_rne(f, op, a, b),
        FpOp::Sqrt(RoundingMode::Rne) => native_rne(f, op, a, 0),
        FpOp::Add(rm) => add_exact(f, a, b, rm),
        FpOp::Sub(rm) => add_exact(f, a, b ^ f.sign(), rm),
        FpOp::Mul(rm) => mul_exact(f, a, b, rm),
        FpOp::Div(rm) => div_exact(f, a, b, rm),
        FpOp::Sqrt(rm) => sqrt_exact(f, a, rm),
        FpOp::Fma(rm) => {
            let c = args.get(2).copied().unwrap_or(0) & ty.mask();
            fma_exact(f, a, b, c, rm)
        }
        // Rust's `%` on floats is C's `fmod`, which is exact.
        FpOp::Fmod => {
            if f.bits == 32 {
                canon(
                    f,
                    (f32::from_bits(a as u32) % f32::from_bits(b as u32)).to_bits() as u64,
                )
            } else {
                canon(f, (f64::from_bits(a) % f64::from_bits(b)).to_bits())
            }
        }
        FpOp::RoundToIntegral(rm) => via_f64(f, a, |x| match rm {
            RoundingMode::Rne => x.round_ties_even(),
            RoundingMode::Rna => x.round(),
            RoundingMode::Rtp => x.ceil(),
            RoundingMode::Rtn => x.floor(),
            RoundingMode::Rtz => x.trunc(),
        }),
        FpOp::Min => min_max(f, a, b, false),
        FpOp::Max => min_max(f, a, b, true),
        FpOp::Neg => a ^ f.sign(),
        FpOp::Abs => a & !f.sign(),
        FpOp::Eq => (f.to_f64(a) == f.to_f64(b)) as u64,
        FpOp::Lt => (f.to_f64(a) < f.to_f64(b)) as u64,
        FpOp::Le => (f.to_f64(a) <= f.to_f64(b)) as u64,
        FpOp::Ne => (f.to_f64(a) != f.to_f64(b)) as u64,
        FpOp::IsNan => f.is_nan(a) as u64,
        FpOp::IsInf => f.is_inf(a) as u64,
        FpOp::IsZero => f.is_zero(a) as u64,
        FpOp::IsNormal => f.is_normal(a) as u64,
        FpOp::IsSubnormal => f.is_subnormal(a) as u64,
        FpOp::SignBit => f.is_negative(a) as u64,
        FpOp::Convert { to, rm } => convert(f, Format::of(to), a, rm),
        FpOp::FromSInt { to, rm } => {
            let v = to_signed(a, ty.bits());
            from_int(Format::of(to), v < 0, v.unsigned_abs(), rm)
        }
        FpOp::FromUInt { to, rm } => from_int(Format::of(to), false, a, rm),
        FpOp::ToSInt { to } => to_int(f, a, to, true),
        FpOp::ToUInt { to } => to_int(f, a, to, false),
        FpOp::FromBits | FpOp::ToBits => a,
    }
}

/// A float value for people: Rust's shortest round-tripping decimal (`1.5`, `-0.0`, `inf`,
/// `-inf`, `1e-45`), or `nan` (`-nan` with the sign bit). The bits are not included.
pub fn display(bits: u16, x: u64) -> String {
    let f = Format::of(bits);
    if f.is_nan(x) {
        return if f.is_negative(x) { "-nan" } else { "nan" }.to_string();
    }
    if bits == 32 {
        let v = f32::from_bits(x as u32);
        // A whole number prints exactly (binary64 holds every binary32 value): the shortest
        // round-tripping form of 2^31 as a float is `2147483600.0`, which reads as another
        // number.
        if v.fract() == 0.0 && v.abs() < 1e18 {
            return format!("{:?}", v as f64);
        }
        format!("{v:?}")
    } else {
        format!("{:?}", f64::from_bits(x))
    }
}

#[cfg(test)]
mod tests;
