//! The term store: hash-consed storage of [`Node`]s, their sorts, symbol names, and the
//! generic rebuilding helpers (substitution, traversal).
//!
//! Invariants: every stored node is well-sorted and is in *simplified* form — it was built by
//! one of the simplifying constructors (`build_*` modules), never interned raw from outside
//! this crate; a node is stored at most once, so structurally equal terms have equal ids.
//! Ids are dense and children always have smaller ids than their parents.

use crate::term::{Node, Sort, TermId};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// New terms between two looks at the stop flag (a look is one atomic load).
const STOP_POLL_PERIOD: u32 = 1024;

/// Raised by unwinding out of term construction once the store's stop flag is set (see
/// [`TermStore::set_stop_flag`]); [`catch_stop`] turns it back into a value. One `select`
/// through deeply merged memory can build millions of terms, so budget checks between
/// symbolic-execution steps alone would let a deadline pass by seconds. This is the
/// cancellation pattern of rust-analyzer's `Cancelled`: unwinding without the panic hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stopped;

/// Runs `f`; `Err(Stopped)` if a store it built terms in was stopped meanwhile. Any other
/// panic goes on unwinding. The store stays consistent: the flag is only looked at before a
/// new term is added, and caches are filled only with finished results.
pub fn catch_stop<R>(f: impl FnOnce() -> R) -> Result<R, Stopped> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => Ok(r),
        Err(payload) => match payload.downcast::<Stopped>() {
            Ok(_) => Err(Stopped),
            Err(other) => resume_unwind(other),
        },
    }
}

/// A small, fast, non-cryptographic hasher (the rustc "Fx" hash): term nodes are a few
/// integers, and SipHash would dominate symbolic execution time.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher {
    hash: u64,
}

const FX_SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u16(&mut self, i: u16) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.hash = (self.hash.rotate_left(5) ^ i).wrapping_mul(FX_SEED);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;
pub(crate) type FxMap<K, V> = HashMap<K, V, FxBuild>;

/// Which lambda-bound variables occur free in a term (a conservative summary: substitution
/// only descends into terms that may contain the variable it replaces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Free {
    None,
    One(u32),
    Many,
}

impl Free {
    fn join(self, other: Free) -> Free {
        match (self, other) {
            (Free::None, x) | (x, Free::None) => x,
            (Free::One(a), Free::One(b)) if a == b => Free::One(a),
            _ => Free::Many,
        }
    }

    fn may_contain(self, index: u32) -> bool {
        match self {
            Free::None => false,
            Free::One(i) => i == index,
            Free::Many => true,
        }
    }
}

/// What [`TermStore::truncate`] goes back to.
pub struct StoreMark {
    terms: usize,
    names: usize,
    used_names: HashMap<String, u32>,
    next_bound: u32,
}

/// The hash-consed, simplifying term DAG. See the crate docs for the simplifications.
pub struct TermStore {
    nodes: Vec<Node>,
    sorts: Vec<Sort>,
    free: Vec<Free>,
    index: FxMap<Node, TermId>,
    /// Symbol names, indexed by `Node::Symbol::name`.
    names: Vec<String>,
    /// (requested name, sort) → symbol term.
    symbols: HashMap<(String, Sort), TermId>,
    used_names: HashMap<String, u32>,
    next_bound: u32,
    /// Results of `select(array, index)`, which walks store chains.
    pub(crate) select_cache: FxMap<(TermId, TermId), TermId>,
    tt: TermId,
    ff: TermId,
    stop: Option<Arc<AtomicBool>>,
    /// New terms since the stop flag was last looked at.
    since_poll: u32,
}

impl Default for TermStore {
    fn default() -> Self {
        TermStore::new()
    }
}

impl TermStore {
    pub fn new() -> TermStore {
        let mut s = TermStore {
            nodes: Vec::new(),
            sorts: Vec::new(),
            free: Vec::new(),
            index: FxMap::default(),
            names: Vec::new(),
            symbols: HashMap::new(),
            used_names: HashMap::new(),
            next_bound: 0,
            select_cache: FxMap::default(),
            tt: TermId(0),
            ff: TermId(0),
            stop: None,
            since_poll: 0,
        };
        s.tt = s.intern(Node::BoolConst(true), Sort::Bool);
        s.ff = s.intern(Node::BoolConst(false), Sort::Bool);
        s
    }

    /// From now on, adding a term while `flag` is set unwinds with [`Stopped`] (to be caught
    /// by [`catch_stop`]); `None` turns this off.
    pub fn set_stop_flag(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.stop = flag;
    }

    /// Number of distinct terms stored.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The store as it is now, for [`TermStore::truncate`].
    pub fn mark(&self) -> StoreMark {
        StoreMark {
            terms: self.nodes.len(),
            names: self.names.len(),
            used_names: self.used_names.clone(),
            next_bound: self.next_bound,
        }
    }

