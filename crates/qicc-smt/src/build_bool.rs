//! Simplifying constructors of Boolean terms, equality and if-then-else.
//!
//! Each rule is a local, sort-preserving equivalence (checked against the reference
//! evaluator by the property tests). `and`/`or` keep their operand order — symbolic
//! execution reads path guards as left-nested conjunction chains (`and(prefix, condition)`)
//! — and `or(and(p, a), and(p, b))` is factored to `and(p, or(a, b))`, which is what makes
//! the guard of a join point collapse back to the guard before the branch.

use crate::store::TermStore;
use crate::term::{BvCmpOp, Node, Sort, TermId};

/// The comparison `op'` with `not(a op b) = b op' a`.
fn flip_cmp(op: BvCmpOp) -> BvCmpOp {
    match op {
        BvCmpOp::Ult => BvCmpOp::Ule,
        BvCmpOp::Ule => BvCmpOp::Ult,
        BvCmpOp::Slt => BvCmpOp::Sle,
        BvCmpOp::Sle => BvCmpOp::Slt,
    }
}

impl TermStore {
    pub fn not(&mut self, a: TermId) -> TermId {
        self.expect_bool(a);
        match *self.node(a) {
            Node::BoolConst(b) => self.bool_const(!b),
            Node::Not(x) => x,
            // not(x < y) is y <= x: one normal form for a branch condition and its negation,
            // however the producer wrote them.
            Node::BvCmp(op, x, y) => self.bv_cmp(flip_cmp(op), y, x),
            _ => self.intern(Node::Not(a), Sort::Bool),
        }
    }

    /// Whether `a` is syntactically the negation of `b` (or vice versa).
    pub fn is_complement(&self, a: TermId, b: TermId) -> bool {
        if matches!(self.node(a), Node::Not(x) if *x == b)
            || matches!(self.node(b), Node::Not(x) if *x == a)
        {
            return true;
        }
        match (self.node(a), self.node(b)) {
            (Node::BvCmp(o1, x1, y1), Node::BvCmp(o2, x2, y2)) => {
                *o2 == flip_cmp(*o1) && x1 == y2 && y1 == x2
            }
            _ => false,
        }
    }

    pub fn and(&mut self, a: TermId, b: TermId) -> TermId {
        self.expect_bool(a);
        self.expect_bool(b);
        let (tt, ff) = (self.tt(), self.ff());
        if a == ff || b == ff {
            return ff;
        }
        if a == tt {
            return b;
        }
        if b == tt || a == b {
            return a;
        }
        if self.is_complement(a, b) || self.eq_distinct_consts(a, b) {
            return ff;
        }
        // A condition already on the chain adds nothing.
        if let Node::And(_, c) = *self.node(a) {
            if c == b {
                return a;
            }
            if self.is_complement(c, b) {
                return ff;
            }
        }
        self.intern(Node::And(a, b), Sort::Bool)
    }

    pub fn or(&mut self, a: TermId, b: TermId) -> TermId {
        self.expect_bool(a);
        self.expect_bool(b);
        let (tt, ff) = (self.tt(), self.ff());
        if a == tt || b == tt {
            return tt;
        }
        if a == ff {
            return b;
        }
        if b == ff || a == b {
            return a;
        }
        if self.is_complement(a, b) {
            return tt;
        }
        if let (Node::And(p, x), Node::And(q, y)) = (*self.node(a), *self.node(b)) {
            if p == q {
                let r = self.or(x, y);
                return self.and(p, r);
            }
        }
        // or(p, and(p, x)) = p
        if matches!(*self.node(b), Node::And(p, _) if p == a) {
            return a;
        }
        if matches!(*self.node(a), Node::And(p, _) if p == b) {
            return b;
        }
        self.intern(Node::Or(a, b), Sort::Bool)
    }

    pub fn xor(&mut self, a: TermId, b: TermId) -> TermId {
        self.expect_bool(a);
        self.expect_bool(b);
        let (tt, ff) = (self.tt(), self.ff());
        if a == b {
            return ff;
        }
        if self.is_complement(a, b) {
            return tt;
        }
        if a == ff {
            return b;
        }
        if b == ff {
            return a;
        }
        if a == tt {
            return self.not(b);
        }
        if b == tt {
            return self.not(a);
        }
        let (a, b) = if a > b { (b, a) } else { (a, b) };
        self.intern(Node::Xor(a, b), Sort::Bool)
    }

    pub fn implies(&mut self, a: TermId, b: TermId) -> TermId {
        let na = self.not(a);
        self.or(na, b)
    }

    /// Conjunction of all (true for none).
    pub fn and_all(&mut self, ts: &[TermId]) -> TermId {
        let mut acc = self.tt();
        for &t in ts {
            acc = self.and(acc, t);
        }
        acc
    }

    /// Disjunction of all (false for none).
    pub fn or_all(&mut self, ts: &[TermId]) -> TermId {
        let mut acc = self.ff();
        for &t in ts {
            acc = self.or(acc, t);
        }
        acc
    }

    /// Whether `a ∧ b` is unsatisfiable by syntax alone: complementary, `x = c1` against
    /// `x = c2`, or a conjunct of one (a few levels deep) disjoint from the other. Builds no
    /// terms.
    pub fn disjoint(&self, a: TermId, b: TermId) -> bool {
        self.disjoint_at(a, b, 4)
    }

