//! Random expressions, evaluated three ways: directly (a tiny reference interpreter in this
//! file, with `qicc_ir::semantics`), through the simplifying term store and its reference
//! evaluator, and by Z3 on the simplified term. All three must agree.

use proptest::prelude::*;
use qicc_ir::semantics::{eval_binop, eval_unop, to_signed};
use qicc_ir::{BinOp, Ty, UnOp};
use qicc_smt::eval::{eval, Value};
use qicc_smt::{BvBinOp, BvCmpOp, BvUnOp, CheckResult, Solver, Sort, TermId, TermStore};
use qicc_smt::{CheckMode, Z3Solver};
use std::collections::HashMap;

const W: u16 = 8;
const NVARS: usize = 3;

#[derive(Clone, Debug)]
enum E {
    Var(usize),
    Const(u64),
    Un(BvUnOp, Box<E>),
    Bin(BvBinOp, Box<E>, Box<E>),
    Ite(Box<B>, Box<E>, Box<E>),
    /// Bits `lo + 7 ..= lo` of `concat(hi, lo_part)` (a 16-bit value).
    Slice(u16, Box<E>, Box<E>),
    /// Low byte of `sext`/`zext` to 16 bits of the operand plus a constant, then truncated.
    ExtAdd(bool, Box<E>, u64),
    /// A read at `index` of memory built by writes over a constant array (default `Var(0)`),
    /// with an optional memset-like lambda `[dst, dst + len) := byte` on top.
    Read(Vec<(E, E)>, Option<Box<(E, E, E)>>, Box<E>),
}

#[derive(Clone, Debug)]
enum B {
    Const(bool),
    Cmp(BvCmpOp, E, E),
    Eq(E, E),
    Not(Box<B>),
    And(Box<B>, Box<B>),
    Or(Box<B>, Box<B>),
    Xor(Box<B>, Box<B>),
}

fn bin_op() -> impl Strategy<Value = BvBinOp> {
    prop_oneof![
        Just(BvBinOp::Add),
        Just(BvBinOp::Sub),
        Just(BvBinOp::Mul),
        Just(BvBinOp::UDiv),
        Just(BvBinOp::SDiv),
        Just(BvBinOp::URem),
        Just(BvBinOp::SRem),
        Just(BvBinOp::Shl),
        Just(BvBinOp::LShr),
        Just(BvBinOp::AShr),
        Just(BvBinOp::And),
        Just(BvBinOp::Or),
        Just(BvBinOp::Xor),
    ]
}

fn cmp_op() -> impl Strategy<Value = BvCmpOp> {
    prop_oneof![
        Just(BvCmpOp::Ult),
        Just(BvCmpOp::Ule),
        Just(BvCmpOp::Slt),
        Just(BvCmpOp::Sle)
    ]
}

fn small_const() -> impl Strategy<Value = u64> {
    prop_oneof![
        Just(0u64),
        Just(1),
        Just(2),
        Just(7),
        Just(8),
        Just(0x7f),
        Just(0x80),
        Just(0xff),
        0u64..256
    ]
}

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        (0..NVARS).prop_map(E::Var),
        small_const().prop_map(E::Const)
    ];
    leaf.prop_recursive(4, 40, 3, |inner| {
        let b = boolean(inner.clone());
        prop_oneof![
            (
                prop_oneof![Just(BvUnOp::Neg), Just(BvUnOp::Not)],
                inner.clone()
            )
                .prop_map(|(op, a)| E::Un(op, Box::new(a))),
            (bin_op(), inner.clone(), inner.clone()).prop_map(|(op, a, b)| E::Bin(
                op,
                Box::new(a),
                Box::new(b)
            )),
            (b, inner.clone(), inner.clone()).prop_map(|(c, a, b)| E::Ite(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
            (0u16..=8, inner.clone(), inner.clone()).prop_map(|(lo, a, b)| E::Slice(
                lo,
                Box::new(a),
                Box::new(b)
            )),
            (any::<bool>(), inner.clone(), small_const()).prop_map(|(s, a, k)| E::ExtAdd(
                s,
                Box::new(a),
                k
            )),
            (
                prop::collection::vec((inner.clone(), inner.clone()), 0..4),
                prop::option::of((inner.clone(), inner.clone(), inner.clone())),
                inner.clone()
            )
                .prop_map(|(w, l, i)| E::Read(w, l.map(Box::new), Box::new(i))),
        ]
    })
}

fn boolean(e: impl Strategy<Value = E> + Clone + 'static) -> impl Strategy<Value = B> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(B::Const),
        (cmp_op(), e.clone(), e.clone()).prop_map(|(op, a, b)| B::Cmp(op, a, b)),
        // Against a constant, on either side: exercises the range rules.
        (cmp_op(), e.clone(), small_const(), any::<bool>()).prop_map(|(op, a, c, flip)| {
            if flip {
                B::Cmp(op, E::Const(c), a)
            } else {
                B::Cmp(op, a, E::Const(c))
            }
        }),
        (e.clone(), e.clone()).prop_map(|(a, b)| B::Eq(a, b)),
    ];
    leaf.prop_recursive(2, 8, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|a| B::Not(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| B::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| B::Or(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| B::Xor(Box::new(a), Box::new(b))),
        ]
    })
}

