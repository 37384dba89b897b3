//! Simplifying constructors of array terms: select, store, constant arrays and lambdas.
//!
//! `select` resolves reads as far as syntax allows (read-over-write): through a store at the
//! same index (its value), past stores at provably different indices (two constants, or the
//! same base plus different constant offsets), into both branches of an array `ite`, into a
//! constant array (its value) and into a lambda (beta reduction). What remains is a `select`
//! over the first store it could not decide, for the solver's array theory. Results are
//! cached per (array, index): a symbolic execution asks for the same cell many times.

use crate::store::TermStore;
use crate::term::{BvBinOp, Node, Sort, TermId};

/// Longest store chain a symbolic read is expanded through (see `select_as_ite`).
const ITE_EXPANSION_LIMIT: usize = 64;

impl TermStore {
    /// The array mapping every index of width `index_width` to `value` (a bit-vector).
    pub fn const_array(&mut self, index_width: u16, value: TermId) -> TermId {
        let elem = self.width(value);
        self.intern(
            Node::ConstArray {
                index: index_width,
                value,
            },
            Sort::Array {
                index: index_width,
                elem,
            },
        )
    }

    /// The array whose element at each index `var` is `body`; `var` comes from
    /// [`TermStore::bound_var`] and must not be used in any other lambda.
    pub fn lambda(&mut self, var: TermId, body: TermId) -> TermId {
        let Node::Bound { sort, .. } = *self.node(var) else {
            panic!("internal error: lambda over a term that is not a bound variable");
        };
        let index = sort
            .bv_width()
            .expect("bound variables of lambdas are bit-vectors");
        let elem = self.width(body);
        // lambda x. select(a, x) is a itself (eta).
        if let Node::Select(a, i) = *self.node(body) {
            if i == var && !self.free_vars(a).may_contain_var(self, var) {
                return a;
            }
        }
        self.intern(Node::Lambda { var, body }, Sort::Array { index, elem })
    }

    pub fn store(&mut self, array: TermId, index: TermId, value: TermId) -> TermId {
        let sort = self.sort(array);
        let Sort::Array { index: iw, elem } = sort else {
            panic!("internal error: store into a term of sort {sort}");
        };
        assert_eq!(self.sort(index), Sort::BitVec(iw), "store index sort");
        assert_eq!(self.sort(value), Sort::BitVec(elem), "store value sort");
        // A store at the same index as the one below it hides it.
        if let Node::Store(below, i, _) = *self.node(array) {
            if i == index {
                return self.store(below, index, value);
            }
        }
        self.intern(Node::Store(array, index, value), sort)
    }

    pub fn select(&mut self, array: TermId, index: TermId) -> TermId {
        if let Some(&r) = self.select_cache.get(&(array, index)) {
            return r;
        }
        let r = self.select_uncached(array, index);
        self.select_cache.insert((array, index), r);
        r
    }

    fn select_uncached(&mut self, array: TermId, index: TermId) -> TermId {
        let sort = self.sort(array);
        let Sort::Array { index: iw, elem } = sort else {
            panic!("internal error: select from a term of sort {sort}");
        };
        assert_eq!(self.sort(index), Sort::BitVec(iw), "select index sort");
        let mut a = array;
        loop {
            match *self.node(a) {
                Node::Store(below, i, v) => {
                    if i == index {
                        return v;
                    }
                    if self.distinct_indices(i, index) {
                        a = below;
                        if let Some(&r) = self.select_cache.get(&(a, index)) {
                            return r;
                        }
                        continue;
                    }
                    if let Some(r) = self.select_as_ite(a, index) {
                        return r;
                    }
                    break;
                }
                Node::ConstArray { value, .. } => return value,
                Node::Ite(c, x, y) => {
                    let sx = self.select(x, index);
                    let sy = self.select(y, index);
                    return self.ite(c, sx, sy);
                }
                Node::Lambda { var, body } => return self.substitute(body, var, index),
                _ => break,
            }
        }
        self.intern(Node::Select(a, index), Sort::BitVec(elem))
    }

    /// A read through a short store chain as `ite(i_k = index, v_k, ...)` down to a base the
    /// read resolves in (constant array, lambda, array ite, symbol). Keeps small tables such
    /// as the object table out of the solver's array theory; `None` for long chains, which
    /// stay arrays (the expansion would be quadratic in reads × writes).
    fn select_as_ite(&mut self, array: TermId, index: TermId) -> Option<TermId> {
        let mut writes = Vec::new();
        let mut a = array;
        loop {
            match *self.node(a) {
                Node::Store(below, i, v) => {
                    if writes.len() >= ITE_EXPANSION_LIMIT {
                        return None;
                    }
                    if i == index {
                        return Some(self.ite_chain(&writes, index, v));
                    }
                    if !self.distinct_indices(i, index) {
                        writes.push((i, v));
                    }
                    a = below;
                }
                Node::ConstArray { .. }
                | Node::Lambda { .. }
                | Node::Ite(..)
                | Node::Symbol { .. } => {
                    let base = self.select(a, index);
                    return Some(self.ite_chain(&writes, index, base));
                }
                _ => return None,
            }
        }
    }

    /// `ite(i_0 = index, v_0, ite(i_1 = index, v_1, ... base))`, `writes` newest first.
    fn ite_chain(&mut self, writes: &[(TermId, TermId)], index: TermId, base: TermId) -> TermId {
        let mut r = base;
        for &(i, v) in writes.iter().rev() {
            let hit = self.eq(i, index);
            r = self.ite(hit, v, r);
        }
        r
    }

    /// Whether two index terms can never be equal: different constants, or the same base
    /// with different constant offsets.
    pub fn distinct_indices(&self, i: TermId, j: TermId) -> bool {
        let (bi, ki) = self.base_offset(i);
        let (bj, kj) = self.base_offset(j);
        bi == bj && ki != kj
    }

    /// `t` as `base + k` (base `None` for a constant).
    fn base_offset(&self, t: TermId) -> (Option<TermId>, u64) {
        match *self.node(t) {
            Node::BvConst { value, .. } => (None, value),
            Node::BvBin(BvBinOp::Add, x, k) => match self.as_bv_const(k) {
                Some(k) => (Some(x), k),
                None => (Some(t), 0),
            },
            _ => (Some(t), 0),
        }
    }
}

impl crate::store::Free {
    /// Whether the bound variable `var` may occur free in a term with this summary.
    pub(crate) fn may_contain_var(self, store: &TermStore, var: TermId) -> bool {
        match store.node(var) {
            Node::Bound { index, .. } => match self {
                crate::store::Free::None => false,
                crate::store::Free::One(i) => i == *index,
                crate::store::Free::Many => true,
            },
            _ => true,
        }
    }
}
