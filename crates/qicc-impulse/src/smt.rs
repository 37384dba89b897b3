//! IR expressions as solver terms (the shared translation of `qicc_smt::ir`, read through the
//! view below), for the two questions this crate asks a solver: which loop
//! paths are feasible twice in a row (path selection) and whether a closed form is inductive
//! (formula 4 of the paper).
//!
//! Memory is one array from addresses to bytes (`load` reads little-endian through it) and
//! `valid.N` is an uninterpreted predicate on addresses (an array to 1-bit values). Both are
//! *over-approximations* of the IR's meaning — any real execution is a model — so an
//! unsatisfiable answer is a proof about the program, and a satisfiable one is only a hint
//! (which is all path selection needs).

use qicc_ir::{Expr, MemoryLayout, ObjectId, TypeEnv, VarRef};
use qicc_smt::ir::{encode_expr, ExprView};
use qicc_smt::{Sort, TermId, TermStore};
use std::collections::HashMap;

pub(crate) use qicc_smt::ir::sort_of;

/// Translates expressions over a variable assignment and a memory.
pub(crate) struct Encoder {
    pub layout: MemoryLayout,
    /// Value of each variable; a variable not listed gets a fresh symbol on first use.
    pub vars: HashMap<VarRef, TermId>,
    pub mem: TermId,
    valid: HashMap<(qicc_ir::Access, u32), TermId>,
    prefix: String,
}

impl Encoder {
    /// An encoder whose unlisted variables and memory are symbols named after `prefix`.
    pub fn new(store: &mut TermStore, layout: MemoryLayout, prefix: &str) -> Encoder {
        let mem = store.symbol(
            &format!("{prefix}mem"),
            Sort::Array {
                index: layout.pointer_bits,
                elem: 8,
            },
        );
        Encoder {
            layout,
            vars: HashMap::new(),
            mem,
            valid: HashMap::new(),
            prefix: prefix.to_string(),
        }
    }

    /// The term of a variable (a fresh symbol the first time).
    pub fn var(&mut self, store: &mut TermStore, v: VarRef, env: &dyn TypeEnv) -> TermId {
        if let Some(&t) = self.vars.get(&v) {
            return t;
        }
        let name = match v {
            VarRef::Local(l) => format!("{}l{}", self.prefix, l.0),
            VarRef::Global(g) => format!("{}g{}", self.prefix, g.0),
        };
        let t = store.symbol(&name, sort_of(env.var_ty(v)));
        self.vars.insert(v, t);
        t
    }

    fn valid_pred(&mut self, store: &mut TermStore, access: qicc_ir::Access, n: u32) -> TermId {
        if let Some(&t) = self.valid.get(&(access, n)) {
            return t;
        }
        // Shared by every encoder of the store: validity does not change along a loop path.
        let t = store.symbol(
            &format!("{}.{n}", access.op_name()),
            Sort::Array {
                index: self.layout.pointer_bits,
                elem: 1,
            },
        );
        self.valid.insert((access, n), t);
        t
    }

    pub fn encode(&mut self, store: &mut TermStore, e: &Expr, env: &dyn TypeEnv) -> TermId {
        encode_expr(store, &mut View { enc: self, env }, e)
    }
}

/// The encoder with the types of the variables it may have to invent symbols for.
struct View<'a> {
    enc: &'a mut Encoder,
    env: &'a dyn TypeEnv,
}

impl ExprView for View<'_> {
    fn var(&mut self, s: &mut TermStore, v: VarRef) -> TermId {
        self.enc.var(s, v, self.env)
    }

    fn obj_addr(&mut self, s: &mut TermStore, o: ObjectId) -> TermId {
        let layout = self.enc.layout;
        s.bv_const(layout.pointer_bits, layout.base_address(o.0))
    }

    fn load(&mut self, s: &mut TermStore, bytes: u16, addr: TermId) -> TermId {
        let mem = self.enc.mem;
        let mut value = s.select(mem, addr);
        for i in 1..u64::from(bytes) {
            let at = s.add_const(addr, i);
            let byte = s.select(mem, at);
            value = s.concat(byte, value);
        }
        value
    }

    fn valid(
        &mut self,
        s: &mut TermStore,
        access: qicc_ir::Access,
        bytes: u32,
        addr: TermId,
    ) -> TermId {
        let pred = self.enc.valid_pred(s, access, bytes);
        let bit = s.select(pred, addr);
        let one = s.bv_const(1, 1);
        s.eq(bit, one)
    }
}