    /// Forgets every term made since `mark`, as if it had never been made (the same terms
    /// made again get the same ids and the same symbol names): a symbolic execution that
    /// outgrew its limit gives its terms back before a smaller one is tried. The caller
    /// guarantees that no term made since is still held anywhere (a solver's translation
    /// included: symbolic execution makes terms without solving, so the terms made since a
    /// mark taken before it are only in its own result, which the error dropped). Linear in
    /// the store's size.
    pub fn truncate(&mut self, mark: StoreMark) {
        let StoreMark {
            terms: mark,
            names,
            used_names,
            next_bound,
        } = mark;
        if mark >= self.nodes.len() {
            return;
        }
        self.names.truncate(names);
        self.used_names = used_names;
        self.next_bound = next_bound;
        let gone = |t: &TermId| t.index() >= mark;
        self.nodes.truncate(mark);
        self.sorts.truncate(mark);
        self.free.truncate(mark);
        self.index.retain(|_, t| !gone(t));
        self.symbols.retain(|_, t| !gone(t));
        self.select_cache
            .retain(|(a, i), t| !gone(a) && !gone(i) && !gone(t));
    }

    pub fn node(&self, t: TermId) -> &Node {
        &self.nodes[t.index()]
    }

    pub fn sort(&self, t: TermId) -> Sort {
        self.sorts[t.index()]
    }

    /// The width of a bit-vector term (panics on other sorts: an engine bug).
    pub fn width(&self, t: TermId) -> u16 {
        match self.sort(t) {
            Sort::BitVec(w) => w,
            s => panic!("internal error: width of a term of sort {s}"),
        }
    }

    pub(crate) fn free_vars(&self, t: TermId) -> Free {
        self.free[t.index()]
    }

    /// Stores `node` (already simplified, well-sorted) and returns its id.
    pub(crate) fn intern(&mut self, node: Node, sort: Sort) -> TermId {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        self.poll_stop();
        let free = match node {
            Node::Bound { index, .. } => Free::One(index),
            Node::Lambda { var, body } => match (self.node(var), self.free_vars(body)) {
                (Node::Bound { index, .. }, Free::One(i)) if *index == i => Free::None,
                (_, f) => f,
            },
            _ => {
                let mut f = Free::None;
                node.for_each_child(|c| f = f.join(self.free[c.index()]));
                f
            }
        };
        let id = TermId(u32::try_from(self.nodes.len()).expect("fewer than 2^32 terms"));
        self.nodes.push(node);
        self.sorts.push(sort);
        self.free.push(free);
        self.index.insert(node, id);
        id
    }

    /// Unwinds with [`Stopped`] if the stop flag is set (looked at every
    /// [`STOP_POLL_PERIOD`] new terms). Runs before `intern` changes anything.
    fn poll_stop(&mut self) {
        self.since_poll += 1;
        if self.since_poll < STOP_POLL_PERIOD {
            return;
        }
        self.since_poll = 0;
        if self
            .stop
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
        {
            resume_unwind(Box::new(Stopped));
        }
    }

    pub fn tt(&self) -> TermId {
        self.tt
    }

    pub fn ff(&self) -> TermId {
        self.ff
    }

    pub fn bool_const(&self, b: bool) -> TermId {
        if b {
            self.tt
        } else {
            self.ff
        }
    }