fn ir_bin(op: BvBinOp) -> BinOp {
    match op {
        BvBinOp::Add => BinOp::Add,
        BvBinOp::Sub => BinOp::Sub,
        BvBinOp::Mul => BinOp::Mul,
        BvBinOp::UDiv => BinOp::UDiv,
        BvBinOp::SDiv => BinOp::SDiv,
        BvBinOp::URem => BinOp::URem,
        BvBinOp::SRem => BinOp::SRem,
        BvBinOp::Shl => BinOp::Shl,
        BvBinOp::LShr => BinOp::LShr,
        BvBinOp::AShr => BinOp::AShr,
        BvBinOp::And => BinOp::And,
        BvBinOp::Or => BinOp::Or,
        BvBinOp::Xor => BinOp::Xor,
    }
}

fn ir_cmp(op: BvCmpOp) -> BinOp {
    match op {
        BvCmpOp::Ult => BinOp::Ult,
        BvCmpOp::Ule => BinOp::Ule,
        BvCmpOp::Slt => BinOp::Slt,
        BvCmpOp::Sle => BinOp::Sle,
    }
}

/// The reference: direct evaluation.
fn reval(e: &E, vars: &[u64]) -> u64 {
    let t = Ty::Int(W);
    match e {
        E::Var(i) => vars[*i],
        E::Const(c) => *c,
        E::Un(op, a) => {
            let op = match op {
                BvUnOp::Neg => UnOp::Neg,
                BvUnOp::Not => UnOp::Not,
            };
            eval_unop(op, t, reval(a, vars))
        }
        E::Bin(op, a, b) => eval_binop(ir_bin(*op), t, reval(a, vars), reval(b, vars)),
        E::Ite(c, a, b) => {
            if rbool(c, vars) {
                reval(a, vars)
            } else {
                reval(b, vars)
            }
        }
        E::Slice(lo, a, b) => ((reval(a, vars) << 8 | reval(b, vars)) >> lo) & 0xff,
        E::ExtAdd(signed, a, k) => {
            let v = reval(a, vars);
            let wide = if *signed {
                (to_signed(v, 8) as u64) & 0xffff
            } else {
                v
            };
            (wide.wrapping_add(*k)) & 0xff
        }
        E::Read(writes, fill, idx) => {
            let mut mem: HashMap<u64, u64> = HashMap::new();
            for (a, v) in writes {
                mem.insert(reval(a, vars), reval(v, vars));
            }
            let i = reval(idx, vars);
            if let Some(f) = fill {
                let (d, n, b) = (reval(&f.0, vars), reval(&f.1, vars), reval(&f.2, vars));
                if i.wrapping_sub(d) & 0xff < n {
                    return b;
                }
            }
            mem.get(&i).copied().unwrap_or(vars[0])
        }
    }
}

fn rbool(b: &B, vars: &[u64]) -> bool {
    match b {
        B::Const(c) => *c,
        B::Cmp(op, x, y) => {
            eval_binop(ir_cmp(*op), Ty::Int(W), reval(x, vars), reval(y, vars)) != 0
        }
        B::Eq(x, y) => reval(x, vars) == reval(y, vars),
        B::Not(a) => !rbool(a, vars),
        B::And(a, c) => rbool(a, vars) && rbool(c, vars),
        B::Or(a, c) => rbool(a, vars) || rbool(c, vars),
        B::Xor(a, c) => rbool(a, vars) != rbool(c, vars),
    }
}

