//! Where nondeterministic values come from, and the record of them ([`Witness`]).

use qicc_ir::{EdgeId, FuncId, HavocKind, Ty, VarRef};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A `havoc` the interpreter is about to execute.
#[derive(Clone, Debug)]
pub struct HavocRequest<'a> {
    /// The havoc edge; `None` for the initial value of a global without initialiser.
    pub site: Option<(FuncId, EdgeId)>,
    pub var: VarRef,
    pub ty: Ty,
    pub kind: &'a HavocKind,
    /// How many havocs this run executed before this one.
    pub index: usize,
}

/// An `alloc` the interpreter is about to execute.
#[derive(Clone, Debug)]
pub struct AllocRequest {
    pub func: FuncId,
    pub edge: EdgeId,
    pub size: u64,
    /// How many allocations this run executed before this one.
    pub index: usize,
}

/// Resolves every nondeterministic choice of a run.
pub trait Oracle {
    /// The value of a havoc'd variable (the low `ty.bits()` bits are used).
    fn havoc(&mut self, req: &HavocRequest) -> u64;
    /// A byte of memory that was never written (dynamic objects, out-of-bounds reads, memory
    /// after `havoc_memory`).
    fn uninit_byte(&mut self, addr: u64) -> u8;
    /// The object number of a fresh object; `None` lets the interpreter take the lowest number
    /// that is neither static nor used before in this run. An answer that is not fresh is
    /// rejected by the interpreter (the run stops as unreplayable).
    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32>;
    /// Which of `n >= 2` enabled edges to take (indices in edge order).
    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize;
}

/// Every answer an oracle gave during one run, in a form that replays it exactly.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Witness {
    /// Values of the havocs in execution order.
    pub havocs: Vec<u64>,
    /// Bytes of never-written memory, by address.
    pub uninit: BTreeMap<u64, u8>,
    /// Object numbers of the allocations in execution order.
    pub alloc_ids: Vec<u32>,
    /// Choices among enabled edges, in execution order.
    pub choices: Vec<u32>,
}
