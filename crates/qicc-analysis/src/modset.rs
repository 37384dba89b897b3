//! What a call may change — the mod-set of each function, through the functions it calls —
//! and what it may depend on (the globals it reads, whether it touches memory at all).
//!
//! A call's default summary (Corral, Sec. 2) havocs exactly this and keeps everything else, so
//! the mod-set must over-approximate: every global some edge of the function or of a function
//! it may call (transitively) defines, and which parts of the memory state some such edge
//! changes. Locals of the caller are never changed by a call (their objects are, through
//! memory, which `memory` covers).

use qicc_ir::{Expr, FuncId, GlobalId, Op, Program, VarRef};
use std::collections::BTreeSet;

/// What one call of a function may change (and, for calls evaluated concretely, what it may
/// read).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModSet {
    /// Globals it may assign or havoc.
    pub globals: BTreeSet<GlobalId>,
    /// Whether it may write memory contents (`store`, `memcpy`, `memset`, `havoc_bytes`,
    /// `havoc_memory`).
    pub memory: bool,
    /// Whether it may change the object table (`alloc`, `free`, `havoc_memory`).
    pub objects: bool,
    /// Whether it may run `havoc_memory` (which also resets the allocation base).
    pub havoc_memory: bool,
    /// Globals some expression or operation of it may read.
    pub reads: BTreeSet<GlobalId>,
    /// Whether it may read or change memory or the object table in any way (`load`,
    /// `valid`, every memory operation): when not, the result of a call is a function of its
    /// arguments, the globals in `reads` and the nondeterministic choices it makes.
    pub touches_memory: bool,
}

impl ModSet {
    fn join(&mut self, o: &ModSet) -> bool {
        let before = self.clone();
        self.globals.extend(o.globals.iter().copied());
        self.memory |= o.memory;
        self.objects |= o.objects;
        self.havoc_memory |= o.havoc_memory;
        self.reads.extend(o.reads.iter().copied());
        self.touches_memory |= o.touches_memory;
        before != *self
    }
}

/// The mod-set of every function of `p`, by function id (a fixpoint over the call graph, so
/// recursion is covered).
pub fn mod_sets(p: &Program) -> Vec<ModSet> {
    let mut own: Vec<ModSet> = p
        .functions
        .iter()
        .map(|f| {
            let mut m = ModSet::default();
            for e in &f.edges {
                if let Some(VarRef::Global(g)) = e.op.def() {
                    m.globals.insert(g);
                }
                e.op.exprs(&mut |x| {
                    x.visit(&mut |x| match x {
                        Expr::Var(VarRef::Global(g)) => {
                            m.reads.insert(*g);
                        }
                        Expr::Load(..) | Expr::Valid(..) => m.touches_memory = true,
                        _ => {}
                    })
                });
                m.touches_memory |= e.op.writes_memory();
                match &e.op {
                    Op::Store { .. }
                    | Op::MemCopy { .. }
                    | Op::MemSet { .. }
                    | Op::HavocBytes { .. } => m.memory = true,
                    Op::Alloc { .. } | Op::Free(_) => m.objects = true,
                    Op::HavocContents => m.memory = true,
                    Op::HavocMemory => {
                        m.memory = true;
                        m.objects = true;
                        m.havoc_memory = true;
                    }
                    _ => {}
                }
            }
            m
        })
        .collect();
    let callees: Vec<Vec<FuncId>> = p.functions.iter().map(|f| f.callees()).collect();
    let mut changed = true;
    while changed {
        changed = false;
        for (i, cs) in callees.iter().enumerate() {
            for c in cs {
                if c.index() == i {
                    continue;
                }
                let theirs = own[c.index()].clone();
                changed |= own[i].join(&theirs);
            }
        }
    }
    own
}

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_ir::parse_program;

    #[test]
    fn through_calls_and_recursion() {
        let p = parse_program(
            "data-model ilp32
global $a: i32
global $b: i32
entry @main
fn @main() {
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: call @f()
  L4 -> L1: skip
}
fn @f() {
  local %p: i32
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: $a := 1:i32
  L4 -> L5: call @g()
  L5 -> L1: skip
}
fn @g() {
  local %p: i32
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %p := alloc.heap(4:i32)
  L4 -> L5: call @f()
  L5 -> L1: store.i32 %p, 0:i32
}
",
        )
        .expect("parses");
        let m = mod_sets(&p);
        let a = GlobalId(0);
        let main = &m[p.find_function("main").expect("main").index()];
        let f = &m[p.find_function("f").expect("f").index()];
        let g = &m[p.find_function("g").expect("g").index()];
        for x in [main, f, g] {
            assert_eq!(x.globals, BTreeSet::from([a]));
            assert!(x.memory && x.objects && !x.havoc_memory && x.touches_memory);
        }
    }

    #[test]
    fn reads_through_calls() {
        let p = parse_program(
            "data-model ilp32
global $a: i32
global $b: i32
global $c: i32
entry @main
fn @main() {
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: call @f()
  L4 -> L1: assume eq($c, 0:i32)
}
fn @f() {
  local %p: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %p := add($a, 1:i32)
  L4 -> L1: $b := %p
}
fn @g() {
  local %p: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %p := load.i32(%p)
  L4 -> L1: skip
}
",
        )
        .expect("parses");
        let m = mod_sets(&p);
        let id = |n: &str| p.find_function(n).expect("declared").index();
        let (main, f, g) = (&m[id("main")], &m[id("f")], &m[id("g")]);
        assert_eq!(f.reads, BTreeSet::from([GlobalId(0)]));
        assert_eq!(main.reads, BTreeSet::from([GlobalId(0), GlobalId(2)]));
        assert!(!f.touches_memory && !main.touches_memory);
        assert!(g.touches_memory && g.reads.is_empty());
    }
}
