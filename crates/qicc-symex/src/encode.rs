//! IR expressions as terms over a symbolic state: the shared translation of
//! [`qicc_smt::ir`], reading variables from the [`State`] and memory through the
//! [`MemModel`] (loads from the state's memory array, `valid` from its object table).

use crate::memory::MemModel;
use crate::state::State;
use qicc_ir::{Expr, ObjectId, VarRef};
use qicc_smt::ir::{encode_expr, ExprView};
use qicc_smt::{TermId, TermStore};

pub use qicc_smt::ir::{const_of, sort_of, zero_of};

/// The view of one symbolic state.
pub struct Encoder<'a> {
    pub mm: &'a MemModel,
    pub st: &'a State,
    /// Parameterized variable abstraction (Corral, Fig. 5): the Bool constant `b_v` of each
    /// global, then one for the memory as a whole, and the count of fresh values made so far;
    /// a read of global `v` is `ite(b_v, value, fresh)`, a load or `valid` is
    /// `ite(b_mem, value, fresh)`, so with the constant false the variable is not tracked.
    pub abstraction: Option<(&'a [TermId], &'a mut u64)>,
}

impl Encoder<'_> {
    /// `value` as the abstraction reads it: tracked by `tracked[index]` or else fresh.
    fn abstracted(&mut self, s: &mut TermStore, index: usize, value: TermId) -> TermId {
        match &mut self.abstraction {
            Some((tracked, n)) => {
                let fresh = s.symbol(&format!("untracked!{n}"), s.sort(value));
                **n += 1;
                s.ite(tracked[index], value, fresh)
            }
            None => value,
        }
    }
}

impl ExprView for Encoder<'_> {
    fn var(&mut self, s: &mut TermStore, v: VarRef) -> TermId {
        match v {
            VarRef::Local(l) => self.st.locals[l.index()],
            VarRef::Global(g) => {
                let value = self.st.globals[g.index()];
                self.abstracted(s, g.index(), value)
            }
        }
    }

    fn obj_addr(&mut self, s: &mut TermStore, o: ObjectId) -> TermId {
        s.bv_const(self.mm.ptr_w, self.mm.base_address(u64::from(o.0)))
    }

    fn load(&mut self, s: &mut TermStore, bytes: u16, addr: TermId) -> TermId {
        let value = self.mm.load(s, self.st.mem, addr, bytes);
        let memory = self.st.globals.len();
        self.abstracted(s, memory, value)
    }

    fn valid(
        &mut self,
        s: &mut TermStore,
        access: qicc_ir::Access,
        bytes: u32,
        addr: TermId,
    ) -> TermId {
        let value = self
            .mm
            .valid(s, self.st.live, self.st.size, access, bytes, addr);
        let memory = self.st.globals.len();
        self.abstracted(s, memory, value)
    }
}

impl Encoder<'_> {
    pub fn expr(&mut self, s: &mut TermStore, e: &Expr) -> TermId {
        encode_expr(s, self, e)
    }
}
