//! The simplifying constructors: the rules that symbolic execution relies on fire, and the
//! terms they build mean what the reference evaluator says.

use qicc_smt::eval::{eval, Value};
use qicc_smt::{BvBinOp, BvCmpOp, Node, Sort, TermStore};
use std::collections::HashMap;

#[test]
fn constants_fold_through_ir_semantics() {
    let mut s = TermStore::new();
    let seven = s.bv_const(32, 7);
    let zero = s.bv_const(32, 0);
    let minus7 = s.bv_const(32, (-7i32) as u32 as u64);
    let two = s.bv_const(32, 2);
    let cases = [
        (BvBinOp::UDiv, seven, zero, 0xffff_ffff),
        (BvBinOp::URem, seven, zero, 7),
        (BvBinOp::SDiv, seven, zero, 0xffff_ffff),
        (BvBinOp::SDiv, minus7, zero, 1),
        (BvBinOp::SDiv, minus7, two, (-3i32) as u32 as u64),
        (BvBinOp::SRem, minus7, two, (-1i32) as u32 as u64),
        (BvBinOp::Shl, seven, s.bv_const(32, 32), 0),
    ];
    for (op, a, b, want) in cases {
        let t = s.bv_bin(op, a, b);
        assert_eq!(s.as_bv_const(t), Some(want), "{op:?}");
    }
}

#[test]
fn neutral_elements_and_reassociation() {
    let mut s = TermStore::new();
    let x = s.symbol("x", Sort::BitVec(32));
    let zero = s.bv_const(32, 0);
    let one = s.bv_const(32, 1);
    assert_eq!(s.add(x, zero), x);
    assert_eq!(s.bv_bin(BvBinOp::Mul, x, one), x);
    assert_eq!(s.bv_bin(BvBinOp::Mul, one, x), x);
    assert_eq!(s.sub(x, x), zero);
    let x1 = s.add_const(x, 1);
    let x3 = s.add_const(x1, 2);
    assert_eq!(x3, s.add_const(x, 3));
    let two = s.bv_const(32, 2);
    assert_eq!(s.sub(x3, two), x1);
    let e = s.eq(x3, x3);
    assert_eq!(e, s.tt());
    // x + 3 = 5  <=>  x = 2
    let five = s.bv_const(32, 5);
    let e = s.eq(x3, five);
    let want = s.eq(x, two);
    assert_eq!(e, want);
}

#[test]
fn boolean_rules_keep_guard_chains() {
    let mut s = TermStore::new();
    let p = s.symbol("p", Sort::Bool);
    let c = s.symbol("c", Sort::Bool);
    let nc = s.not(c);
    let a = s.and(p, c);
    let b = s.and(p, nc);
    // The join of the two branches is the guard before them.
    assert_eq!(s.or(a, b), p);
    assert_eq!(s.and(c, nc), s.ff());
    assert_eq!(s.and(a, nc), s.ff());
    let tt = s.tt();
    let ff = s.ff();
    assert_eq!(s.ite(c, tt, ff), c);
    assert_eq!(s.ite(nc, p, c), s.ite(c, c, p));
    assert!(matches!(s.node(a), Node::And(x, y) if *x == p && *y == c));
}

#[test]
fn ite_of_constants_stays_foldable() {
    let mut s = TermStore::new();
    let c = s.symbol("c", Sort::Bool);
    let one = s.bv_const(8, 1);
    let two = s.bv_const(8, 2);
    let v = s.ite(c, one, two);
    let w = s.add_const(v, 10);
    assert!(matches!(s.node(w), Node::Ite(..)));
    let lim = s.bv_const(8, 20);
    let lt = s.bv_cmp(BvCmpOp::Ult, w, lim);
    assert_eq!(lt, s.tt());
    let eleven = s.bv_const(8, 11);
    assert_eq!(s.eq(w, eleven), c);
}

#[test]
fn loads_of_stored_values_fold_back() {
    let mut s = TermStore::new();
    let mem = s.symbol("mem", Sort::Array { index: 32, elem: 8 });
    let p = s.symbol("p", Sort::BitVec(32));
    let v = s.symbol("v", Sort::BitVec(32));
    // Little-endian store of v at p, then of a byte at p + 7 (no alias by offset).
    let mut m = mem;
    for i in 0..4u16 {
        let a = s.add_const(p, i as u64);
        let byte = s.extract(8 * i + 7, 8 * i, v);
        m = s.store(m, a, byte);
    }
    let far = s.add_const(p, 7);
    let b = s.bv_const(8, 0xab);
    m = s.store(m, far, b);
    let mut acc = None;
    for i in 0..4u16 {
        let a = s.add_const(p, i as u64);
        let byte = s.select(m, a);
        acc = Some(match acc {
            None => byte,
            Some(low) => s.concat(byte, low),
        });
    }
    assert_eq!(acc, Some(v));
    // Reading p + 9 skips every store and stays a select of the base array.
    let a9 = s.add_const(p, 9);
    let r = s.select(m, a9);
    assert!(matches!(s.node(r), Node::Select(base, _) if *base == mem));
}