    pub fn as_bool_const(&self, t: TermId) -> Option<bool> {
        match self.node(t) {
            Node::BoolConst(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_bv_const(&self, t: TermId) -> Option<u64> {
        match self.node(t) {
            Node::BvConst { value, .. } => Some(*value),
            _ => None,
        }
    }

    pub fn is_const(&self, t: TermId) -> bool {
        matches!(self.node(t), Node::BoolConst(_) | Node::BvConst { .. })
    }

    /// The free constant named `name` of the given sort, created on first use. The same
    /// (name, sort) always gives the same term; a name already used with another sort gets a
    /// suffix, so names stay unique.
    pub fn symbol(&mut self, name: &str, sort: Sort) -> TermId {
        if let Some(&t) = self.symbols.get(&(name.to_string(), sort)) {
            return t;
        }
        check_sort(sort);
        let mut unique = sanitize(name);
        let n = self.used_names.entry(unique.clone()).or_insert(0);
        *n += 1;
        if *n > 1 {
            unique = format!("{unique}~{}", *n - 1);
            self.used_names.insert(unique.clone(), 1);
        }
        let idx = u32::try_from(self.names.len()).expect("fewer than 2^32 symbols");
        self.names.push(unique);
        let t = self.intern(Node::Symbol { name: idx, sort }, sort);
        self.symbols.insert((name.to_string(), sort), t);
        t
    }

    /// The name of a symbol term.
    pub fn symbol_name(&self, t: TermId) -> Option<&str> {
        match self.node(t) {
            Node::Symbol { name, .. } => self.names.get(*name as usize).map(String::as_str),
            _ => None,
        }
    }

    /// A fresh variable for [`TermStore::lambda`].
    pub fn bound_var(&mut self, sort: Sort) -> TermId {
        check_sort(sort);
        let index = self.next_bound;
        self.next_bound += 1;
        self.intern(Node::Bound { index, sort }, sort)
    }

    /// Rebuilds `node` through the simplifying constructors (children must be terms of this
    /// store; `Symbol` and `Bound` nodes are returned as stored).
    pub fn mk(&mut self, node: &Node) -> TermId {
        match *node {
            Node::BoolConst(b) => self.bool_const(b),
            Node::BvConst { width, value } => self.bv_const(width, value),
            Node::Symbol { sort, .. } | Node::Bound { sort, .. } => self.intern(*node, sort),
            Node::Not(a) => self.not(a),
            Node::And(a, b) => self.and(a, b),
            Node::Or(a, b) => self.or(a, b),
            Node::Xor(a, b) => self.xor(a, b),
            Node::Eq(a, b) => self.eq(a, b),
            Node::Ite(c, a, b) => self.ite(c, a, b),
            Node::BvUn(op, a) => self.bv_un(op, a),
            Node::BvBin(op, a, b) => self.bv_bin(op, a, b),
            Node::BvCmp(op, a, b) => self.bv_cmp(op, a, b),
            Node::Extract { hi, lo, arg } => self.extract(hi, lo, arg),
            Node::Concat(a, b) => self.concat(a, b),
            Node::ZeroExt { by, arg } => self.zero_ext(by, arg),
            Node::SignExt { by, arg } => self.sign_ext(by, arg),
            Node::Select(a, i) => self.select(a, i),
            Node::Store(a, i, v) => self.store(a, i, v),
            Node::ConstArray { index, value } => self.const_array(index, value),
            Node::Lambda { var, body } => self.lambda(var, body),
            Node::Fp1(op, a) => self.fp(op, &[a]),
            Node::Fp2(op, a, b) => self.fp(op, &[a, b]),
            Node::Fp3(op, a, b, c) => self.fp(op, &[a, b, c]),
        }
    }

    /// `t` with the bound variable `var` replaced by `value` (same sort), simplified.
    pub fn substitute(&mut self, t: TermId, var: TermId, value: TermId) -> TermId {
        let index = match self.node(var) {
            Node::Bound { index, .. } => *index,
            _ => panic!("internal error: substitute of a term that is not a bound variable"),
        };
        assert_eq!(
            self.sort(var),
            self.sort(value),
            "substitution changes a sort"
        );
        let mut memo: FxMap<TermId, TermId> = FxMap::default();
        self.subst_rec(t, index, var, value, &mut memo)
    }

    fn subst_rec(
        &mut self,
        t: TermId,
        index: u32,
        var: TermId,
        value: TermId,
        memo: &mut FxMap<TermId, TermId>,
    ) -> TermId {
        if t == var {
            return value;
        }
        if !self.free_vars(t).may_contain(index) {
            return t;
        }
        if let Some(&r) = memo.get(&t) {
            return r;
        }
        let node = *self.node(t);
        if let Node::Lambda { var: v, .. } = node {
            if v == var {
                // `var` is rebound here: no free occurrence below.
                return t;
            }
        }
        let rebuilt = node.map_children(|c| self.subst_rec(c, index, var, value, memo));
        let r = self.mk(&rebuilt);
        memo.insert(t, r);
        r
    }

    /// Every term reachable from `roots`, children before parents, each once. Iterative: the
    /// DAGs of long unrollings are far deeper than the thread stack.
    pub fn postorder(&self, roots: &[TermId], mut visit: impl FnMut(TermId)) {
        let mut seen = vec![false; self.nodes.len()];
        let mut stack: Vec<(TermId, bool)> = roots.iter().rev().map(|&r| (r, false)).collect();
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                visit(t);
                continue;
            }
            if seen[t.index()] {
                continue;
            }
            seen[t.index()] = true;
            stack.push((t, true));
            let mut kids = Vec::with_capacity(3);
            self.node(t).for_each_child(|c| kids.push(c));
            for c in kids.into_iter().rev() {
                if !seen[c.index()] {
                    stack.push((c, false));
                }
            }
        }
    }
}

fn check_sort(sort: Sort) {
    let ok = match sort {
        Sort::Bool => true,
        Sort::BitVec(w) => (1..=64).contains(&w),
        Sort::Array { index, elem } => (1..=64).contains(&index) && (1..=64).contains(&elem),
    };
    assert!(ok, "internal error: unsupported sort {sort}");
}

/// Symbol names are printed as SMT-LIB quoted symbols, which may not contain `|` or `\`.
fn sanitize(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c == '|' || c == '\\' || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .collect();
    if s.is_empty() {
        "_".to_string()
    } else {
        s
    }
}
