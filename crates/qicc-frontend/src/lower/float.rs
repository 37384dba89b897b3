//! Floating point: C's `float` (IEEE 754 binary32) and `double` (binary64) lowered to the
//! IR's float operations (`Expr::Fp`), whose meaning is `qicc_ir::semantics::float`.
//!
//! This module owns what C adds to IEEE arithmetic: the floating constants, the usual
//! arithmetic conversions with a float operand, the conversions between floats and integers
//! (with the undefined behaviour of an out-of-range float → integer conversion checked as
//! `float-to-int`), comparisons and truth values, and the `<math.h>` functions IEEE defines
//! exactly.
//!
//! Evaluation follows gcc with SSE arithmetic on both data models (`-m32 -msse2
//! -mfpmath=sse` on ILP32, the default on LP64; `FLT_EVAL_METHOD` 0): every operation is
//! done in its operands' type and rounded to nearest-even; the rounding mode is never
//! changed (`fesetround` is not modelled and rejected). `long double` (x87 extended
//! precision) and the functions IEEE does not define exactly (`sin`, `exp`, `pow`, …) are
//! rejected with `unsupported:`.

use super::expr::{RVal, Val};
use super::{fold, Ctx, R};
use crate::types::{CType, FloatKind, IntKind};
use lang_c::ast::{BinaryOperator, Expression, Float, FloatBase, FloatFormat};
use lang_c::span::Node;
use qicc_ir::semantics::float::{from_scaled, Format};
use qicc_ir::{Expr, FpOp, RoundingMode, Ty, UbKind};

const RNE: RoundingMode = RoundingMode::Rne;

pub const FLOAT: CType = CType::Float(FloatKind::Float);
pub const DOUBLE: CType = CType::Float(FloatKind::Double);

/// The width of a float type the IR has (`long double` has none).
pub fn float_width(k: FloatKind) -> Option<u16> {
    match k {
        FloatKind::Float => Some(32),
        FloatKind::Double => Some(64),
        FloatKind::LongDouble => None,
    }
}

/// `e != 0` for a float `e` of width `w` (true for NaN, false for both zeros).
pub fn float_truth(e: Expr, w: u16) -> Expr {
    fold::fp(FpOp::Ne, vec![e, zero(w)])
}

fn zero(w: u16) -> Expr {
    Expr::konst(Ty::Float(w), 0)
}

/// The float of width `w` with the value `v` (exact: callers pass powers of two and small
/// integers).
fn exact(w: u16, v: f64) -> Expr {
    if w == 32 {
        Expr::f32(v as f32)
    } else {
        Expr::f64(v)
    }
}

/// The value of a floating constant's digits (without suffix) in format `f`, correctly
/// rounded to nearest-even as gcc does; `None` if the digits are malformed.
pub fn parse_float(base: &FloatBase, digits: &str, f: Format) -> Option<u64> {
    match base {
        FloatBase::Decimal => {
            // Rust's parsers round correctly (and directly to f32: no double rounding).
            if f.bits == 32 {
                digits.parse::<f32>().ok().map(|x| x.to_bits() as u64)
            } else {
                digits.parse::<f64>().ok().map(|x| x.to_bits())
            }
        }
        FloatBase::Hexadecimal => {
            // `h.hhh p±d`: the hex digits as an integer, scaled by 2^(d - 4 * fraction digits).
            let digits = digits
                .strip_prefix("0x")
                .or_else(|| digits.strip_prefix("0X"))
                .unwrap_or(digits);
            let (mant, exp) = digits.split_once(['p', 'P'])?;
            let exp: i64 = exp.parse().ok()?;
            let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
            let mut mag: u128 = 0;
            let mut e = exp;
            let mut sticky = false;
            for (i, c) in int.chars().chain(frac.chars()).enumerate() {
                let d = c.to_digit(16)? as u128;
                let in_frac = i >= int.len();
                if mag >> 120 == 0 {
                    mag = mag * 16 + d;
                    if in_frac {
                        e -= 4;
                    }
                } else {
                    // No room left: the digit only tells whether the value is inexact.
                    sticky |= d != 0;
                    if !in_frac {
                        e += 4;
                    }
                }
            }
            Some(from_scaled(f, false, mag, e, sticky, RNE))
        }
    }
}

