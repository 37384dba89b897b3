//! The float semantics against Rust's IEEE arithmetic (round-to-nearest-even), the directed
//! modes against the exact result, and the NaN / signed-zero / conversion decisions.

use super::*;
use proptest::prelude::*;
use RoundingMode::*;

const F32: Ty = Ty::F32;
const F64: Ty = Ty::F64;

fn f32b(x: f32) -> u64 {
    x.to_bits() as u64
}

fn ev32(op: FpOp, a: f32, b: f32) -> f32 {
    f32::from_bits(eval_fp(op, F32, &[f32b(a), f32b(b)]) as u32)
}

/// Bit patterns that hit the interesting classes often: zeros, subnormals, the extremes,
/// infinities, NaNs with payloads, and values near 1.
fn bits32() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u32>().prop_map(|x| x as u64),
        (any::<bool>(), 0u32..4, 0u32..(1 << 23)).prop_map(|(s, k, f)| {
            let e = [0u32, 1, 254, 255][k as usize];
            ((s as u32) << 31 | e << 23 | f) as u64
        }),
        (any::<bool>(), 120u32..135, any::<u32>())
            .prop_map(|(s, e, f)| ((s as u32) << 31 | e << 23 | (f & 0x7fffff)) as u64),
    ]
}

fn bits64() -> impl Strategy<Value = u64> {
    prop_oneof![
        any::<u64>(),
        (any::<bool>(), 0u64..4, any::<u64>()).prop_map(|(s, k, f)| {
            let e = [0u64, 1, 2046, 2047][k as usize];
            (s as u64) << 63 | e << 52 | (f & ((1 << 52) - 1))
        }),
        (any::<bool>(), 1000u64..1050, any::<u64>())
            .prop_map(|(s, e, f)| (s as u64) << 63 | e << 52 | (f & ((1 << 52) - 1))),
    ]
}

fn arith(i: u8, rm: RoundingMode) -> FpOp {
    match i % 5 {
        0 => FpOp::Add(rm),
        1 => FpOp::Sub(rm),
        2 => FpOp::Mul(rm),
        3 => FpOp::Div(rm),
        _ => FpOp::Sqrt(rm),
    }
}

/// The exact path (used for the directed modes) run in any mode.
fn exact(f: Format, op: FpOp, a: u64, b: u64, rm: RoundingMode) -> u64 {
    match op {
        FpOp::Add(_) => add_exact(f, a, b, rm),
        FpOp::Sub(_) => add_exact(f, a, b ^ f.sign(), rm),
        FpOp::Mul(_) => mul_exact(f, a, b, rm),
        FpOp::Div(_) => div_exact(f, a, b, rm),
        _ => sqrt_exact(f, a, rm),
    }
}

/// The next float up / down (finite, non-NaN `x`), by bits.
fn next_up(f: Format, x: u64) -> u64 {
    if f.is_zero(x) {
        return 1;
    }
    if f.is_negative(x) {
        x - 1
    } else {
        x + 1
    }
}

