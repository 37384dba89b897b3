//! Property tests holding every transfer function of the interval domain to the IR's concrete
//! operator semantics (`qicc_ir::semantics`): for random abstract values and random concrete
//! members of them, the concrete result is a member of the abstract result (`eval`), and every
//! concrete state that satisfies an assumption survives `refine`. At every width and both
//! signednesses; a false fact here is a wrong TRUE at a region head.

use proptest::prelude::*;
use qicc_facts::domain::{Range, Val};
use qicc_facts::transfer::{eval, refine, Slots};
use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop, to_signed};
use qicc_ir::{BinOp, CastOp, Expr, LocalId, Ty, TypeEnv, UnOp, VarRef};

/// Two local variables `%0`, `%1` of the given types.
struct Env(Vec<Ty>);

impl TypeEnv for Env {
    fn var_ty(&self, v: VarRef) -> Ty {
        match v {
            VarRef::Local(l) => self.0[l.index()],
            VarRef::Global(_) => Ty::Bool,
        }
    }
    fn pointer_ty(&self) -> Ty {
        Ty::Int(64)
    }
}

fn var(i: u32) -> Expr {
    Expr::Var(VarRef::Local(LocalId(i)))
}

fn mask(w: u16) -> u64 {
    if w >= 64 {
        u64::MAX
    } else {
        (1u64 << w) - 1
    }
}

fn contains(v: &Val, bits: u64) -> bool {
    let u = bits as i128;
    let s = to_signed(bits, v.w) as i128;
    v.s.lo <= s && s <= v.s.hi && v.u.lo <= u && u <= v.u.hi
}

/// An abstract value of width `w` containing the concrete `x`: each view is a random interval
/// around `x` (a point, a small one, one reaching a bound of the view, or the whole view).
fn abstract_around(w: u16, x: u64) -> impl Strategy<Value = Val> {
    let s = to_signed(x, w) as i128;
    let u = x as i128;
    let smin = -(1i128 << (w - 1));
    let smax = (1i128 << (w - 1)) - 1;
    let umax = (1i128 << w) - 1;
    let around = move |c: i128, lo_end: i128, hi_end: i128| {
        (0u8..4, 0u8..4, 0i128..5, 0i128..5).prop_map(move |(kl, kh, dl, dh)| {
            let lo = match kl {
                0 => c,
                1 => (c - dl).max(lo_end),
                2 => lo_end,
                _ => (c - dl * 1000).max(lo_end),
            };
            let hi = match kh {
                0 => c,
                1 => (c + dh).min(hi_end),
                2 => hi_end,
                _ => (c + dh * 1000).min(hi_end),
            };
            Range { lo, hi }
        })
    };
    (around(s, smin, smax), around(u, 0, umax)).prop_map(move |(s, u)| {
        Val { w, s, u }
            .reduce()
            .expect("both views contain the concrete value")
    })
}

fn width() -> impl Strategy<Value = u16> {
    prop_oneof![
        Just(1u16),
        Just(2),
        Just(7),
        Just(8),
        Just(16),
        Just(32),
        Just(63),
        Just(64)
    ]
}

/// A concrete value of width `w`, biased to the edges where wrap-around happens.
fn concrete(w: u16) -> impl Strategy<Value = u64> {
    let m = mask(w);
    let half = 1u64 << (w - 1);
    prop_oneof![
        any::<u64>().prop_map(move |x| x & m),
        (0u64..4).prop_map(move |d| d & m),
        (0u64..4).prop_map(move |d| m.wrapping_sub(d) & m),
        (0u64..4).prop_map(move |d| half.wrapping_add(d) & m),
        (0u64..4).prop_map(move |d| half.wrapping_sub(d) & m),
    ]
}

/// Two concrete values of width `w` and abstract values around them.
fn pair() -> impl Strategy<Value = (u16, u64, u64, Val, Val)> {
    width()
        .prop_flat_map(|w| (Just(w), concrete(w), concrete(w)))
        .prop_flat_map(|(w, x, y)| {
            (
                Just(w),
                Just(x),
                Just(y),
                abstract_around(w, x),
                abstract_around(w, y),
            )
        })
}

const INT_OPS: [BinOp; 13] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::UDiv,
    BinOp::URem,
    BinOp::SDiv,
    BinOp::SRem,
    BinOp::Shl,
    BinOp::LShr,
    BinOp::AShr,
    BinOp::And,
    BinOp::Or,
    BinOp::Xor,
];

