//! Values as polynomials in the iteration number, and the linearization of expressions.
//!
//! A [`Poly`] of width `w` stands for `j ↦ c0 + c1·j + c2·C(j,2) (mod 2^w)` where the
//! coefficients are loop-invariant IR expressions and `C(j,2) = j(j−1)/2`. The binomial basis
//! makes sums over iterations division-free (`Σ_{i<j} (a + b·i) = a·j + b·C(j,2)`), so every
//! closed form here is exact in modular arithmetic; only the *ordering* arguments of
//! [`crate::feasibility`] need the absence of wrap-around, which [`crate::overflow`] guards.
//!
//! [`Lin::lin`] turns an expression over the pre-state into a polynomial, given the closed
//! forms of the variables the path assigns. Each rule is an identity modulo `2^w`, except
//! widening casts: `sext(p(j)) = sext(c0) + sext(c1)·j` only while the *signed* value of the
//! linear `p(j)` does not wrap, and `zext(p(j)) = zext(c0) + sext(c1)·j` only while its
//! *unsigned* value does not — so those rules record a [`RangeCond`] that the caller must
//! guard for every `j` the value is used at (endpoints suffice: it is linear).
//!
//! Iteration numbers `j` are `i32` expressions with `0 ≤ j ≤ 2^30` (the instrumented program
//! assumes `n ≤ 2^30`), which keeps `j(j−1)` exact in 64 bits.

use crate::build::{self, add, cast, int, is_zero, ite, mul, neg, sub};
use qicc_ir::{BinOp, CastOp, Expr, Ty, TypeEnv, UnOp, VarRef};
use std::collections::HashMap;

/// The type of iteration numbers (`n`, `j`).
pub(crate) const J_TY: Ty = Ty::I32;

/// Largest iteration count an accelerated path admits.
pub(crate) const N_MAX: u64 = 1 << 30;

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Poly {
    pub ty: Ty,
    pub c0: Expr,
    pub c1: Expr,
    pub c2: Expr,
}

/// How a comparison reads its operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interp {
    Signed,
    Unsigned,
}

/// "The mathematical value of `poly` under `interp` stays inside the range of its width."
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RangeCond {
    pub poly: Poly,
    pub interp: Interp,
}

impl Poly {
    pub fn constant(ty: Ty, c0: Expr) -> Poly {
        Poly {
            ty,
            c0,
            c1: int(ty, 0),
            c2: int(ty, 0),
        }
    }

    /// Syntactic degree: 0 if `c1` and `c2` are the constant 0, 1 if `c2` is.
    pub fn degree(&self) -> u8 {
        if !is_zero(&self.c2) {
            2
        } else if !is_zero(&self.c1) {
            1
        } else {
            0
        }
    }

    fn map(&self, f: impl Fn(&Expr) -> Expr) -> Poly {
        Poly {
            ty: self.ty,
            c0: f(&self.c0),
            c1: f(&self.c1),
            c2: f(&self.c2),
        }
    }

    fn zip(&self, o: &Poly, f: impl Fn(Expr, Expr) -> Expr) -> Poly {
        Poly {
            ty: self.ty,
            c0: f(self.c0.clone(), o.c0.clone()),
            c1: f(self.c1.clone(), o.c1.clone()),
            c2: f(self.c2.clone(), o.c2.clone()),
        }
    }

    pub fn add(&self, o: &Poly) -> Poly {
        self.zip(o, add)
    }

    pub fn sub(&self, o: &Poly) -> Poly {
        self.zip(o, sub)
    }

    pub fn neg(&self) -> Poly {
        let ty = self.ty;
        self.map(|e| neg(e.clone(), ty))
    }

    pub fn scale(&self, k: &Expr) -> Poly {
        self.map(|e| mul(k.clone(), e.clone()))
    }

    /// The value at iteration `j` (an [`J_TY`] expression).
    pub fn at(&self, j: &Expr) -> Expr {
        let jw = build::resize(false, J_TY, self.ty, j.clone());
        let mut v = add(self.c0.clone(), mul(self.c1.clone(), jw));
        if !is_zero(&self.c2) {
            v = add(v, mul(self.c2.clone(), choose2(j, self.ty)));
        }
        v
    }
}

/// `C(j, 2) = j(j−1)/2` at width `ty`, computed exactly in 64 bits (`j ≤ 2^30`).
pub(crate) fn choose2(j: &Expr, ty: Ty) -> Expr {
    let j64 = build::resize(false, J_TY, Ty::I64, j.clone());
    let prod = mul(j64.clone(), sub(j64, int(Ty::I64, 1)));
    let half = build::bin(BinOp::LShr, prod, int(Ty::I64, 1));
    build::resize(false, Ty::I64, ty, half)
}

/// Linearization context: what is known about the path's variables.
pub(crate) struct Lin<'a> {
    pub env: &'a dyn TypeEnv,
    /// Variables the path assigns (everything else is loop-invariant).
    pub assigned: &'a [VarRef],
    /// Closed forms of assigned variables, as far as known.
    pub forms: &'a HashMap<VarRef, Poly>,
    /// Memory is not written on the path, so a load at an invariant address is invariant.
    pub loads_invariant: bool,
    /// Side conditions the rules used (see the module docs).
    pub side: Vec<RangeCond>,
}