/// Checks that `lo = op(RTN)`, `hi = op(RTP)`, `z = op(RTZ)`, `a = op(RNA)`, `e = op(RNE)`
/// are consistent: `lo <= e <= hi`, `lo == hi` or adjacent, RTZ and RNA pick one of them.
fn check_bracket(f: Format, lo: u64, hi: u64, z: u64, a: u64, e: u64) -> Result<(), TestCaseError> {
    if f.is_nan(e) {
        prop_assert!(lo == e && hi == e && z == e && a == e);
        return Ok(());
    }
    let v = |x: u64| f.to_f64(x);
    prop_assert!(v(lo) <= v(e) && v(e) <= v(hi), "{lo:x} {e:x} {hi:x}");
    prop_assert!(v(lo) <= v(a) && v(a) <= v(hi));
    if lo != hi {
        // Adjacent, where the step from lo to hi may pass through zero's two signs or
        // from max-finite to infinity.
        let up = next_up(f, lo);
        prop_assert!(
            up == hi || (f.is_zero(up) && f.is_zero(hi)),
            "{lo:x} {hi:x}"
        );
        // RTZ takes the one nearer zero.
        let toward = if v(hi) <= 0.0 { hi } else { lo };
        prop_assert_eq!(z, toward);
    } else {
        prop_assert!(z == lo && a == lo && e == lo);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn rne_f32_agrees_with_rust_and_exact_path(a in bits32(), b in bits32(), i in 0u8..5) {
        let f = BINARY32;
        let op = arith(i, Rne);
        let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
        let rust = match i % 5 { 0 => x + y, 1 => x - y, 2 => x * y, 3 => x / y, _ => x.sqrt() };
        let got = eval_fp(op, F32, &[a, b]);
        if rust.is_nan() {
            prop_assert_eq!(got, f.nan());
        } else {
            prop_assert_eq!(got, rust.to_bits() as u64);
        }
        prop_assert_eq!(exact(f, op, a, b, Rne), got);
    }

    #[test]
    fn rne_f64_agrees_with_rust_and_exact_path(a in bits64(), b in bits64(), i in 0u8..5) {
        let f = BINARY64;
        let op = arith(i, Rne);
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let rust = match i % 5 { 0 => x + y, 1 => x - y, 2 => x * y, 3 => x / y, _ => x.sqrt() };
        let got = eval_fp(op, F64, &[a, b]);
        if rust.is_nan() {
            prop_assert_eq!(got, f.nan());
        } else {
            prop_assert_eq!(got, rust.to_bits());
        }
        prop_assert_eq!(exact(f, op, a, b, Rne), got);
    }

    #[test]
    fn directed_modes_bracket_the_rne_result(a in bits64(), b in bits64(), a32 in bits32(), b32 in bits32(), i in 0u8..5) {
        for (f, ty, a, b) in [(BINARY64, F64, a, b), (BINARY32, F32, a32, b32)] {
            let r = |rm| eval_fp(arith(i, rm), ty, &[a, b]);
            check_bracket(f, r(Rtn), r(Rtp), r(Rtz), r(Rna), r(Rne))?;
        }
    }

    /// f32 products, quotients of small ints and sums are exact in f64 (or checked to be):
    /// the directed results bracket the exact value and equal it when it is representable.
    #[test]
    fn directed_f32_bracket_the_exact_value(a in bits32(), b in bits32(), i in 0u8..3) {
        let f = BINARY32;
        let (x, y) = (f.to_f64(a), f.to_f64(b));
        if !(x.is_finite() && y.is_finite()) {
            return Ok(());
        }
        let (exact_val, op) = match i {
            0 => (x + y, FpOp::Add as fn(RoundingMode) -> FpOp),
            1 => (x - y, FpOp::Sub as fn(RoundingMode) -> FpOp),
            _ => (x * y, FpOp::Mul as fn(RoundingMode) -> FpOp),
        };
        // Keep sums whose f64 result is exact (TwoSum error 0); f32 products always are.
        if i < 2 {
            let y2 = if i == 0 { y } else { -y };
            let s = x + y2;
            let bb = s - x;
            let err = (x - (s - bb)) + (y2 - bb);
            if err != 0.0 {
                return Ok(());
            }
        }
        let r = |rm| f.to_f64(eval_fp(op(rm), F32, &[a, b]));
        let (lo, hi, z) = (r(Rtn), r(Rtp), r(Rtz));
        prop_assert!(lo <= exact_val && exact_val <= hi, "{lo} {exact_val} {hi}");
        prop_assert!(z.abs() <= exact_val.abs());
        let representable = (exact_val as f32) as f64 == exact_val;
        prop_assert_eq!(lo == hi, representable);
    }

    #[test]
    fn fma_agrees_with_rust_in_rne_and_brackets_in_directed_modes(
        a in bits64(), b in bits64(), c in bits64(), a32 in bits32(), b32 in bits32(), c32 in bits32()
    ) {
        let rust = f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c));
        let got = eval_fp(FpOp::Fma(Rne), F64, &[a, b, c]);
        prop_assert_eq!(got, canon(BINARY64, rust.to_bits()));
        let rust32 = f32::from_bits(a32 as u32).mul_add(f32::from_bits(b32 as u32), f32::from_bits(c32 as u32));
        let got32 = eval_fp(FpOp::Fma(Rne), F32, &[a32, b32, c32]);
        prop_assert_eq!(got32, canon(BINARY32, rust32.to_bits() as u64));
        for (f, ty, x, y, z) in [(BINARY64, F64, a, b, c), (BINARY32, F32, a32, b32, c32)] {
            let r = |rm| eval_fp(FpOp::Fma(rm), ty, &[x, y, z]);
            check_bracket(f, r(Rtn), r(Rtp), r(Rtz), r(Rna), r(Rne))?;
        }
    }

    #[test]
    fn int_to_float_to_int_round_trips(v in any::<i64>(), w in prop::sample::select(vec![8u16, 16, 32, 64])) {
        let m = mask(w);
        let s = (v as u64) & m;
        let sv = to_signed(s, w);
        for (fw, p) in [(32u16, 24u32), (64, 53)] {
            let fl = eval_fp(FpOp::FromSInt { to: fw, rm: Rne }, Ty::Int(w), &[s]);
            // RNE agrees with Rust's `as`.
            let rust = if fw == 32 { (sv as f32).to_bits() as u64 } else { (sv as f64).to_bits() };
            prop_assert_eq!(fl, rust);
            let back = eval_fp(FpOp::ToSInt { to: w }, Ty::Float(fw), &[fl]);
            if sv.unsigned_abs() < (1u64 << p) {
                prop_assert_eq!(back, s);
            }
            let lo = eval_fp(FpOp::FromSInt { to: fw, rm: Rtn }, Ty::Int(w), &[s]);
            let hi = eval_fp(FpOp::FromSInt { to: fw, rm: Rtp }, Ty::Int(w), &[s]);
            let f = Format::of(fw);
            prop_assert!(f.to_f64(lo) <= sv as f64 && sv as f64 <= f.to_f64(hi));
            // Unsigned: the same bits read unsigned.
            let ufl = eval_fp(FpOp::FromUInt { to: fw, rm: Rne }, Ty::Int(w), &[s]);
            let urust = if fw == 32 { (s as f32).to_bits() as u64 } else { (s as f64).to_bits() };
            prop_assert_eq!(ufl, urust);
            let uback = eval_fp(FpOp::ToUInt { to: w }, Ty::Float(fw), &[ufl]);
            if s < (1u64 << p) {
                prop_assert_eq!(uback, s);
            }
        }
    }

    #[test]
    fn float_to_int_truncates_and_saturates_like_rust(a in bits64(), a32 in bits32()) {
        let x = f64::from_bits(a);
        prop_assert_eq!(eval_fp(FpOp::ToSInt { to: 32 }, F64, &[a]), (x as i32) as u32 as u64);
        prop_assert_eq!(eval_fp(FpOp::ToUInt { to: 32 }, F64, &[a]), (x as u32) as u64);
        prop_assert_eq!(eval_fp(FpOp::ToSInt { to: 64 }, F64, &[a]), (x as i64) as u64);
        prop_assert_eq!(eval_fp(FpOp::ToUInt { to: 64 }, F64, &[a]), x as u64);
        prop_assert_eq!(eval_fp(FpOp::ToSInt { to: 8 }, F64, &[a]), (x as i8) as u8 as u64);
        let y = f32::from_bits(a32 as u32);
        prop_assert_eq!(eval_fp(FpOp::ToSInt { to: 16 }, F32, &[a32]), (y as i16) as u16 as u64);
        prop_assert_eq!(eval_fp(FpOp::ToUInt { to: 64 }, F32, &[a32]), y as u64);
    }

    #[test]
    fn conversions_between_widths(a in bits64(), a32 in bits32()) {
        // Narrowing in RNE is Rust's `as`; widening is exact and back is the identity.
        let x = f64::from_bits(a);
        let n = eval_fp(FpOp::Convert { to: 32, rm: Rne }, F64, &[a]);
        if x.is_nan() {
            prop_assert_eq!(n, BINARY32.nan());
        } else {
            prop_assert_eq!(n, f32b(x as f32));
        }
        let r = |rm| eval_fp(FpOp::Convert { to: 32, rm }, F64, &[a]);
        check_bracket(BINARY32, r(Rtn), r(Rtp), r(Rtz), r(Rna), r(Rne))?;
        if !x.is_nan() {
            prop_assert!(BINARY32.to_f64(r(Rtn)) <= x && x <= BINARY32.to_f64(r(Rtp)));
        }
        let w = eval_fp(FpOp::Convert { to: 64, rm: Rtz }, F32, &[a32]);
        if !BINARY32.is_nan(a32) {
            prop_assert_eq!(eval_fp(FpOp::Convert { to: 32, rm: Rtp }, F64, &[w]), a32);
        }
    }

    #[test]
    fn round_to_integral_min_max_and_compare(a in bits64(), b in bits64()) {
        let (x, y) = (f64::from_bits(a), f64::from_bits(b));
        let ri = |rm| f64::from_bits(eval_fp(FpOp::RoundToIntegral(rm), F64, &[a]));
        if x.is_finite() {
            prop_assert!(ri(Rtn) <= x && x <= ri(Rtp));
            prop_assert_eq!(ri(Rtz).to_bits(), x.trunc().to_bits());
            prop_assert_eq!(ri(Rne).to_bits(), x.round_ties_even().to_bits());
        }
        prop_assert_eq!(eval_fp(FpOp::Eq, F64, &[a, b]) == 1, x == y);
        prop_assert_eq!(eval_fp(FpOp::Ne, F64, &[a, b]) == 1, x != y);
        prop_assert_eq!(eval_fp(FpOp::Lt, F64, &[a, b]) == 1, x < y);
        prop_assert_eq!(eval_fp(FpOp::Le, F64, &[a, b]) == 1, x <= y);
        let mn = f64::from_bits(eval_fp(FpOp::Min, F64, &[a, b]));
        let mx = f64::from_bits(eval_fp(FpOp::Max, F64, &[a, b]));
        if !(x == 0.0 && y == 0.0) {
            prop_assert_eq!(mn.to_bits(), canon(BINARY64, x.min(y).to_bits()));
            prop_assert_eq!(mx.to_bits(), canon(BINARY64, x.max(y).to_bits()));
        }
        let fm = eval_fp(FpOp::Fmod, F64, &[a, b]);
        if !(x % y).is_nan() {
            prop_assert_eq!(fm, (x % y).to_bits());
        } else {
            prop_assert_eq!(fm, BINARY64.nan());
        }
    }
}

