//! One iteration of a loop path `π` as expressions over the state at the loop head.
//!
//! Symbolic execution along `π`'s edges with substitution: after it, every variable assigned
//! on `π` has its final value as an expression over the *pre-state* (the values at the head
//! when the iteration starts), every `assume` is an atom over the pre-state, and every store
//! has its address and value over the pre-state. A `havoc` on `π` becomes a *witness
//! variable* `w` — one value used in every iteration (the sound under-approximation of a
//! per-iteration choice the brief asks for).
//!
//! Memory: a store of the value just loaded from the same address, before any other store
//! of the iteration, changes nothing and is dropped. A load that follows a store of the same iteration is resolved only when the most
//! recent store has the identical address and width (store-to-load forwarding); any other
//! load after a store may read what this iteration wrote, which has no closed form here, so
//! the path is rejected. Loads before every store read the pre-iteration memory and stay
//! loads; [`crate::accel`] and [`crate::memory`] decide whether they may stay (in conditions
//! only if the path stores nothing; elsewhere if they read bytes the path never writes).

use crate::build::{fold, subst};
use qicc_ir::{EdgeId, Expr, Function, LocalId, Op, Ty, VarRef};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub(crate) struct StoreEffect {
    pub ty: Ty,
    pub addr: Expr,
    pub value: Expr,
}

#[derive(Clone, Debug, Default)]
pub(crate) struct Summary {
    /// Final value of each variable assigned on `π`, in order of first assignment.
    pub post: Vec<(VarRef, Expr)>,
    /// The path's conditions, in path order.
    pub atoms: Vec<Expr>,
    pub stores: Vec<StoreEffect>,
    /// `π`'s havoc edges in path order, with the havoc'd variable and its witness variable.
    pub havocs: Vec<(EdgeId, VarRef, LocalId)>,
    /// Some atom, final value or store still reads memory.
    pub reads_memory: bool,
}

impl Summary {
    /// The final value of `v` (the pre-state value if `π` does not assign it).
    pub fn post_of(&self, v: VarRef) -> Option<&Expr> {
        self.post.iter().find(|(x, _)| *x == v).map(|(_, e)| e)
    }

    pub fn assigned(&self) -> Vec<VarRef> {
        self.post.iter().map(|(v, _)| *v).collect()
    }
}

/// Executes `path` symbolically. `witness` creates the witness variable of a havoc edge.
pub(crate) fn summarize(
    func: &Function,
    path: &[EdgeId],
    witness: &mut dyn FnMut(VarRef, EdgeId) -> LocalId,
) -> Result<Summary, String> {
    let mut cur: HashMap<VarRef, Expr> = HashMap::new();
    let mut order: Vec<VarRef> = Vec::new();
    let mut sum = Summary::default();
    for &id in path {
        let edge = func
            .edges
            .get(id.index())
            .ok_or_else(|| format!("path edge {id} does not exist"))?;
        let now = |e: &Expr, cur: &HashMap<VarRef, Expr>, stores: &[StoreEffect]| {
            let e = subst(e, &|v| cur.get(&v).cloned());
            forward_loads(&e, stores)
        };
        match &edge.op {
            // `nowrap` has no effect: the IR wraps (the replay reports overflows).
            Op::Skip | Op::NoWrap(_) => {}
            Op::Assume(c) => sum.atoms.push(now(c, &cur, &sum.stores)?),
            Op::Assign(v, e) => {
                let val = now(e, &cur, &sum.stores)?;
                if !order.contains(v) {
                    order.push(*v);
                }
                cur.insert(*v, val);
            }
            Op::Havoc(v, _) => {
                let w = witness(*v, id);
                sum.havocs.push((id, *v, w));
                if !order.contains(v) {
                    order.push(*v);
                }
                cur.insert(*v, Expr::local(w));
            }
            Op::Store { ty, addr, value } => {
                let addr = now(addr, &cur, &sum.stores)?;
                let value = now(value, &cur, &sum.stores)?;
                // `a[i] = a[i]` before any other store of the iteration writes the bytes
                // that are there: no effect.
                if sum.stores.is_empty() && value == Expr::load(*ty, addr.clone()) {
                    continue;
                }
                sum.stores.push(StoreEffect {
                    ty: *ty,
                    addr,
                    value,
                });
            }
            other => {
                return Err(format!(
                    "unsupported operation on the path: {}",
                    op_kind(other)
                ))
            }
        }
    }
    sum.post = order
        .into_iter()
        .map(|v| {
            let e = cur.get(&v).cloned().unwrap_or(Expr::Var(v));
            (v, e)
        })
        .collect();
    let mut reads = false;
    for e in sum
        .atoms
        .iter()
        .chain(sum.post.iter().map(|(_, e)| e))
        .chain(sum.stores.iter().flat_map(|s| [&s.addr, &s.value]))
    {
        e.visit(&mut |x| reads |= matches!(x, Expr::Load(..)));
    }
    sum.reads_memory = reads;
    Ok(sum)
}

/// Resolves loads that read what this iteration stored (see the module docs).
fn forward_loads(e: &Expr, stores: &[StoreEffect]) -> Result<Expr, String> {
    if stores.is_empty() {
        return Ok(e.clone());
    }
    let mut bad = false;
    let out = e.rewrite(&mut |x| match x {
        Expr::Load(ty, addr) => match stores.last() {
            Some(s) if s.ty == ty && s.addr == *addr => s.value.clone(),
            _ => {
                bad = true;
                Expr::Load(ty, addr)
            }
        },
        other => other,
    });
    if bad {
        Err("a load on the path may read what the path stored".into())
    } else {
        Ok(fold(&out))
    }
}

pub(crate) fn op_kind(op: &Op) -> &'static str {
    match op {
        Op::Skip => "skip",
        Op::NoWrap(_) => "nowrap",
        Op::Assign(..) => "assignment",
        Op::Assume(_) => "assume",
        Op::Havoc(..) => "havoc",
        Op::Store { .. } => "store",
        Op::Alloc { .. } => "alloc",
        Op::Free(_) => "free",
        Op::MemCopy { .. } => "memcpy",
        Op::MemSet { .. } => "memset",
        Op::HavocMemory => "havoc_memory",
        Op::HavocContents => "havoc_contents",
        Op::HavocBytes { .. } => "havoc_bytes",
        Op::Call { .. } => "call",
        Op::Error(_) => "error",
        Op::Halt(_) => "halt",
    }
}