#[test]
fn lambda_reads_beta_reduce() {
    let mut s = TermStore::new();
    let base = s.symbol("base", Sort::Array { index: 8, elem: 8 });
    let b = s.bound_var(Sort::BitVec(8));
    let lo = s.bv_const(8, 10);
    let n = s.bv_const(8, 5);
    let off = s.sub(b, lo);
    let inside = s.ult(off, n);
    let fill = s.bv_const(8, 0x55);
    let old = s.select(base, b);
    let body = s.ite(inside, fill, old);
    let arr = s.lambda(b, body);
    let twelve = s.bv_const(8, 12);
    assert_eq!(s.select(arr, twelve), fill);
    let nine = s.bv_const(8, 9);
    let r = s.select(arr, nine);
    assert_eq!(r, s.select(base, nine));
    // Reference evaluation agrees, symbolic index included.
    let i = s.symbol("i", Sort::BitVec(8));
    let r = s.select(arr, i);
    let mut env: HashMap<_, Value> = HashMap::new();
    env.insert(
        i,
        Value::Bv {
            width: 8,
            value: 14,
        },
    );
    assert_eq!(eval(&s, r, &env).as_bv(), Some(0x55));
    env.insert(
        i,
        Value::Bv {
            width: 8,
            value: 15,
        },
    );
    assert_eq!(eval(&s, r, &env).as_bv(), Some(0));
}

#[test]
fn extensions_and_extracts() {
    let mut s = TermStore::new();
    let x = s.symbol("x", Sort::BitVec(8));
    let z = s.zero_ext(24, x);
    assert_eq!(s.extract(7, 0, z), x);
    let hi = s.extract(31, 8, z);
    assert_eq!(s.as_bv_const(hi), Some(0));
    let e = s.sign_ext(24, x);
    assert_eq!(s.extract(7, 0, e), x);
    let c = s.bv_const(32, 0x41);
    assert_eq!(s.eq(z, c), {
        let k = s.bv_const(8, 0x41);
        s.eq(x, k)
    });
    let big = s.bv_const(32, 0x141);
    assert_eq!(s.eq(z, big), s.ff());
    let neg = s.bv_const(32, 0xffff_ff80);
    assert_eq!(s.eq(e, neg), {
        let k = s.bv_const(8, 0x80);
        s.eq(x, k)
    });
}

#[test]
fn ranges_decide_comparisons_with_constants() {
    let mut s = TermStore::new();
    let x = s.symbol("x", Sort::BitVec(32));
    let thirteen = s.bv_const(32, 13);
    let k = s.bv_bin(BvBinOp::URem, x, thirteen);
    let twelve = s.bv_const(32, 12);
    assert_eq!(s.bv_cmp(BvCmpOp::Ule, k, twelve), s.tt());
    assert_eq!(s.bv_cmp(BvCmpOp::Ule, thirteen, k), s.ff());
    assert_eq!(s.bv_cmp(BvCmpOp::Slt, k, thirteen), s.tt());
    let minus1 = s.bv_const(32, 0xffff_ffff);
    assert_eq!(s.bv_cmp(BvCmpOp::Slt, minus1, k), s.tt());
    assert_eq!(s.eq(k, thirteen), s.ff());
    // Nothing is known about x itself.
    let open = s.bv_cmp(BvCmpOp::Ule, x, twelve);
    assert!(matches!(s.node(open), Node::BvCmp(..)));
    let c = s.symbol("c", Sort::Bool);
    let y = s.symbol("y", Sort::BitVec(8));
    let wide = s.zero_ext(24, y);
    let m = s.ite(c, wide, k);
    let big = s.bv_const(32, 255);
    assert_eq!(s.bv_cmp(BvCmpOp::Ule, m, big), s.tt());
    let small = s.bv_const(32, 254);
    let open = s.bv_cmp(BvCmpOp::Ule, m, small);
    assert!(matches!(s.node(open), Node::BvCmp(..)));
}