#[test]
fn nan_results_are_the_default_nan() {
    let payload = 0x7fc0_1234u64;
    let neg_nan = 0xffc0_0000u64;
    for op in [
        FpOp::Add(Rne),
        FpOp::Mul(Rtp),
        FpOp::Div(Rtz),
        FpOp::Sub(Rna),
    ] {
        assert_eq!(eval_fp(op, F32, &[payload, f32b(1.0)]), 0x7fc0_0000);
        assert_eq!(eval_fp(op, F32, &[neg_nan, f32b(1.0)]), 0x7fc0_0000);
    }
    assert_eq!(eval_fp(FpOp::Sqrt(Rne), F32, &[f32b(-1.0)]), 0x7fc0_0000);
    assert_eq!(
        eval_fp(FpOp::Sqrt(Rtn), F64, &[(-1.0f64).to_bits()]),
        0x7ff8_0000_0000_0000
    );
    assert_eq!(
        eval_fp(
            FpOp::Add(Rne),
            F32,
            &[f32b(f32::INFINITY), f32b(f32::NEG_INFINITY)]
        ),
        0x7fc0_0000
    );
    assert_eq!(
        eval_fp(FpOp::Convert { to: 64, rm: Rne }, F32, &[payload]),
        0x7ff8_0000_0000_0000
    );
    // Bit operations keep the payload.
    assert_eq!(eval_fp(FpOp::Neg, F32, &[payload]), payload | 0x8000_0000);
    assert_eq!(eval_fp(FpOp::Abs, F32, &[neg_nan]), 0x7fc0_0000);
    assert_eq!(eval_fp(FpOp::SignBit, F32, &[neg_nan]), 1);
    // min/max ignore one NaN.
    assert_eq!(ev32(FpOp::Min, f32::NAN, 2.0), 2.0);
    assert_eq!(ev32(FpOp::Max, 3.0, f32::NAN), 3.0);
    // C's != is true for NaN, == and < false.
    let n = f32b(f32::NAN);
    assert_eq!(eval_fp(FpOp::Ne, F32, &[n, n]), 1);
    assert_eq!(eval_fp(FpOp::Eq, F32, &[n, n]), 0);
    assert_eq!(eval_fp(FpOp::Le, F32, &[n, n]), 0);
}