impl<'a> Ctx<'a> {
    /// The width of the float type `t`, `long double` rejected.
    pub fn float_width_of(&self, t: &CType, at: usize) -> R<u16> {
        match t {
            CType::Float(k) => float_width(*k)
                .ok_or_else(|| self.unsupported(at, "long double (x87 extended precision)")),
            _ => Err(self.internal(at, "float width of a non-float type")),
        }
    }

    /// A floating constant (C11 6.4.4.2).
    pub fn float_constant(&self, c: &Float, at: usize) -> R<RVal> {
        if c.suffix.imaginary {
            return Err(self.unsupported(at, "complex numbers (imaginary constants)"));
        }
        let ty = match c.suffix.format {
            FloatFormat::Float => FLOAT,
            FloatFormat::Double => DOUBLE,
            FloatFormat::LongDouble => {
                return Err(self.unsupported(at, "long double (x87 extended precision)"))
            }
            _ => return Err(self.unsupported(at, "decimal or _FloatN floating constants")),
        };
        let w = self.float_width_of(&ty, at)?;
        let v = parse_float(&c.base, &c.number, Format::of(w))
            .ok_or_else(|| self.type_err(at, format!("bad floating constant '{}'", c.number)))?;
        Ok(RVal {
            e: Expr::konst(Ty::Float(w), v),
            ty,
        })
    }

    /// The type of the usual arithmetic conversions (C11 6.3.1.8) when an operand is a
    /// float: the wider float type (an integer operand converts to the other's).
    pub fn float_common(&self, a: &CType, b: &CType, at: usize) -> R<CType> {
        for t in [a, b] {
            if !matches!(t, CType::Int(_) | CType::Float(_) | CType::Bits(_)) {
                return Err(self.type_err(
                    at,
                    format!(
                        "invalid operands ('{}' and '{}')",
                        self.types.show(a),
                        self.types.show(b)
                    ),
                ));
            }
        }
        let rank = |t: &CType| match t {
            CType::Float(FloatKind::LongDouble) => 3,
            CType::Float(FloatKind::Double) => 2,
            CType::Float(FloatKind::Float) => 1,
            _ => 0,
        };
        let t = if rank(a) >= rank(b) { a } else { b };
        self.float_width_of(t, at)?;
        Ok(t.clone())
    }