const CMP_OPS: [BinOp; 6] = [
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Ult,
    BinOp::Ule,
    BinOp::Slt,
    BinOp::Sle,
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn binary_ops_over_approximate((w, x, y, vx, vy) in pair(), k in 0usize..13, konst in any::<bool>()) {
        let op = INT_OPS[k];
        let env = Env(vec![Ty::Int(w), Ty::Int(w)]);
        let slots = Slots { num_locals: 2 };
        // The right operand is a variable or the constant itself (constants take other paths).
        let rhs = if konst { Expr::int(w, y) } else { var(1) };
        let e = Expr::binary(op, var(0), rhs);
        let st = vec![Some(vx), Some(vy)];
        let got = eval(&e, &st, &slots, &env).expect("an int expression");
        let want = eval_binop(op, Ty::Int(w), x, y);
        prop_assert!(contains(&got, want), "{op:?} w={w} x={x:#x} in {vx:?}, y={y:#x} in {vy:?}: {want:#x} not in {got:?}");
    }

    #[test]
    fn unary_ops_over_approximate((w, x, _y, vx, _vy) in pair(), neg in any::<bool>()) {
        let op = if neg { UnOp::Neg } else { UnOp::Not };
        let env = Env(vec![Ty::Int(w), Ty::Int(w)]);
        let slots = Slots { num_locals: 2 };
        let e = Expr::unary(op, var(0));
        let got = eval(&e, &[Some(vx), None], &slots, &env).expect("an int expression");
        let want = eval_unop(op, Ty::Int(w), x);
        prop_assert!(contains(&got, want), "{op:?} w={w} x={x:#x} in {vx:?}: {want:#x} not in {got:?}");
    }

    #[test]
    fn casts_over_approximate((w, x, _y, vx, _vy) in pair(), to in width(), k in 0usize..3) {
        // Extensions widen, truncations narrow (the IR checker's rule).
        let op = match (k, to >= w) {
            (0, true) => CastOp::Zext,
            (_, true) => CastOp::Sext,
            (_, false) => CastOp::Trunc,
        };
        let env = Env(vec![Ty::Int(w), Ty::Int(w)]);
        let slots = Slots { num_locals: 2 };
        let e = Expr::cast(op, Ty::Int(to), var(0));
        let got = eval(&e, &[Some(vx), None], &slots, &env).expect("an int expression");
        let want = eval_cast(op, Ty::Int(w), Ty::Int(to), x);
        prop_assert!(contains(&got, want), "{op:?} i{w}->i{to} x={x:#x} in {vx:?}: {want:#x} not in {got:?}");
    }

    #[test]
    fn ite_over_approximates((w, x, y, vx, vy) in pair(), c in any::<bool>()) {
        let env = Env(vec![Ty::Int(w), Ty::Int(w)]);
        let slots = Slots { num_locals: 2 };
        let e = Expr::ite(Expr::bool(c), var(0), var(1));
        let got = eval(&e, &[Some(vx), Some(vy)], &slots, &env).expect("an int expression");
        let want = if c { x } else { y };
        prop_assert!(contains(&got, want), "ite: {want:#x} not in {got:?}");
    }

    /// Every concrete state satisfying `cond == positive` survives `refine`, inside the refined
    /// values: comparisons of both signednesses, with variables, constants and extensions, and
    /// under `not`, `and`, `or`.
    #[test]
    fn refine_keeps_every_satisfying_state(
        (w, x, y, vx, vy) in pair(),
        k in 0usize..6,
        k2 in 0usize..6,
        shape in 0u8..6,
        c in any::<u64>(),
    ) {
        let op = CMP_OPS[k];
        let ty = Ty::Int(w);
        let env = Env(vec![ty, ty]);
        let slots = Slots { num_locals: 2 };
        let c = c & mask(w);
        let cmp = |op, a: Expr, b: Expr| Expr::binary(op, a, b);
        // A second comparison for the boolean shapes.
        let other = cmp(CMP_OPS[k2], var(1), Expr::int(w, c));
        let other_val = eval_binop(CMP_OPS[k2], ty, y, c) != 0;
        let (cond, truth) = match shape {
            0 => (cmp(op, var(0), var(1)), eval_binop(op, ty, x, y) != 0),
            1 => (cmp(op, var(0), Expr::int(w, y)), eval_binop(op, ty, x, y) != 0),
            2 => (Expr::not(cmp(op, var(0), var(1))), eval_binop(op, ty, x, y) == 0),
            3 => {
                // Compare at 64 bits through extensions of both operands.
                let ext = if matches!(op, BinOp::Slt | BinOp::Sle) { CastOp::Sext } else { CastOp::Zext };
                let wide = Ty::Int(64);
                let (a, b) = (eval_cast(ext, ty, wide, x), eval_cast(ext, ty, wide, y));
                (
                    cmp(op, Expr::cast(ext, wide, var(0)), Expr::cast(ext, wide, var(1))),
                    eval_binop(op, wide, a, b) != 0,
                )
            }
            4 => (
                Expr::binary(BinOp::And, cmp(op, var(0), var(1)), other),
                eval_binop(op, ty, x, y) != 0 && other_val,
            ),
            _ => (
                Expr::binary(BinOp::Or, cmp(op, var(0), var(1)), other),
                eval_binop(op, ty, x, y) != 0 || other_val,
            ),
        };
        // Refine by the condition's actual value for this state (so both polarities are met).
        let positive = truth;
        let st = Some(vec![Some(vx), Some(vy)]);
        let refined = refine(st, &cond, positive, &slots, &env);
        prop_assert!(refined.is_some(), "{cond:?}={positive} holds for x={x:#x}, y={y:#x} but refine says unreachable");
        let refined = refined.expect("checked");
        for (i, v) in [x, y].into_iter().enumerate() {
            if let Some(val) = refined[i] {
                prop_assert!(contains(&val, v), "{cond:?}={positive}: %{i} = {v:#x} dropped by {val:?}");
            }
        }
    }
}

/// The examples, as fixed cases: `-x` for `x` in `[INT_MIN, 0]` and for unsigned
/// `x >= 2^31` must not claim a non-negative or small result.
#[test]
fn negation_does_not_clip() {
    let env = Env(vec![Ty::I32, Ty::I32]);
    let slots = Slots { num_locals: 2 };
    let e = Expr::unary(UnOp::Neg, var(0));
    let x = Val::from_signed(32, Range::new(i32::MIN as i128, 0));
    let got = eval(&e, &[Some(x), None], &slots, &env).expect("int");
    assert!(
        contains(&got, 0x8000_0000),
        "-INT_MIN wraps to INT_MIN: {got:?}"
    );
    let x = Val::from_unsigned(32, Range::new(0x8000_0000, 0xffff_ffff));
    let got = eval(&e, &[Some(x), None], &slots, &env).expect("int");
    assert!(contains(&got, 0x8000_0000), "-(2^31) is 2^31: {got:?}");
}