#[test]
fn disjointness_without_building_terms() {
    let mut s = TermStore::new();
    let x = s.symbol("x", Sort::BitVec(8));
    let one = s.bv_const(8, 1);
    let two = s.bv_const(8, 2);
    let e1 = s.eq(x, one);
    let e2 = s.eq(x, two);
    let n1 = s.not(e1);
    let n2 = s.not(e2);
    let default = s.and(n1, n2);
    let lt = s.bv_cmp(BvCmpOp::Slt, x, two);
    let ge = s.not(lt);
    let before = s.len();
    assert!(s.disjoint(e1, e2));
    assert!(s.disjoint(e1, default));
    assert!(s.disjoint(default, e2));
    assert!(s.disjoint(lt, ge));
    assert!(!s.disjoint(e1, lt));
    assert_eq!(s.len(), before);
    // not(x < 2) is 2 <= x, whichever way it is written.
    assert_eq!(ge, s.bv_cmp(BvCmpOp::Sle, two, x));
}

#[test]
fn truncation_forgets_the_terms_made_after_the_mark() {
    let mut s = TermStore::new();
    let x = s.symbol("x", Sort::BitVec(32));
    let x1 = s.add_const(x, 1);
    let arr = s.symbol("a", Sort::Array { index: 32, elem: 8 });
    let len = s.len();
    let mark = s.mark();
    let y = s.symbol("y", Sort::BitVec(32));
    let xy = s.bv_bin(BvBinOp::Xor, x1, y);
    let sel = s.select(arr, xy);
    assert!(s.len() > len);
    s.truncate(mark);
    assert_eq!(s.len(), len);
    // What was made before the mark is still shared.
    assert_eq!(s.add_const(x, 1), x1);
    assert_eq!(s.symbol("x", Sort::BitVec(32)), x);
    // What was made after it is made anew, at the ids it had, with the same meaning and the
    // same symbol name (a model is read back by name).
    let y2 = s.symbol("y", Sort::BitVec(32));
    assert_eq!(y2.index(), len);
    assert_eq!(s.symbol_name(y2), Some("y"));
    let xy2 = s.bv_bin(BvBinOp::Xor, x1, y2);
    assert!(matches!(s.node(xy2), Node::BvBin(BvBinOp::Xor, _, _)));
    let sel2 = s.select(arr, xy2);
    assert!(matches!(s.node(sel2), Node::Select(a, i) if *a == arr && *i == xy2));
    assert_eq!((y2, xy2, sel2), (y, xy, sel));
    // Not in the index twice: the same term again is the same id.
    assert_eq!(s.bv_bin(BvBinOp::Xor, x1, y2), xy2);
    assert_eq!(s.len(), len + 3);
}

#[test]
fn a_product_with_a_sum_and_a_constant_is_distributed() {
    // (i + 1) * m and i*m + m are one term: a loop's polynomial invariant `k == i*m` meets
    // its next iteration without two multipliers for the SAT solver to prove equal.
    let mut s = TermStore::new();
    let i = s.symbol("i", Sort::BitVec(32));
    let m = s.symbol("m", Sort::BitVec(32));
    let i1 = s.add_const(i, 1);
    let left = s.bv_bin(BvBinOp::Mul, i1, m);
    let im = s.bv_bin(BvBinOp::Mul, i, m);
    let right = s.bv_bin(BvBinOp::Add, im, m);
    assert_eq!(left, right);
    // Both orders of the operands, and the meaning kept modulo 2^32 on wrapping values.
    assert_eq!(s.bv_bin(BvBinOp::Mul, m, i1), right);
    let j = s.symbol("j", Sort::BitVec(32));
    let j7 = s.add_const(j, 0xffff_fff9); // j - 7
    let nested = s.bv_bin(BvBinOp::Mul, i1, j7); // (i + 1) * (j - 7)
    for (iv, mv, jv) in [
        (0xffff_ffffu64, 7u64, 3u64),
        (0x8000_0000, 0x8000_0001, 0xffff_fff0),
        (12, 0, 1),
        (0x7fff_ffff, 0xffff_ffff, 0x1234_5678),
    ] {
        let bv = |v: u64| qicc_smt::eval::Value::Bv {
            width: 32,
            value: v,
        };
        let env: std::collections::HashMap<_, _> = [(i, bv(iv)), (m, bv(mv)), (j, bv(jv))]
            .into_iter()
            .collect();
        let value = |t| qicc_smt::eval::eval(&s, t, &env).as_bv();
        let w = |x: u64| x & 0xffff_ffff;
        assert_eq!(value(left), Some(w(w(iv + 1) * mv)));
        assert_eq!(
            value(nested),
            Some(w(w(iv + 1).wrapping_mul(w(jv.wrapping_add(0xffff_fff9)))))
        );
    }
}