    /// A conversion where the source or the target is a float (C11 6.3.1.4, 6.3.1.5).
    pub fn convert_float(&mut self, v: RVal, to: &CType, at: usize) -> R<Expr> {
        match (&v.ty, to) {
            (CType::Float(_), CType::Float(_)) => {
                let (wf, wt) = (
                    self.float_width_of(&v.ty, at)?,
                    self.float_width_of(to, at)?,
                );
                if wf == wt {
                    return Ok(v.e);
                }
                self.computed(
                    fold::fp(FpOp::Convert { to: wt, rm: RNE }, vec![v.e]),
                    to,
                    at,
                )
            }
            (CType::Int(k), CType::Float(_)) => {
                let wt = self.float_width_of(to, at)?;
                let op = if k.is_signed() {
                    FpOp::FromSInt { to: wt, rm: RNE }
                } else {
                    FpOp::FromUInt { to: wt, rm: RNE }
                };
                Ok(fold::fp(op, vec![v.e]))
            }
            (CType::Float(_), CType::Int(k)) => {
                let wf = self.float_width_of(&v.ty, at)?;
                let ti = self.irty(to, at)?;
                if *k == IntKind::Bool {
                    return Ok(fold::from_bool(float_truth(v.e, wf), ti));
                }
                // Undefined unless the value truncated toward zero fits the target (C11
                // 6.3.1.4p1); NaN fails both comparisons. The bounds are powers of two, exact
                // in both formats.
                let bits = ti.bits() as i32;
                let (lo, hi) = if k.is_signed() {
                    (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1))
                } else {
                    (0.0, 2f64.powi(bits))
                };
                let t = fold::fp(FpOp::RoundToIntegral(RoundingMode::Rtz), vec![v.e.clone()]);
                let ok = fold::bin(
                    qicc_ir::BinOp::And,
                    fold::fp(FpOp::Le, vec![exact(wf, lo), t.clone()]),
                    fold::fp(FpOp::Lt, vec![t, exact(wf, hi)]),
                );
                self.check(ok, UbKind::FloatToInt, at)?;
                let to_w = ti.bits();
                let op = if k.is_signed() {
                    FpOp::ToSInt { to: to_w }
                } else {
                    FpOp::ToUInt { to: to_w }
                };
                Ok(fold::fp(op, vec![v.e]))
            }
            (CType::Bits(b), CType::Float(_)) => {
                let p = self.convert_rv(v.clone(), &CType::Int(b.promoted()), at)?;
                self.convert_float(p, to, at)
            }
            (CType::Float(_), CType::Bits(b)) => {
                let i = self.convert_rv(v, &CType::Int(b.kind), at)?;
                Ok(i.e)
            }
            (CType::Float(_), CType::Void) => Ok(Expr::int(32, 0)),
            (from, to) => Err(self.type_err(
                at,
                format!(
                    "cannot convert '{}' to '{}'",
                    self.types.show(from),
                    self.types.show(to)
                ),
            )),
        }
    }

    /// `+ - * /` with a float operand, and the comparisons; `%`, shifts and bitwise
    /// operators take integers only.
    pub fn float_arith(&mut self, op: BinaryOperator, l: RVal, r: RVal, at: usize) -> R<RVal> {
        use BinaryOperator as B;
        let ty = self.float_common(&l.ty, &r.ty, at)?;
        let a = self.convert(l, &ty, at)?;
        let b = self.convert(r, &ty, at)?;
        let value = |op: FpOp, x: Expr, y: Expr| fold::fp(op, vec![x, y]);
        let truth = |c: Expr| RVal {
            e: fold::from_bool(c, Ty::I32),
            ty: CType::INT,
        };
        let arith = match op {
            B::Plus => Some(FpOp::Add(RNE)),
            B::Minus => Some(FpOp::Sub(RNE)),
            B::Multiply => Some(FpOp::Mul(RNE)),
            // Division by zero is defined in IEEE arithmetic (Annex F): an infinity or NaN.
            B::Divide => Some(FpOp::Div(RNE)),
            _ => None,
        };
        if let Some(fop) = arith {
            let e = self.computed(value(fop, a, b), &ty, at)?;
            return Ok(RVal { e, ty });
        }
        Ok(match op {
            B::Less => truth(value(FpOp::Lt, a, b)),
            B::Greater => truth(value(FpOp::Lt, b, a)),
            B::LessOrEqual => truth(value(FpOp::Le, a, b)),
            B::GreaterOrEqual => truth(value(FpOp::Le, b, a)),
            B::Equals => truth(value(FpOp::Eq, a, b)),
            B::NotEquals => truth(value(FpOp::Ne, a, b)),
            _ => {
                return Err(self.type_err(
                    at,
                    "invalid operands to binary operator (an integer is required, not a float)",
                ));
            }
        })
    }

    /// Unary `-` of a float: the sign flipped (exact, `-0.0` included).
    pub fn float_neg(&self, v: RVal) -> RVal {
        RVal {
            e: fold::fp(FpOp::Neg, vec![v.e]),
            ty: v.ty,
        }
    }

    /// `x + 1` / `x - 1` for `++`/`--` of a float.
    pub fn float_plus_one(&mut self, old: RVal, inc: bool, at: usize) -> R<Expr> {
        let w = self.float_width_of(&old.ty, at)?;
        let op = if inc { FpOp::Add(RNE) } else { FpOp::Sub(RNE) };
        self.computed(fold::fp(op, vec![old.e, exact(w, 1.0)]), &old.ty, at)
    }

    /// A call of one of the `<math.h>` functions IEEE defines exactly, of a GNU builtin
    /// behind `<math.h>`'s macros, or of one of glibc's classification helpers; `None` if
    /// `name` is none of them (the caller then treats it as any other function).
    pub fn math_call(
        &mut self,
        name: &str,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let base = name.strip_prefix("__builtin_").unwrap_or(name);
        let (mut m, mty) = math_fn(base)?;
        if name == "__builtin_isinf" {
            m = Math::Class(Class::Inf);
        }
        Some(self.lower_math(name, m, mty, args, at))
    }

    fn lower_math(
        &mut self,
        name: &str,
        m: Math,
        mty: MathTy,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let want = match m {
            Math::Const(..) => 0,
            Math::Nan => 1,
            Math::Unary(..) | Math::Class(..) => 1,
            Math::Binary(..) | Math::Copysign | Math::Compare(..) => 2,
            Math::Fma => 3,
            Math::Classify => 6,
        };
        if args.len() != want {
            return Err(self.type_err(at, format!("{name} takes {want} argument(s)")));
        }
        let mut vals = Vec::new();
        // `nan`'s argument is a string, read below as a literal.
        let value_args = if let Math::Nan = m { &args[..0] } else { args };
        for a in value_args {
            let v = self.rvalue(a)?;
            let v = self.stab(v, a.span.start)?;
            vals.push(v);
        }
        let ty = match mty {
            MathTy::Named(k) => CType::Float(k),
            MathTy::Generic => match m {
                Math::Compare(_) => self.float_common(&vals[0].ty, &vals[1].ty, at)?,
                // The classified value is the last argument (`fpclassify`'s sixth).
                _ => match vals.last().map(|v| &v.ty) {
                    Some(CType::Float(k)) => CType::Float(*k),
                    _ => DOUBLE,
                },
            },
        };
        let w = self.float_width_of(&ty, at)?;
        let ft = Ty::Float(w);
        let mut xs = Vec::new();
        let nfloat = if let Math::Classify = m {
            1
        } else {
            vals.len()
        };
        for v in vals.iter().rev().take(nfloat).rev() {
            xs.push(self.convert(v.clone(), &ty, at)?);
        }
        let int = |c: Expr| {
            Val::R(RVal {
                e: fold::from_bool(c, Ty::I32),
                ty: CType::INT,
            })
        };
        let float = |e: Expr| Val::R(RVal { e, ty: ty.clone() });
        let un = |op: FpOp, x: &Expr| fold::fp(op, vec![x.clone()]);
        Ok(match m {
            Math::Const(inf) => {
                let f = Format::of(w);
                float(Expr::konst(ft, if inf { f.inf(false) } else { f.nan() }))
            }
            Math::Nan => {
                // A string literal's payload as glibc's `nan` and gcc's `__builtin_nan` read
                // it: the whole string as an integer (C's base prefixes), its low fraction
                // bits under the quiet bit; a string that is no number gives payload 0.
                let Some(text) = self.literal_text(&args[0]) else {
                    return Err(
                        self.unsupported(at, format!("{name} of a string that is not a literal"))
                    );
                };
                let f = Format::of(w);
                let payload = nan_payload(&text) & ((1u64 << f.frac) - 1);
                float(Expr::konst(ft, f.nan() | payload))
            }
            Math::Unary(op) => float(self.computed(un(op, &xs[0]), &ty, at)?),
            Math::Binary(op @ (FpOp::Min | FpOp::Max)) => {
                let e = self.min_max(name, op, &xs[0], &xs[1], ft, at)?;
                float(self.computed(e, &ty, at)?)
            }
            Math::Binary(op) => {
                let e = fold::fp(op, vec![xs[0].clone(), xs[1].clone()]);
                float(self.computed(e, &ty, at)?)
            }
            Math::Fma => float(self.computed(fold::fp(FpOp::Fma(RNE), xs.clone()), &ty, at)?),
            Math::Copysign => {
                let mag = un(FpOp::Abs, &xs[0]);
                let neg = un(FpOp::Neg, &mag);
                float(fold::ite(un(FpOp::SignBit, &xs[1]), neg, mag))
            }
            Math::Class(c) => {
                let x = &xs[0];
                let nan = un(FpOp::IsNan, x);
                let inf = un(FpOp::IsInf, x);
                match c {
                    Class::Nan => int(nan),
                    Class::Inf => int(inf),
                    Class::Finite => int(fold::not(fold::bin(qicc_ir::BinOp::Or, nan, inf))),
                    Class::Normal => int(un(FpOp::IsNormal, x)),
                    Class::SignBit => int(un(FpOp::SignBit, x)),
                    // -1 for -inf, 1 for +inf, 0 otherwise (glibc's __isinf, GNU's
                    // __builtin_isinf_sign).
                    Class::InfSign => {
                        let sign = fold::ite(
                            un(FpOp::SignBit, x),
                            Expr::int(32, (-1i32) as u32 as u64),
                            Expr::int(32, 1),
                        );
                        Val::R(RVal {
                            e: fold::ite(inf, sign, Expr::int(32, 0)),
                            ty: CType::INT,
                        })
                    }
                }
            }
            Math::Compare(op) => {
                let (a, b) = (xs[0].clone(), xs[1].clone());
                let c = match op {
                    Cmp::Less => fold::fp(FpOp::Lt, vec![a, b]),
                    Cmp::LessEqual => fold::fp(FpOp::Le, vec![a, b]),
                    Cmp::Greater => fold::fp(FpOp::Lt, vec![b, a]),
                    Cmp::GreaterEqual => fold::fp(FpOp::Le, vec![b, a]),
                    Cmp::LessGreater => fold::bin(
                        qicc_ir::BinOp::Or,
                        fold::fp(FpOp::Lt, vec![a.clone(), b.clone()]),
                        fold::fp(FpOp::Lt, vec![b, a]),
                    ),
                    Cmp::Unordered => fold::bin(
                        qicc_ir::BinOp::Or,
                        fold::fp(FpOp::IsNan, vec![a]),
                        fold::fp(FpOp::IsNan, vec![b]),
                    ),
                };
                int(c)
            }
            Math::Classify => {
                // __builtin_fpclassify(nan, inf, normal, subnormal, zero, x): the first
                // five are the values to return.
                let mut codes = Vec::new();
                for v in &vals[..5] {
                    codes.push(self.convert(v.clone(), &CType::INT, at)?);
                }
                let x = &xs[0];
                let e = fold::ite(
                    un(FpOp::IsNan, x),
                    codes[0].clone(),
                    fold::ite(
                        un(FpOp::IsInf, x),
                        codes[1].clone(),
                        fold::ite(
                            un(FpOp::IsNormal, x),
                            codes[2].clone(),
                            fold::ite(un(FpOp::IsSubnormal, x), codes[3].clone(), codes[4].clone()),
                        ),
                    ),
                );
                Val::R(RVal { e, ty: CType::INT })
            }
        })
    }

    /// The value of a float operation of C type `ty` that computes its result (arithmetic,
    /// conversions, the math functions): the IR's value unless it is a NaN, whose sign and
    /// payload are the implementation's choice (IEEE 754 6.2.3 and 6.3; x86 SSE gives
    /// `0xffc00000`, negative, for `0.0 / 0.0`, where the IR's default NaN is positive): any
    /// quiet NaN then, chosen where it is computed (an `extern` havoc, as `fmin`'s zeros),
    /// so that every later use sees the same bits. The IR keeps its one default NaN, which
    /// the solvers' theory has; only here does the choice enter.
    pub(super) fn computed(&mut self, e: Expr, ty: &CType, at: usize) -> R<Expr> {
        use qicc_ir::{BinOp, HavocKind, Op, VarRef};
        let w = self.float_width_of(ty, at)?;
        let nan = fold::fp(FpOp::IsNan, vec![e.clone()]);
        // A constant expression outside a function (a static initialiser) is computed by the
        // compiler, whose folding gives the default NaN (gcc's is positive): the IR's value.
        if matches!(nan, Expr::Const { value: 0, .. }) || !self.in_function() {
            return Ok(e);
        }
        let (ft, it) = (Ty::Float(w), Ty::Int(w));
        let quiet = Format::of(w).nan();
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let r = fs.b.new_tmp(ft);
        fs.b.emit(Op::Assign(VarRef::Local(r), e));
        let (l_nan, join) = (fs.b.new_loc(), fs.b.new_loc());
        fs.b.branch(fold::fp(FpOp::IsNan, vec![Expr::local(r)]), l_nan, join);
        fs.b.set_cur(l_nan);
        let bits = fs.b.new_tmp(it);
        fs.b.havoc(
            VarRef::Local(bits),
            HavocKind::Platform(qicc_ir::COMPUTED_NAN.to_string()),
        );
        let any = fold::bin(BinOp::Or, Expr::local(bits), Expr::konst(it, quiet));
        fs.b.emit(Op::Assign(
            VarRef::Local(r),
            fold::fp(FpOp::FromBits, vec![any]),
        ));
        fs.b.goto(join);
        fs.b.set_cur(join);
        Ok(Expr::local(r))
    }

    /// `fmin`/`fmax`: the IR's `fmin`/`fmax`, except on two zeros of opposite signs, where C
    /// leaves the result open ("ideally" the IEEE order) and glibc differs by target and
    /// optimisation (x86-64 returns the second operand, i386 and gcc's inline expansion the
    /// first): there the result is either operand, the library's choice (an `extern` havoc,
    /// like the result of a body-less function).
    fn min_max(&mut self, name: &str, op: FpOp, x: &Expr, y: &Expr, ft: Ty, at: usize) -> R<Expr> {
        use qicc_ir::{BinOp, HavocKind, Op, VarRef};
        let det = fold::fp(op, vec![x.clone(), y.clone()]);
        let un = |op: FpOp, x: &Expr| fold::fp(op, vec![x.clone()]);
        let zeros = fold::bin(BinOp::And, un(FpOp::IsZero, x), un(FpOp::IsZero, y));
        let signs = fold::bin(BinOp::Xor, un(FpOp::SignBit, x), un(FpOp::SignBit, y));
        let open = fold::bin(BinOp::And, zeros, signs);
        if matches!(open, Expr::Const { value: 0, .. }) {
            return Ok(det);
        }
        let span = self.span(at);
        let fs = self.fs(at)?;
        fs.b.span = span;
        let r = fs.b.new_tmp(ft);
        let pick = fs.b.new_tmp(Ty::I8);
        let (l_open, l_det, join) = (fs.b.new_loc(), fs.b.new_loc(), fs.b.new_loc());
        fs.b.branch(open, l_open, l_det);
        fs.b.set_cur(l_open);
        fs.b.havoc(VarRef::Local(pick), HavocKind::Platform(name.to_string()));
        let first = fold::to_bool(Expr::local(pick), Ty::I8);
        fs.b.emit(Op::Assign(
            VarRef::Local(r),
            fold::ite(first, x.clone(), y.clone()),
        ));
        fs.b.goto(join);
        fs.b.set_cur(l_det);
        fs.b.emit(Op::Assign(VarRef::Local(r), det));
        fs.b.goto(join);
        fs.b.set_cur(join);
        Ok(Expr::local(r))
    }
}

