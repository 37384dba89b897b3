//! Simplifying constructors of bit-vector terms.
//!
//! Constant folding goes through `qicc_ir::semantics`, the same definition the interpreter
//! uses, so a folded term means exactly what the IR operator means. Besides folding: neutral
//! and absorbing elements, constants to the right of commutative operators and merged
//! (`(x + 1) + 2 = x + 3`, `x - 3 = x + (-3)`), a product distributed over a sum with a
//! constant (`(x + 1) * y = x*y + y`), operations on an `ite` of two constants with
//! a constant pushed into the branches (values merged at join points stay constant-foldable),
//! and the extract/concat/extension normal forms that turn a multi-byte load of a stored value
//! back into the value.

use crate::store::TermStore;
use crate::term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
use qicc_ir::types::mask;
use qicc_ir::{BinOp, CastOp, Ty, UnOp};

/// Largest merged constant value (leaves of an ite tree) operators are pushed into.
const LIFT_LEAVES: usize = 16;

fn ir_binop(op: BvBinOp) -> BinOp {
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

/// The concrete value of a bit-vector operator (public for back-ends and tests).
pub fn eval_bv_bin(op: BvBinOp, width: u16, a: u64, b: u64) -> u64 {
    eval_binop(ir_binop(op), Ty::Int(width), a, b)
}

pub fn eval_bv_cmp(op: BvCmpOp, width: u16, a: u64, b: u64) -> bool {
    eval_binop(ir_cmp(op), Ty::Int(width), a, b) != 0
}

pub fn eval_bv_un(op: BvUnOp, width: u16, a: u64) -> u64 {
    let op = match op {
        BvUnOp::Neg => UnOp::Neg,
        BvUnOp::Not => UnOp::Not,
    };
    eval_unop(op, Ty::Int(width), a)
}

impl TermStore {
    /// The constant `value` (cut to `width` bits).
    pub fn bv_const(&mut self, width: u16, value: u64) -> TermId {
        assert!(
            (1..=64).contains(&width),
            "internal error: bit-vector width {width}"
        );
        self.intern(
            Node::BvConst {
                width,
                value: value & mask(width),
            },
            Sort::BitVec(width),
        )
    }

    pub fn bv_un(&mut self, op: BvUnOp, a: TermId) -> TermId {
        let w = self.width(a);
        if let Some(c) = self.as_bv_const(a) {
            let v = eval_bv_un(op, w, c);
            return self.bv_const(w, v);
        }
        if let Node::BvUn(op2, x) = *self.node(a) {
            if op2 == op {
                return x;
            }
        }
        if let Some(r) = self.lift_ite_un(a, |s, k| s.bv_un(op, k)) {
            return r;
        }
        self.intern(Node::BvUn(op, a), Sort::BitVec(w))
    }

    pub fn bv_bin(&mut self, op: BvBinOp, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        assert_eq!(
            w,
            self.width(b),
            "internal error: {op:?} of different widths"
        );
        let m = mask(w);
        let (ca, cb) = (self.as_bv_const(a), self.as_bv_const(b));
        if let (Some(x), Some(y)) = (ca, cb) {
            let v = eval_bv_bin(op, w, x, y);
            return self.bv_const(w, v);
        }
        if op.is_commutative() && (ca.is_some() || (cb.is_none() && a > b)) {
            return self.bv_bin(op, b, a);
        }
        if let Some(r) = self.bv_bin_rules(op, a, b, cb, w, m) {
            return r;
        }
        if let Some(r) = self.lift_ite_bin(a, b, |s, x, y| s.bv_bin(op, x, y)) {
            return r;
        }
        self.intern(Node::BvBin(op, a, b), Sort::BitVec(w))
    }

    /// Rules for a non-constant `a` (after commutative operands were ordered).
    fn bv_bin_rules(
        &mut self,
        op: BvBinOp,
        a: TermId,
        b: TermId,
        cb: Option<u64>,
        w: u16,
        m: u64,
    ) -> Option<TermId> {
        let zero = 0u64;
        match op {
            BvBinOp::Add => {
                let c = cb?;
                if c == zero {
                    return Some(a);
                }
                if let Node::BvBin(BvBinOp::Add, x, k) = *self.node(a) {
                    if let Some(k) = self.as_bv_const(k) {
                        let sum = self.bv_const(w, k.wrapping_add(c));
                        return Some(self.bv_bin(BvBinOp::Add, x, sum));
                    }
                }
                None
            }
            BvBinOp::Sub => {
                if a == b {
                    return Some(self.bv_const(w, 0));
                }
                if let Some(c) = cb {
                    let neg = self.bv_const(w, c.wrapping_neg());
                    return Some(self.bv_bin(BvBinOp::Add, a, neg));
                }
                if self.as_bv_const(a) == Some(0) {
                    return Some(self.bv_un(BvUnOp::Neg, b));
                }
                None
            }
            BvBinOp::Mul => {
                if cb.is_none() {
                    // `(x + k) * y = x*y + k*y` (a ring identity modulo 2^w): the products of
                    // a loop's polynomial invariants meet as one term (`(i + 1)*m` against
                    // `i*m + m`), where two multipliers would leave the SAT solver to prove
                    // them equal.
                    for (s, o) in [(a, b), (b, a)] {
                        if let Node::BvBin(BvBinOp::Add, x, k) = *self.node(s) {
                            if self.as_bv_const(k).is_some() {
                                let xy = self.bv_bin(BvBinOp::Mul, x, o);
                                let ky = self.bv_bin(BvBinOp::Mul, o, k);
                                return Some(self.bv_bin(BvBinOp::Add, xy, ky));
                            }
                        }
                    }
                    return None;
                }
                let c = cb?;
                if c == 0 {
                    return Some(b);
                }
                if c == 1 {
                    return Some(a);
                }
                if let Node::BvBin(BvBinOp::Mul, x, k) = *self.node(a) {
                    if let Some(k) = self.as_bv_const(k) {
                        let p = self.bv_const(w, k.wrapping_mul(c));
                        return Some(self.bv_bin(BvBinOp::Mul, x, p));
                    }
                }
                None
            }
            BvBinOp::UDiv | BvBinOp::SDiv => (cb == Some(1)).then_some(a),
            BvBinOp::URem | BvBinOp::SRem => {
                if cb == Some(1) {
                    Some(self.bv_const(w, 0))
                } else {
                    None
                }
            }
            BvBinOp::Shl | BvBinOp::LShr | BvBinOp::AShr => {
                if self.as_bv_const(a) == Some(0) {
                    return Some(a);
                }
                let c = cb?;
                if c == 0 {
                    return Some(a);
                }
                if c >= w as u64 && op != BvBinOp::AShr {
                    return Some(self.bv_const(w, 0));
                }
                None
            }
            BvBinOp::And => {
                if a == b {
                    return Some(a);
                }
                match cb? {
                    0 => Some(b),
                    c if c == m => Some(a),
                    _ => None,
                }
            }
            BvBinOp::Or => {
                if a == b {
                    return Some(a);
                }
                match cb? {
                    0 => Some(a),
                    c if c == m => Some(b),
                    _ => None,
                }
            }
            BvBinOp::Xor => {
                if a == b {
                    return Some(self.bv_const(w, 0));
                }
                match cb? {
                    0 => Some(a),
                    c if c == m => Some(self.bv_un(BvUnOp::Not, a)),
                    _ => None,
                }
            }
        }
    }

    pub fn bv_cmp(&mut self, op: BvCmpOp, a: TermId, b: TermId) -> TermId {
        let w = self.width(a);
        assert_eq!(
            w,
            self.width(b),
            "internal error: {op:?} of different widths"
        );
        let (ca, cb) = (self.as_bv_const(a), self.as_bv_const(b));
        if let (Some(x), Some(y)) = (ca, cb) {
            return self.bool_const(eval_bv_cmp(op, w, x, y));
        }
        if a == b {
            return self.bool_const(matches!(op, BvCmpOp::Ule | BvCmpOp::Sle));
        }
        let m = mask(w);
        let smin = 1u64 << (w - 1);
        let smax = smin - 1;
        let known = match op {
            BvCmpOp::Ult if cb == Some(0) || ca == Some(m) => Some(false),
            BvCmpOp::Ule if ca == Some(0) || cb == Some(m) => Some(true),
            BvCmpOp::Slt if cb == Some(smin) || ca == Some(smax) => Some(false),
            BvCmpOp::Sle if ca == Some(smin) || cb == Some(smax) => Some(true),
            _ => None,
        };
        if let Some(k) = known.or_else(|| self.cmp_by_range(op, a, b, w)) {
            return self.bool_const(k);
        }
        if let Some(r) = self.lift_ite_bin(a, b, |s, x, y| s.bv_cmp(op, x, y)) {
            return r;
        }
        self.intern(Node::BvCmp(op, a, b), Sort::Bool)
    }

    /// An upper bound of the unsigned value of `t`, from its structure (a remainder by a
    /// constant, a zero extension, a mask, a right shift, constants, ites of those).
    pub fn unsigned_max(&self, t: TermId) -> u64 {
        self.unsigned_max_at(t, 8)
    }

    fn unsigned_max_at(&self, t: TermId, depth: u32) -> u64 {
        let w = self.width(t);
        let top = mask(w);
        if depth == 0 {
            return top;
        }
        match *self.node(t) {
            Node::BvConst { value, .. } => value,
            Node::BvBin(BvBinOp::URem, x, k) => match self.as_bv_const(k) {
                Some(k) if k != 0 => (k - 1).min(self.unsigned_max_at(x, depth - 1)),
                _ => self.unsigned_max_at(x, depth - 1),
            },
            Node::BvBin(BvBinOp::And, x, y) => self
                .unsigned_max_at(x, depth - 1)
                .min(self.unsigned_max_at(y, depth - 1)),
            Node::BvBin(BvBinOp::LShr, x, k) => match self.as_bv_const(k) {
                Some(k) if k < 64 => self.unsigned_max_at(x, depth - 1) >> k,
                _ => top,
            },
            // x / 0 is all ones, so only a non-zero constant divisor bounds the quotient.
            Node::BvBin(BvBinOp::UDiv, x, k) => match self.as_bv_const(k) {
                Some(k) if k != 0 => self.unsigned_max_at(x, depth - 1) / k,
                _ => top,
            },
            Node::ZeroExt { arg, .. } => self.unsigned_max_at(arg, depth - 1),
            Node::Extract { hi, lo: 0, arg } => {
                self.unsigned_max_at(arg, depth - 1).min(mask(hi + 1))
            }
            Node::Ite(_, x, y) => self
                .unsigned_max_at(x, depth - 1)
                .max(self.unsigned_max_at(y, depth - 1)),
            _ => top,
        }
    }

    /// Comparisons decided by a constant and the other side's [`TermStore::unsigned_max`].
    fn cmp_by_range(&self, op: BvCmpOp, a: TermId, b: TermId, w: u16) -> Option<bool> {
        let smin = 1u64 << (w - 1);
        // Signed comparisons of a value known non-negative against a constant.
        let signed = |c: u64, other_max: u64| -> Option<(bool, u64)> {
            (other_max < smin).then_some((c >= smin, c))
        };
        match (op, self.as_bv_const(a), self.as_bv_const(b)) {
            (BvCmpOp::Ult, None, Some(c)) => (self.unsigned_max(a) < c).then_some(true),
            (BvCmpOp::Ule, None, Some(c)) => (self.unsigned_max(a) <= c).then_some(true),
            (BvCmpOp::Ult, Some(c), None) => (c >= self.unsigned_max(b)).then_some(false),
            (BvCmpOp::Ule, Some(c), None) => (c > self.unsigned_max(b)).then_some(false),
            (BvCmpOp::Slt, None, Some(c)) => match signed(c, self.unsigned_max(a))? {
                (true, _) => Some(false),
                (false, c) => (self.unsigned_max(a) < c).then_some(true),
            },
            (BvCmpOp::Sle, None, Some(c)) => match signed(c, self.unsigned_max(a))? {
                (true, _) => Some(false),
                (false, c) => (self.unsigned_max(a) <= c).then_some(true),
            },
            (BvCmpOp::Slt, Some(c), None) => match signed(c, self.unsigned_max(b))? {
                (true, _) => Some(true),
                (false, c) => (c >= self.unsigned_max(b)).then_some(false),
            },
            (BvCmpOp::Sle, Some(c), None) => match signed(c, self.unsigned_max(b))? {
                (true, _) => Some(true),
                (false, c) => (c > self.unsigned_max(b)).then_some(false),
            },
            _ => None,
        }
    }

    /// Bits `hi..=lo` of `a`.
    pub fn extract(&mut self, hi: u16, lo: u16, a: TermId) -> TermId {
        let w = self.width(a);
        assert!(
            lo <= hi && hi < w,
            "internal error: extract {hi}..{lo} of width {w}"
        );
        let rw = hi - lo + 1;
        if lo == 0 && hi == w - 1 {
            return a;
        }
        if let Some(c) = self.as_bv_const(a) {
            return self.bv_const(rw, c >> lo);
        }
        match *self.node(a) {
            Node::Extract { lo: l2, arg, .. } => return self.extract(hi + l2, lo + l2, arg),
            Node::Concat(h, l) => {
                let wl = self.width(l);
                if hi < wl {
                    return self.extract(hi, lo, l);
                }
                if lo >= wl {
                    return self.extract(hi - wl, lo - wl, h);
                }
                let top = self.extract(hi - wl, 0, h);
                let bottom = self.extract(wl - 1, lo, l);
                return self.concat(top, bottom);
            }
            Node::ZeroExt { arg, .. } => {
                let wx = self.width(arg);
                if hi < wx {
                    return self.extract(hi, lo, arg);
                }
                if lo >= wx {
                    return self.bv_const(rw, 0);
                }
                let part = self.extract(wx - 1, lo, arg);
                return self.zero_ext(hi - wx + 1, part);
            }
            Node::SignExt { arg, .. } => {
                let wx = self.width(arg);
                if hi < wx {
                    return self.extract(hi, lo, arg);
                }
                if lo < wx {
                    let part = self.extract(wx - 1, lo, arg);
                    return self.sign_ext(hi - wx + 1, part);
                }
            }
            _ => {}
        }
        if let Some(r) = self.lift_ite_un(a, |s, k| s.extract(hi, lo, k)) {
            return r;
        }
        self.intern(Node::Extract { hi, lo, arg: a }, Sort::BitVec(rw))
    }

    /// `hi`'s bits above `lo`'s (total width at most 64).
    pub fn concat(&mut self, hi: TermId, lo: TermId) -> TermId {
        let (wh, wl) = (self.width(hi), self.width(lo));
        assert!(wh + wl <= 64, "internal error: concat wider than 64 bits");
        let w = wh + wl;
        if let (Some(h), Some(l)) = (self.as_bv_const(hi), self.as_bv_const(lo)) {
            return self.bv_const(w, (h << wl) | l);
        }
        if self.as_bv_const(hi) == Some(0) {
            return self.zero_ext(wh, lo);
        }
        // Adjacent slices of one term: concat(x[h1..l1], x[h2..l2]) with l1 = h2 + 1.
        if let Node::Extract {
            hi: h1,
            lo: l1,
            arg: x,
        } = *self.node(hi)
        {
            match *self.node(lo) {
                Node::Extract {
                    hi: h2,
                    lo: l2,
                    arg: y,
                } if y == x && l1 == h2 + 1 => {
                    return self.extract(h1, l2, x);
                }
                Node::Concat(lh, ll) => {
                    if let Node::Extract { hi: h2, arg: y, .. } = *self.node(lh) {
                        if y == x && l1 == h2 + 1 {
                            let merged = self.concat(hi, lh);
                            return self.concat(merged, ll);
                        }
                    }
                }
                _ => {}
            }
        }
        self.intern(Node::Concat(hi, lo), Sort::BitVec(w))
    }

    pub fn zero_ext(&mut self, by: u16, a: TermId) -> TermId {
        if by == 0 {
            return a;
        }
        let w = self.width(a);
        assert!(w + by <= 64, "internal error: zero_ext past 64 bits");
        if let Some(c) = self.as_bv_const(a) {
            return self.bv_const(w + by, c);
        }
        if let Node::ZeroExt { by: b2, arg } = *self.node(a) {
            return self.zero_ext(by + b2, arg);
        }
        self.intern(Node::ZeroExt { by, arg: a }, Sort::BitVec(w + by))
    }

    pub fn sign_ext(&mut self, by: u16, a: TermId) -> TermId {
        if by == 0 {
            return a;
        }
        let w = self.width(a);
        assert!(w + by <= 64, "internal error: sign_ext past 64 bits");
        if let Some(c) = self.as_bv_const(a) {
            let v = eval_cast(CastOp::Sext, Ty::Int(w), Ty::Int(w + by), c);
            return self.bv_const(w + by, v);
        }
        if let Node::SignExt { by: b2, arg } = *self.node(a) {
            return self.sign_ext(by + b2, arg);
        }
        self.intern(Node::SignExt { by, arg: a }, Sort::BitVec(w + by))
    }

    /// Number of leaves of `t` if it is a tree of `ite`s whose leaves are all constants
    /// (a value merged from a few constant values), up to [`LIFT_LEAVES`].
    fn const_tree_leaves(&self, t: TermId) -> Option<usize> {
        match *self.node(t) {
            Node::BoolConst(_) | Node::BvConst { .. } => Some(1),
            Node::Ite(_, a, b) => {
                let n = self.const_tree_leaves(a)? + self.const_tree_leaves(b)?;
                (n <= LIFT_LEAVES).then_some(n)
            }
            _ => None,
        }
    }

    /// `f` applied at every leaf of a constant-leaf ite tree (`f` of a constant folds).
    fn map_tree(&mut self, t: TermId, f: &dyn Fn(&mut TermStore, TermId) -> TermId) -> TermId {
        match *self.node(t) {
            Node::Ite(c, a, b) => {
                let fa = self.map_tree(a, f);
                let fb = self.map_tree(b, f);
                self.ite(c, fa, fb)
            }
            _ => f(self, t),
        }
    }

    fn is_const_tree(&self, t: TermId) -> bool {
        matches!(self.node(t), Node::Ite(..)) && self.const_tree_leaves(t).is_some()
    }

    /// `f` pushed into the leaves of a constant-leaf ite tree `a`.
    fn lift_ite_un(
        &mut self,
        a: TermId,
        f: impl Fn(&mut TermStore, TermId) -> TermId,
    ) -> Option<TermId> {
        if !self.is_const_tree(a) {
            return None;
        }
        Some(self.map_tree(a, &f))
    }

    /// `f(a, b)` where one operand is a constant-leaf ite tree and the other a constant, or
    /// both are ites with constant branches on the same condition.
    fn lift_ite_bin(
        &mut self,
        a: TermId,
        b: TermId,
        f: impl Fn(&mut TermStore, TermId, TermId) -> TermId,
    ) -> Option<TermId> {
        if self.is_const(b) && self.is_const_tree(a) {
            return Some(self.map_tree(a, &|s, x| f(s, x, b)));
        }
        if self.is_const(a) && self.is_const_tree(b) {
            return Some(self.map_tree(b, &|s, y| f(s, a, y)));
        }
        match (*self.node(a), *self.node(b)) {
            (Node::Ite(c1, x1, y1), Node::Ite(c2, x2, y2))
                if c1 == c2
                    && self.is_const(x1)
                    && self.is_const(y1)
                    && self.is_const(x2)
                    && self.is_const(y2) =>
            {
                let (fx, fy) = (f(self, x1, x2), f(self, y1, y2));
                Some(self.ite(c1, fx, fy))
            }
            _ => None,
        }
    }

    // Convenience constructors.

    pub fn add(&mut self, a: TermId, b: TermId) -> TermId {
        self.bv_bin(BvBinOp::Add, a, b)
    }

    pub fn sub(&mut self, a: TermId, b: TermId) -> TermId {
        self.bv_bin(BvBinOp::Sub, a, b)
    }

    pub fn ult(&mut self, a: TermId, b: TermId) -> TermId {
        self.bv_cmp(BvCmpOp::Ult, a, b)
    }

    pub fn ule(&mut self, a: TermId, b: TermId) -> TermId {
        self.bv_cmp(BvCmpOp::Ule, a, b)
    }

    /// `a + k` for a constant `k` of `a`'s width.
    pub fn add_const(&mut self, a: TermId, k: u64) -> TermId {
        let w = self.width(a);
        let kt = self.bv_const(w, k);
        self.add(a, kt)
    }
}