fn build(s: &mut TermStore, e: &E, vars: &[TermId]) -> TermId {
    match e {
        E::Var(i) => vars[*i],
        E::Const(c) => s.bv_const(W, *c),
        E::Un(op, a) => {
            let a = build(s, a, vars);
            s.bv_un(*op, a)
        }
        E::Bin(op, a, b) => {
            let (a, b) = (build(s, a, vars), build(s, b, vars));
            s.bv_bin(*op, a, b)
        }
        E::Ite(c, a, b) => {
            let c = build_b(s, c, vars);
            let (a, b) = (build(s, a, vars), build(s, b, vars));
            s.ite(c, a, b)
        }
        E::Slice(lo, a, b) => {
            let (a, b) = (build(s, a, vars), build(s, b, vars));
            let c = s.concat(a, b);
            s.extract(lo + 7, *lo, c)
        }
        E::ExtAdd(signed, a, k) => {
            let a = build(s, a, vars);
            let wide = if *signed {
                s.sign_ext(8, a)
            } else {
                s.zero_ext(8, a)
            };
            let sum = s.add_const(wide, *k);
            s.extract(7, 0, sum)
        }
        E::Read(writes, fill, idx) => {
            let mut m = s.const_array(W, vars[0]);
            for (a, v) in writes {
                let (a, v) = (build(s, a, vars), build(s, v, vars));
                m = s.store(m, a, v);
            }
            if let Some(f) = fill {
                let (d, n, b) = (
                    build(s, &f.0, vars),
                    build(s, &f.1, vars),
                    build(s, &f.2, vars),
                );
                let x = s.bound_var(Sort::BitVec(W));
                let off = s.sub(x, d);
                let inside = s.ult(off, n);
                let old = s.select(m, x);
                let body = s.ite(inside, b, old);
                m = s.lambda(x, body);
            }
            let i = build(s, idx, vars);
            s.select(m, i)
        }
    }
}

fn build_b(s: &mut TermStore, b: &B, vars: &[TermId]) -> TermId {
    match b {
        B::Const(c) => s.bool_const(*c),
        B::Cmp(op, x, y) => {
            let (x, y) = (build(s, x, vars), build(s, y, vars));
            s.bv_cmp(*op, x, y)
        }
        B::Eq(x, y) => {
            let (x, y) = (build(s, x, vars), build(s, y, vars));
            s.eq(x, y)
        }
        B::Not(a) => {
            let a = build_b(s, a, vars);
            s.not(a)
        }
        B::And(a, c) => {
            let (a, c) = (build_b(s, a, vars), build_b(s, c, vars));
            s.and(a, c)
        }
        B::Or(a, c) => {
            let (a, c) = (build_b(s, a, vars), build_b(s, c, vars));
            s.or(a, c)
        }
        B::Xor(a, c) => {
            let (a, c) = (build_b(s, a, vars), build_b(s, c, vars));
            s.xor(a, c)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 800, ..ProptestConfig::default() })]

    #[test]
    fn simplified_terms_mean_what_the_expression_means(
        e in expr(),
        vals in prop::collection::vec(0u64..256, NVARS),
    ) {
        let want = reval(&e, &vals);
        let mut s = TermStore::new();
        let vars: Vec<TermId> = (0..NVARS).map(|i| s.symbol(&format!("v{i}"), Sort::BitVec(W))).collect();
        let t = build(&mut s, &e, &vars);
        let env: HashMap<TermId, Value> = vars
            .iter()
            .zip(&vals)
            .map(|(&v, &x)| (v, Value::Bv { width: W, value: x }))
            .collect();
        prop_assert_eq!(eval(&s, t, &env).as_bv(), Some(want));

        // Z3 agrees: with the variables fixed, the term cannot differ from `want`.
        let mut z = Z3Solver::new(CheckMode::Incremental);
        let mut assumptions = Vec::new();
        for (&v, &x) in vars.iter().zip(&vals) {
            let c = s.bv_const(W, x);
            assumptions.push(s.eq(v, c));
        }
        let w = s.bv_const(W, want);
        assumptions.push(s.ne(t, w));
        prop_assert_eq!(z.check(&s, &assumptions), CheckResult::Unsat);
    }
}