#[derive(Clone, Copy, Debug)]
enum Class {
    Nan,
    Inf,
    InfSign,
    Finite,
    Normal,
    SignBit,
}

#[derive(Clone, Copy, Debug)]
enum Cmp {
    Less,
    LessEqual,
    Greater,
    GreaterEqual,
    LessGreater,
    Unordered,
}

#[derive(Clone, Copy, Debug)]
enum Math {
    /// `inf` (true) or the default NaN (false), of the name's type.
    Const(bool),
    /// `nan("")`.
    Nan,
    Unary(FpOp),
    Binary(FpOp),
    Fma,
    Copysign,
    Class(Class),
    Compare(Cmp),
    Classify,
}

/// The type a `<math.h>` function computes in.
#[derive(Clone, Copy, Debug)]
enum MathTy {
    /// Fixed by the name: `float` for the `f` variants (the arguments convert to it).
    Named(FloatKind),
    /// Type-generic (the classification macros' builtins): the argument's float type, `double`
    /// for an integer argument.
    Generic,
}

/// The exactly defined `<math.h>` function `name` (a builtin's name with `__builtin_`
/// stripped). `long double` variants (`…l`) are not listed: they stay unmodelled library
/// functions, rejected.
/// The payload `nan(s)` gives (glibc's `strtoull(s, &end, 0)` when it reads all of `s`, else
/// 0); `fn math_fn` masks it to the format's fraction.
fn nan_payload(s: &str) -> u64 {
    let (digits, radix) = if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        (h, 16)
    } else if s.len() > 1 && s.starts_with('0') {
        (&s[1..], 8)
    } else {
        (s, 10)
    };
    u64::from_str_radix(digits, radix).unwrap_or(0)
}