    fn disjoint_at(&self, a: TermId, b: TermId, depth: u32) -> bool {
        if a == self.ff() || b == self.ff() {
            return true;
        }
        if self.is_complement(a, b) || self.eq_distinct_consts(a, b) {
            return true;
        }
        if depth == 0 {
            return false;
        }
        if let Node::And(p, q) = *self.node(a) {
            if self.disjoint_at(p, b, depth - 1) || self.disjoint_at(q, b, depth - 1) {
                return true;
            }
        }
        if let Node::And(p, q) = *self.node(b) {
            if self.disjoint_at(a, p, depth - 1) || self.disjoint_at(a, q, depth - 1) {
                return true;
            }
        }
        false
    }

    /// `eq(x, c1)` and `eq(x, c2)` with distinct constants cannot both hold.
    fn eq_distinct_consts(&self, a: TermId, b: TermId) -> bool {
        match (self.node(a), self.node(b)) {
            (Node::Eq(x, c1), Node::Eq(y, c2)) => {
                x == y && c1 != c2 && self.is_const(*c1) && self.is_const(*c2)
            }
            _ => false,
        }
    }

    /// Equality of two terms of the same sort (arrays: extensional, as in SMT-LIB).
    pub fn eq(&mut self, a: TermId, b: TermId) -> TermId {
        let sort = self.sort(a);
        assert_eq!(sort, self.sort(b), "internal error: eq of different sorts");
        if a == b {
            return self.tt();
        }
        // Constants go right.
        let (a, b) = if self.is_const(a) && !self.is_const(b) {
            (b, a)
        } else {
            (a, b)
        };
        match sort {
            Sort::Bool => {
                if let Some(bc) = self.as_bool_const(b) {
                    return match self.as_bool_const(a) {
                        Some(ac) => self.bool_const(ac == bc),
                        None if bc => a,
                        None => self.not(a),
                    };
                }
                if self.is_complement(a, b) {
                    return self.ff();
                }
            }
            Sort::BitVec(w) => {
                if let Some(cb) = self.as_bv_const(b) {
                    if let Some(ca) = self.as_bv_const(a) {
                        return self.bool_const(ca == cb);
                    }
                    if let Some(r) = self.eq_const_rules(a, cb, w) {
                        return r;
                    }
                }
            }
            Sort::Array { .. } => {}
        }
        let (a, b) = if !self.is_const(b) && a > b {
            (b, a)
        } else {
            (a, b)
        };
        self.intern(Node::Eq(a, b), Sort::Bool)
    }

    /// `eq(a, c)` for a constant `c` of width `w`, where `a` is not constant.
    fn eq_const_rules(&mut self, a: TermId, c: u64, w: u16) -> Option<TermId> {
        if c > self.unsigned_max(a) {
            return Some(self.ff());
        }
        match *self.node(a) {
            // x + k = c  <=>  x = c - k (modular arithmetic is a group).
            Node::BvBin(crate::BvBinOp::Add, x, k) => {
                let k = self.as_bv_const(k)?;
                let m = qicc_ir::types::mask(w);
                let rhs = self.bv_const(w, c.wrapping_sub(k) & m);
                Some(self.eq(x, rhs))
            }
            Node::ZeroExt { arg, .. } => {
                let wx = self.width(arg);
                if c >> wx != 0 {
                    Some(self.ff())
                } else {
                    let rhs = self.bv_const(wx, c);
                    Some(self.eq(arg, rhs))
                }
            }
            Node::SignExt { arg, .. } => {
                let wx = self.width(arg);
                let low = c & qicc_ir::types::mask(wx);
                let back = qicc_ir::semantics::eval_cast(
                    qicc_ir::CastOp::Sext,
                    qicc_ir::Ty::Int(wx),
                    qicc_ir::Ty::Int(w),
                    low,
                );
                if back != c {
                    Some(self.ff())
                } else {
                    let rhs = self.bv_const(wx, low);
                    Some(self.eq(arg, rhs))
                }
            }
            Node::Ite(cond, x, y) => {
                let (cx, cy) = (self.as_bv_const(x)?, self.as_bv_const(y)?);
                let (tx, ty) = (self.bool_const(cx == c), self.bool_const(cy == c));
                Some(self.ite(cond, tx, ty))
            }
            _ => None,
        }
    }

    pub fn ne(&mut self, a: TermId, b: TermId) -> TermId {
        let e = self.eq(a, b);
        self.not(e)
    }

    /// `if c then a else b` for any sort (arrays included).
    pub fn ite(&mut self, c: TermId, a: TermId, b: TermId) -> TermId {
        self.expect_bool(c);
        let sort = self.sort(a);
        assert_eq!(
            sort,
            self.sort(b),
            "internal error: ite branches of different sorts"
        );
        if let Some(cc) = self.as_bool_const(c) {
            return if cc { a } else { b };
        }
        if a == b {
            return a;
        }
        if let Node::Not(x) = *self.node(c) {
            return self.ite(x, b, a);
        }
        if sort == Sort::Bool {
            let (tt, ff) = (self.tt(), self.ff());
            if a == tt && b == ff {
                return c;
            }
            if a == ff && b == tt {
                return self.not(c);
            }
            if a == tt {
                return self.or(c, b);
            }
            if b == ff {
                return self.and(c, a);
            }
        }
        // Only one branch of a nested ite on the same condition is ever taken.
        if let Node::Ite(c2, x, _) = *self.node(a) {
            if c2 == c {
                return self.ite(c, x, b);
            }
        }
        if let Node::Ite(c2, _, y) = *self.node(b) {
            if c2 == c {
                return self.ite(c, a, y);
            }
        }
        self.intern(Node::Ite(c, a, b), sort)
    }

    pub(crate) fn expect_bool(&self, t: TermId) {
        assert!(
            self.sort(t).is_bool(),
            "internal error: Bool expected, found {}",
            self.sort(t)
        );
    }
}
