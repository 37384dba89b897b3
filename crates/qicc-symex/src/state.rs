//! Symbolic states and how two of them are merged at a join point.
//!
//! A state is the value of everything an execution can observe, as terms: the locals of the
//! current call, the globals, memory and the object table, the next free object number, the
//! loop counters of the location's enclosing loops, and the *guard* — the condition under
//! which an execution is in this state. Guards are left-nested conjunction chains
//! `and(and(prefix, c1), c2)` (symex only ever extends a guard with `and(guard, cond)`).
//!
//! Merging two states with guards `g1 = P ∧ r1` and `g2 = P ∧ r2` (P their longest common
//! chain prefix) gives guard `P ∧ (r1 ∨ r2)` and values `ite(r1, v1, v2)`. This is sound
//! because the two states' guards are exclusive (every branching in symex is exclusive), so
//! under the merged guard exactly one of `r1`, `r2` holds; when the branches were `c` and
//! `¬c` the guard folds back to `P`.

use crate::trace::StepId;
use qicc_smt::{Node, TermId, TermStore};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct State {
    pub guard: TermId,
    pub locals: Vec<TermId>,
    pub globals: Vec<TermId>,
    pub mem: TermId,
    pub live: TermId,
    pub size: TermId,
    /// The next object number an `alloc` gets on this path (`object-bits + 1` wide, so that
    /// "out of numbers" is representable): a term, because two paths that allocated a
    /// different number of objects merge into `ite` (`qicc_ir::memory`: the lowest number never
    /// used in the run), and `havoc_memory` makes it arbitrary.
    pub next_obj: TermId,
    /// `next_obj` at the start of the run or right after the last `havoc_memory`: the
    /// allocations since then are `next_obj - alloc_base`.
    pub alloc_base: TermId,
    /// No `nowrap` condition failed on the way here (no signed overflow): lets the engine
    /// ask for a counterexample that C defines when its first one overflows.
    pub clean: TermId,
    /// Back-edge counts of the enclosing loops of the state's location, outermost first.
    pub counters: Vec<u32>,
    /// The trace steps that lead into this state.
    pub from: Vec<StepId>,
}

/// Depths of guard chains (cached: chains of long unrollings are thousands deep).
#[derive(Default)]
pub struct Guards {
    depth: HashMap<TermId, u32>,
}

impl Guards {
    fn split(s: &TermStore, g: TermId) -> Option<(TermId, TermId)> {
        match *s.node(g) {
            Node::And(p, c) => Some((p, c)),
            _ => None,
        }
    }

    /// Number of conditions on the chain (`true`: 0, a non-`and` term: 1).
    pub fn depth(&mut self, s: &TermStore, g: TermId) -> u32 {
        if let Some(&d) = self.depth.get(&g) {
            return d;
        }
        let mut chain = Vec::new();
        let mut t = g;
        let base = loop {
            if let Some(&d) = self.depth.get(&t) {
                break d;
            }
            match Guards::split(s, t) {
                Some((p, _)) => {
                    chain.push(t);
                    t = p;
                }
                None => {
                    let d = if t == s.tt() { 0 } else { 1 };
                    self.depth.insert(t, d);
                    break d;
                }
            }
        };
        let mut d = base;
        for t in chain.into_iter().rev() {
            d += 1;
            self.depth.insert(t, d);
        }
        d
    }

    /// `(P, r1, r2)` with `g1 = P ∧ r1`, `g2 = P ∧ r2`, `P` the longest common chain prefix.
    pub fn factor(
        &mut self,
        s: &mut TermStore,
        g1: TermId,
        g2: TermId,
    ) -> (TermId, TermId, TermId) {
        let (mut a, mut b) = (g1, g2);
        let (mut ra, mut rb) = (Vec::new(), Vec::new());
        let (mut da, mut db) = (self.depth(s, a), self.depth(s, b));
        while a != b {
            if da >= db {
                let (p, c) = Guards::split(s, a).unwrap_or((s.tt(), a));
                ra.push(c);
                a = p;
                da = da.saturating_sub(1);
            } else {
                let (p, c) = Guards::split(s, b).unwrap_or((s.tt(), b));
                rb.push(c);
                b = p;
                db = db.saturating_sub(1);
            }
        }
        let mut r1 = s.tt();
        for c in ra.into_iter().rev() {
            r1 = s.and(r1, c);
        }
        let mut r2 = s.tt();
        for c in rb.into_iter().rev() {
            r2 = s.and(r2, c);
        }
        (a, r1, r2)
    }

    /// Merges `b` into `a` (same location, same loop counters).
    pub fn merge(&mut self, s: &mut TermStore, a: State, b: State) -> State {
        let (p, r1, r2) = self.factor(s, a.guard, b.guard);
        let either = s.or(r1, r2);
        let guard = s.and(p, either);
        let pick = |s: &mut TermStore, x: TermId, y: TermId| {
            if x == y {
                x
            } else {
                s.ite(r1, x, y)
            }
        };
        let locals = a
            .locals
            .iter()
            .zip(&b.locals)
            .map(|(&x, &y)| pick(s, x, y))
            .collect();
        let globals = a
            .globals
            .iter()
            .zip(&b.globals)
            .map(|(&x, &y)| pick(s, x, y))
            .collect();
        let mut from = a.from;
        from.extend(b.from);
        State {
            guard,
            locals,
            globals,
            mem: pick(s, a.mem, b.mem),
            live: pick(s, a.live, b.live),
            size: pick(s, a.size, b.size),
            next_obj: pick(s, a.next_obj, b.next_obj),
            alloc_base: pick(s, a.alloc_base, b.alloc_base),
            clean: pick(s, a.clean, b.clean),
            counters: a.counters,
            from,
        }
    }
}