#[test]
fn signed_zeros_are_exact() {
    let (pz, nz) = (0.0f32, -0.0f32);
    assert_eq!(ev32(FpOp::Add(Rne), 1.0, -1.0).to_bits(), pz.to_bits());
    assert_eq!(ev32(FpOp::Add(Rtn), 1.0, -1.0).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Add(Rtp), nz, nz).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Add(Rtz), nz, pz).to_bits(), pz.to_bits());
    assert_eq!(ev32(FpOp::Sub(Rtn), pz, pz).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Mul(Rtp), -2.0, 0.0).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Sqrt(Rtp), nz, 0.0).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Min, pz, nz).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Min, nz, pz).to_bits(), nz.to_bits());
    assert_eq!(ev32(FpOp::Max, nz, pz).to_bits(), pz.to_bits());
    assert_eq!(ev32(FpOp::Max, pz, nz).to_bits(), pz.to_bits());
    assert_eq!(eval_fp(FpOp::Eq, F32, &[f32b(pz), f32b(nz)]), 1);
    assert_eq!(ev32(FpOp::Div(Rne), 1.0, nz), f32::NEG_INFINITY);
    // Rounding a small negative to integral keeps the sign.
    assert_eq!(
        eval_fp(FpOp::RoundToIntegral(Rtp), F32, &[f32b(-0.5)]),
        f32b(nz)
    );
    // Int zero converts to +0.
    assert_eq!(
        eval_fp(FpOp::FromSInt { to: 32, rm: Rtn }, Ty::I32, &[0]),
        0
    );
}

