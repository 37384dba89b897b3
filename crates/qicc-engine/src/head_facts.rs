//! Head facts: conditions one engine proved at loop heads, shared with engines running beside
//! it while they run.
//!
//! [`HeadFacts`] is the one slot through which a proof about loop heads crosses from one
//! engine to another (the loop-invariant prover fills it when its Houdini finishes; the Qicc
//! gamble reads it each time it starts a region run, so region runs that start after the
//! invariants are known use them and nothing ever waits for them). It lives here, in the
//! engine contract, because engines talk to each other only through this crate's types.
//!
//! Invariant kept by the slot: every condition in it is an expression over the variables of
//! the *original* program it was published for ([`over_original`]): locals of the head's own
//! function (by id, and none named `ghost.`), globals and static objects of that program.
//! A prover that states its conditions over a transformed program (ghost locals holding
//! entry values, a universally quantified cell index) hands in everything it proved and the
//! slot keeps only what still means something in the original; a condition over a ghost
//! would, assumed in the original, constrain a variable that does not exist there.
//!
//! What a publisher promises: each condition holds at every visit of `(func, head)` in every
//! execution of the original program up to its first assertion violation. That is what a
//! reader needs to assume it at a head (for the gamble, see `qicc_gamble::inject`).

use qicc_ir::{Expr, FuncId, Loc, Program, VarRef};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// Conditions proven at loop heads, keyed by (function, head location) of the original
/// program. Cloning shares the slot.
#[derive(Clone, Debug, Default)]
pub struct HeadFacts {
    inner: Arc<RwLock<BTreeMap<(FuncId, Loc), Vec<Expr>>>>,
    /// The prover has published everything it will ([`HeadFacts::finish`]).
    finished: Arc<AtomicBool>,
}

impl HeadFacts {
    /// An empty slot.
    pub fn new() -> HeadFacts {
        HeadFacts::default()
    }

    /// Adds the conditions proven at `head` of `func` that are over `original`'s variables
    /// (the others are left out, see the module docs); returns how many were kept.
    pub fn publish(
        &self,
        original: &Program,
        func: FuncId,
        head: Loc,
        conds: impl IntoIterator<Item = Expr>,
    ) -> usize {
        let Some(f) = original.functions.get(func.index()) else {
            return 0;
        };
        if head.0 >= f.num_locs {
            return 0;
        }
        let kept: Vec<Expr> = conds
            .into_iter()
            .filter(|e| over_original(original, func, e))
            .collect();
        let n = kept.len();
        if n > 0 {
            // A poisoned lock means a reader panicked; the map itself is always whole.
            let mut map = self.inner.write().unwrap_or_else(|e| e.into_inner());
            let at = map.entry((func, head)).or_default();
            for e in kept {
                if !at.contains(&e) {
                    at.push(e);
                }
            }
        }
        n
    }

    /// The conditions known at `head` of `func` now (empty while nothing was published).
    pub fn at(&self, func: FuncId, head: Loc) -> Vec<Expr> {
        let map = self.inner.read().unwrap_or_else(|e| e.into_inner());
        map.get(&(func, head)).cloned().unwrap_or_default()
    }

    /// Marks that the prover has published all it will (it may go on with other work, such as
    /// k-induction): a finder that left it the CPU can start.
    pub fn finish(&self) {
        self.finished.store(true, Ordering::Release);
    }

    /// Whether [`HeadFacts::finish`] was called.
    pub fn is_finished(&self) -> bool {
        self.finished.load(Ordering::Acquire)
    }

    /// Whether nothing was published yet.
    pub fn is_empty(&self) -> bool {
        let map = self.inner.read().unwrap_or_else(|e| e.into_inner());
        map.is_empty()
    }
}

/// Whether `e` is an expression over `original`'s variables as seen from `func`: every local
/// it reads is a local of `func` in `original` whose name does not start with `ghost.`, every
/// global and static object exists in `original`.
pub fn over_original(original: &Program, func: FuncId, e: &Expr) -> bool {
    let Some(f) = original.functions.get(func.index()) else {
        return false;
    };
    let mut ok = true;
    e.visit(&mut |x| match x {
        Expr::Var(VarRef::Local(l)) => {
            ok &= f
                .locals
                .get(l.index())
                .is_some_and(|local| !local.name.starts_with("ghost."))
        }
        Expr::Var(VarRef::Global(g)) => ok &= g.index() < original.globals.len(),
        // Object `i` is `objects[i - 1]`; 0 is null.
        Expr::ObjAddr(o) => ok &= (o.0 as usize) <= original.objects.len(),
        _ => {}
    });
    ok
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::{BinOp, LocalId};

    fn program() -> Program {
        qicc_ir::parse_program(
            "qicc-ir 1\n\
             data-model ilp32 object-bits 8\n\
             file 0 \"t.c\"\n\
             global $g: i32 = 0:i32\n\
             entry @main\n\
             fn @main() !0:1:1 {\n\
             \x20 local %x: i32\n\
             \x20 local %ghost.L3.x: i32\n\
             \x20 locs 4 entry L0 exit L1 err L2 halt L3\n\
             \x20 L0 -> L1: %x := 1:i32\n\
             }\n",
        )
        .expect("the test program parses")
    }

    fn eq(a: Expr, b: Expr) -> Expr {
        Expr::binary(BinOp::Eq, a, b)
    }

    #[test]
    fn keeps_conditions_over_the_original_and_drops_ghosts() {
        let p = program();
        let slot = HeadFacts::new();
        let x = Expr::local(LocalId(0));
        let ghost = Expr::local(LocalId(1));
        let beyond = Expr::local(LocalId(2));
        let g = Expr::global(qicc_ir::GlobalId(0));
        let no_global = Expr::global(qicc_ir::GlobalId(1));
        let kept = slot.publish(
            &p,
            FuncId(0),
            Loc(0),
            [
                eq(x.clone(), g.clone()),
                eq(x.clone(), ghost),
                eq(x.clone(), beyond),
                eq(x.clone(), no_global),
            ],
        );
        assert_eq!(kept, 1);
        assert_eq!(slot.at(FuncId(0), Loc(0)), vec![eq(x, g)]);
        assert!(slot.at(FuncId(0), Loc(1)).is_empty());
    }

    #[test]
    fn a_clone_shares_the_slot_and_unknown_heads_are_refused() {
        let p = program();
        let slot = HeadFacts::new();
        let reader = slot.clone();
        assert!(reader.is_empty());
        let x = Expr::local(LocalId(0));
        assert_eq!(slot.publish(&p, FuncId(1), Loc(0), [x.clone()]), 0);
        assert_eq!(slot.publish(&p, FuncId(0), Loc(9), [x.clone()]), 0);
        assert!(reader.is_empty());
        assert_eq!(
            slot.publish(&p, FuncId(0), Loc(0), [x.clone(), x.clone()]),
            2
        );
        assert_eq!(reader.at(FuncId(0), Loc(0)), vec![x]);
    }

    #[test]
    fn finishing_is_seen_through_every_clone() {
        let slot = HeadFacts::new();
        let reader = slot.clone();
        assert!(!reader.is_finished());
        slot.finish();
        assert!(reader.is_finished() && slot.is_finished());
        assert!(
            !HeadFacts::new().is_finished(),
            "a new slot is not finished"
        );
    }
}