fn math_fn(name: &str) -> Option<(Math, MathTy)> {
    if let Some(m) = math_double(name) {
        return Some((m, MathTy::Named(FloatKind::Double)));
    }
    if let Some(m) = name.strip_suffix('f').and_then(math_double) {
        return Some((m, MathTy::Named(FloatKind::Float)));
    }
    let named = |m: Math, k: FloatKind| Some((m, MathTy::Named(k)));
    let generic = |m: Math| Some((m, MathTy::Generic));
    use FloatKind::{Double, Float};
    match name {
        // glibc's functions behind older `<math.h>` macros.
        "__isnan" => named(Math::Class(Class::Nan), Double),
        "__isnanf" => named(Math::Class(Class::Nan), Float),
        "__isinf" => named(Math::Class(Class::InfSign), Double),
        "__isinff" => named(Math::Class(Class::InfSign), Float),
        "__finite" | "finite" => named(Math::Class(Class::Finite), Double),
        "__finitef" | "finitef" => named(Math::Class(Class::Finite), Float),
        "__signbit" => named(Math::Class(Class::SignBit), Double),
        "__signbitf" => named(Math::Class(Class::SignBit), Float),
        // The builtins behind the type-generic macros (and their names as functions).
        "isnan" => generic(Math::Class(Class::Nan)),
        // glibc's `isinf` function and `__builtin_isinf_sign` give the sign; GNU's
        // `__builtin_isinf` gives 1 (`math_call` tells them apart).
        "isinf" | "isinf_sign" => generic(Math::Class(Class::InfSign)),
        "isfinite" => generic(Math::Class(Class::Finite)),
        "isnormal" => generic(Math::Class(Class::Normal)),
        "signbit" => generic(Math::Class(Class::SignBit)),
        "isless" => generic(Math::Compare(Cmp::Less)),
        "islessequal" => generic(Math::Compare(Cmp::LessEqual)),
        "isgreater" => generic(Math::Compare(Cmp::Greater)),
        "isgreaterequal" => generic(Math::Compare(Cmp::GreaterEqual)),
        "islessgreater" => generic(Math::Compare(Cmp::LessGreater)),
        "isunordered" => generic(Math::Compare(Cmp::Unordered)),
        "fpclassify" => generic(Math::Classify),
        _ => None,
    }
}

/// The `double` functions of [`math_fn`] whose `float` variant adds an `f`.
fn math_double(name: &str) -> Option<Math> {
    use RoundingMode::*;
    Some(match name {
        "fabs" => Math::Unary(FpOp::Abs),
        "sqrt" => Math::Unary(FpOp::Sqrt(Rne)),
        "floor" => Math::Unary(FpOp::RoundToIntegral(Rtn)),
        "ceil" => Math::Unary(FpOp::RoundToIntegral(Rtp)),
        "trunc" => Math::Unary(FpOp::RoundToIntegral(Rtz)),
        "round" => Math::Unary(FpOp::RoundToIntegral(Rna)),
        // The rounding mode is always to-nearest-even (`fesetround` is not modelled).
        "rint" | "nearbyint" => Math::Unary(FpOp::RoundToIntegral(Rne)),
        "fmin" => Math::Binary(FpOp::Min),
        "fmax" => Math::Binary(FpOp::Max),
        "fmod" => Math::Binary(FpOp::Fmod),
        "fma" => Math::Fma,
        "copysign" => Math::Copysign,
        "inf" | "huge_val" => Math::Const(true),
        "nan" => Math::Nan,
        _ => return None,
    })
}