#[test]
fn directed_rounding_edges() {
    // 2^24 + 1 is the first int binary32 cannot hold.
    let v = (1u64 << 24) + 1;
    let conv = |rm| f32::from_bits(eval_fp(FpOp::FromUInt { to: 32, rm }, Ty::I32, &[v]) as u32);
    assert_eq!(conv(Rne), 16777216.0);
    assert_eq!(conv(Rna), 16777218.0);
    assert_eq!(conv(Rtp), 16777218.0);
    assert_eq!(conv(Rtn), 16777216.0);
    assert_eq!(conv(Rtz), 16777216.0);
    // Overflow: RTZ and the mode away from the sign's infinity stop at the largest finite.
    assert_eq!(ev32(FpOp::Mul(Rtz), f32::MAX, 2.0), f32::MAX);
    assert_eq!(ev32(FpOp::Mul(Rtn), f32::MAX, 2.0), f32::MAX);
    assert_eq!(ev32(FpOp::Mul(Rtp), f32::MAX, 2.0), f32::INFINITY);
    assert_eq!(ev32(FpOp::Mul(Rtp), -f32::MAX, 2.0), -f32::MAX);
    assert_eq!(ev32(FpOp::Mul(Rne), f32::MAX, 2.0), f32::INFINITY);
    // Underflow: the smallest subnormal in the direction of rounding.
    let tiny = f32::from_bits(1);
    assert_eq!(ev32(FpOp::Mul(Rtp), tiny, 0.5), tiny);
    assert_eq!(ev32(FpOp::Mul(Rtn), tiny, 0.5).to_bits(), 0);
    assert_eq!(ev32(FpOp::Mul(Rne), tiny, 0.5).to_bits(), 0);
    assert_eq!(ev32(FpOp::Mul(Rna), tiny, 0.5), tiny);
    assert_eq!(ev32(FpOp::Mul(Rtn), -tiny, 0.5), -tiny);
    // 1/3 in the directed modes.
    let lo = ev32(FpOp::Div(Rtn), 1.0, 3.0);
    let hi = ev32(FpOp::Div(Rtp), 1.0, 3.0);
    assert_eq!(hi.to_bits(), lo.to_bits() + 1);
    assert!((lo as f64) < 1.0 / 3.0 && 1.0 / 3.0 < hi as f64);
    // sqrt(2) likewise; sqrt(4) exact in every mode.
    let lo = ev32(FpOp::Sqrt(Rtn), 2.0, 0.0);
    let hi = ev32(FpOp::Sqrt(Rtp), 2.0, 0.0);
    assert_eq!(hi.to_bits(), lo.to_bits() + 1);
    for rm in RoundingMode::ALL {
        assert_eq!(ev32(FpOp::Sqrt(rm), 4.0, 0.0), 2.0);
    }
    // C's (int) of values near INT_MAX: 2147483520.0f is the largest float below 2^31.
    assert_eq!(
        eval_fp(FpOp::ToSInt { to: 32 }, F32, &[f32b(2147483520.0)]),
        2147483520
    );
    assert_eq!(
        eval_fp(FpOp::ToSInt { to: 32 }, F32, &[f32b(2147483648.0)]),
        0x7fff_ffff
    );
    assert_eq!(eval_fp(FpOp::ToSInt { to: 32 }, F32, &[f32b(f32::NAN)]), 0);
    assert_eq!(eval_fp(FpOp::ToUInt { to: 32 }, F32, &[f32b(-0.9)]), 0);
    assert_eq!(
        eval_fp(FpOp::ToSInt { to: 32 }, F32, &[f32b(-2.9)]),
        (-2i32) as u32 as u64
    );
    // 2^53 + 1 does not fit binary64.
    let v = (1u64 << 53) + 1;
    assert_eq!(
        eval_fp(FpOp::FromUInt { to: 64, rm: Rtp }, Ty::I64, &[v]),
        ((1u64 << 53) as f64 + 2.0).to_bits()
    );
}

#[test]
fn classification() {
    let c = |op, x: f64| eval_fp(op, F64, &[x.to_bits()]);
    assert_eq!(c(FpOp::IsNan, f64::NAN), 1);
    assert_eq!(c(FpOp::IsInf, f64::NEG_INFINITY), 1);
    assert_eq!(c(FpOp::IsZero, -0.0), 1);
    assert_eq!(c(FpOp::IsNormal, 1.0), 1);
    assert_eq!(c(FpOp::IsNormal, 0.0), 0);
    assert_eq!(c(FpOp::IsSubnormal, f64::from_bits(3)), 1);
    assert_eq!(c(FpOp::IsSubnormal, f64::MIN_POSITIVE), 0);
    assert_eq!(c(FpOp::SignBit, -0.0), 1);
    assert_eq!(display(32, f32b(1.5)), "1.5");
    assert_eq!(display(64, (-0.0f64).to_bits()), "-0.0");
    assert_eq!(display(64, f64::NEG_INFINITY.to_bits()), "-inf");
    assert_eq!(display(32, 0xffc0_0000), "-nan");
}