impl Lin<'_> {
    /// Whether `e` has the same value in every iteration.
    pub fn invariant(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.visit(&mut |x| match x {
            Expr::Var(v) => ok &= !self.assigned.contains(v),
            Expr::Load(..) => ok &= self.loads_invariant,
            _ => {}
        });
        ok
    }

    /// `e` (an int expression over the pre-state) as a polynomial in the iteration number.
    pub fn lin(&mut self, e: &Expr) -> Result<Poly, String> {
        let ty = e.ty(self.env);
        if !ty.is_int() {
            return Err("a Boolean value changes between iterations".into());
        }
        if self.invariant(e) {
            return Ok(Poly::constant(ty, e.clone()));
        }
        match e {
            Expr::Var(v) => self
                .forms
                .get(v)
                .cloned()
                .ok_or_else(|| format!("no closed form for {}", var_label(*v))),
            Expr::Unary(UnOp::Neg, a) => Ok(self.lin(a)?.neg()),
            // Bitwise complement is −x − 1.
            Expr::Unary(UnOp::Not, a) => {
                let p = self.lin(a)?.neg();
                Ok(Poly {
                    c0: sub(p.c0.clone(), int(ty, 1)),
                    ..p
                })
            }
            Expr::Binary(BinOp::Add, a, b) => Ok(self.lin(a)?.add(&self.lin(b)?)),
            Expr::Binary(BinOp::Sub, a, b) => Ok(self.lin(a)?.sub(&self.lin(b)?)),
            Expr::Binary(BinOp::Mul, a, b) => {
                let (pa, pb) = (self.lin(a)?, self.lin(b)?);
                if pa.degree() == 0 {
                    Ok(pb.scale(&pa.c0))
                } else if pb.degree() == 0 {
                    Ok(pa.scale(&pb.c0))
                } else {
                    Err("a product of two changing values".into())
                }
            }
            Expr::Binary(BinOp::Shl, a, b) => match b.as_const() {
                Some(k) if k < ty.bits() as u64 => {
                    let p = self.lin(a)?;
                    Ok(p.scale(&int(ty, 1u64 << k)))
                }
                _ => Err("a shift by a changing or too large amount".into()),
            },
            Expr::Cast(CastOp::Trunc, to, a) => {
                let p = self.lin(a)?;
                let from = p.ty;
                Ok(Poly {
                    ty: *to,
                    c0: cast(CastOp::Trunc, from, *to, p.c0),
                    c1: cast(CastOp::Trunc, from, *to, p.c1),
                    c2: cast(CastOp::Trunc, from, *to, p.c2),
                })
            }
            Expr::Cast(op @ (CastOp::Sext | CastOp::Zext), to, a) => {
                let p = self.lin(a)?;
                if p.degree() > 1 {
                    return Err("a widening cast of a quadratic value".into());
                }
                let interp = if *op == CastOp::Sext {
                    Interp::Signed
                } else {
                    Interp::Unsigned
                };
                let from = p.ty;
                self.side.push(RangeCond {
                    poly: p.clone(),
                    interp,
                });
                Ok(Poly {
                    ty: *to,
                    c0: cast(*op, from, *to, p.c0),
                    c1: cast(CastOp::Sext, from, *to, p.c1),
                    c2: int(*to, 0),
                })
            }
            Expr::Ite(c, a, b) if self.invariant(c) => {
                let (pa, pb) = (self.lin(a)?, self.lin(b)?);
                Ok(pa.zip(&pb, |x, y| ite((**c).clone(), x, y)))
            }
            Expr::Load(..) => {
                Err("a load whose address or memory changes between iterations".into())
            }
            Expr::Binary(op, ..) => Err(format!("{} of a changing value", op.name())),
            _ => Err("an expression that is not linear in the iteration".into()),
        }
    }
}

pub(crate) fn var_label(v: VarRef) -> String {
    match v {
        VarRef::Local(l) => format!("local {}", l.0),
        VarRef::Global(g) => format!("global {}", g.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_interp_free_eval::eval;

    /// A tiny evaluator for closed expressions (constants only), to check `at` and `choose2`.
    mod qicc_interp_free_eval {
        use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
        use qicc_ir::{Expr, Ty};
        pub fn eval(e: &Expr) -> u64 {
            match e {
                Expr::Const { value, .. } => *value,
                Expr::Unary(op, a) => eval_unop(*op, ty(a), eval(a)),
                Expr::Binary(op, a, b) => eval_binop(*op, ty(a), eval(a), eval(b)),
                Expr::Cast(op, to, a) => eval_cast(*op, ty(a), *to, eval(a)),
                Expr::Ite(c, a, b) => {
                    if eval(c) != 0 {
                        eval(a)
                    } else {
                        eval(b)
                    }
                }
                _ => panic!("not closed"),
            }
        }
        fn ty(e: &Expr) -> Ty {
            match e {
                Expr::Const { ty, .. } => *ty,
                Expr::Unary(_, a) => ty(a),
                Expr::Binary(op, a, _) => {
                    if op.is_comparison() {
                        Ty::Bool
                    } else {
                        ty(a)
                    }
                }
                Expr::Cast(_, t, _) => *t,
                Expr::Ite(_, a, _) => ty(a),
                _ => panic!("not closed"),
            }
        }
    }

    #[test]
    fn quadratic_closed_form_matches_iteration() {
        // x(j) = 5 + 3j + 2·C(j,2): the sum of the increments 3, 5, 7, ...
        let p = Poly {
            ty: Ty::I8,
            c0: int(Ty::I8, 5),
            c1: int(Ty::I8, 3),
            c2: int(Ty::I8, 2),
        };
        let mut x: u64 = 5;
        for j in 0..300u64 {
            assert_eq!(eval(&p.at(&int(J_TY, j))), x & 0xff, "j = {j}");
            x = x.wrapping_add(3 + 2 * j);
        }
        assert_eq!(
            eval(&choose2(&int(J_TY, N_MAX), Ty::I64)),
            N_MAX * (N_MAX - 1) / 2
        );
    }
}
