//! IR expressions as terms over a symbolic state: the shared translation of
//! [`qicc_smt::ir`], reading variables from the [`State`] and memory through the
//! [`MemModel`] (loads from the state's memory array, `valid` from its object table).

use crate::memory::MemModel;
use crate::state::State;
use qicc_ir::{Expr, ObjectId, VarRef};
use qicc_smt::ir::{encode_expr, ExprView};
use qicc_smt::{TermId, TermStore};

pub use qicc_smt::ir::{sort_of, zero_of};

/// The view of one symbolic state.
pub struct Encoder<'a> {
    pub mm: &'a MemModel,
    pub st: &'a State,
}

impl ExprView for Encoder<'_> {
    fn var(&mut self, _: &mut TermStore, v: VarRef) -> TermId {
        match v {
            VarRef::Local(l) => self.st.locals[l.index()],
            VarRef::Global(g) => self.st.globals[g.index()],
        }
    }

    fn obj_addr(&mut self, s: &mut TermStore, o: ObjectId) -> TermId {
        s.bv_const(self.mm.ptr_w, self.mm.base_address(u64::from(o.0)))
    }

    fn load(&mut self, s: &mut TermStore, bytes: u16, addr: TermId) -> TermId {
        self.mm.load(s, self.st.mem, addr, bytes)
    }

    fn valid(&mut self, s: &mut TermStore, bytes: u32, addr: TermId) -> TermId {
        self.mm.valid(s, self.st.live, self.st.size, bytes, addr)
    }
}

impl Encoder<'_> {
    pub fn expr(&mut self, s: &mut TermStore, e: &Expr) -> TermId {
        encode_expr(s, self, e)
    }
}
