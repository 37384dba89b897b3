//! The object table and the bytes of memory during one run.
//!
//! Memory is a total map from addresses (pointer-width bit-vectors, split into object number
//! and offset by the program's [`MemoryLayout`]) to bytes. This module keeps the bytes whose
//! value is already determined in this run: written by the program, or resolved on a first
//! read (from a static initialiser or from the oracle). A byte it does not know is resolved
//! by the interpreter, which then caches it here, so each address is resolved at most once
//! between two `havoc_memory`s and repeated reads agree.
//!
//! Storage: per object a dense `Vec<u8>` with a parallel state vector, covering the object's
//! size (up to [`DENSE_LIMIT`]); anything else (offsets past the end, objects never allocated,
//! the null object) lives in one sparse map. Invariant: a dense byte whose state is not
//! [`UNKNOWN`] is newer than any sparse entry for the same address, because writes go to the
//! dense part whenever it covers the address.
//!
//! The object table is `qicc_ir::memory::ObjectTable`, the one concrete implementation of the
//! IR's memory rules (allocation, liveness, sizes, `valid`); it never changes the bytes.

use qicc_ir::memory::ObjectTable;
use qicc_ir::Program;
use std::collections::HashMap;

/// Byte state: not determined yet in this run.
pub(crate) const UNKNOWN: u8 = 0;
/// Byte state: written, or initialised by the program.
pub(crate) const CLEAN: u8 = 1;
/// Byte state: an arbitrary value (from the oracle), or copied from one.
pub(crate) const TAINTED: u8 = 2;

/// Objects larger than this keep their bytes beyond it in the sparse map, so that a huge
/// object costs memory only for the bytes a run touches.
pub(crate) const DENSE_LIMIT: u64 = 1 << 26;

/// The dense bytes of one object number.
#[derive(Clone, Debug, Default)]
struct Dense {
    /// How many bytes from offset 0 the dense part covers once allocated.
    len: usize,
    data: Vec<u8>,
    state: Vec<u8>,
}

pub(crate) struct Memory {
    pointer_mask: u64,
    offset_bits: u32,
    offset_mask: u64,
    /// By object number.
    objects: Vec<Dense>,
    sparse: HashMap<u64, (u8, u8)>,
    pub(crate) table: ObjectTable,
    /// Set by `havoc_memory`: static initialisers no longer describe the contents.
    pub(crate) statics_forgotten: bool,
    /// Counts the changes of a known byte's value (and `havoc_memory`s): two moments of the
    /// run with the same version see the same contents, which is when a `pure` function's
    /// result must repeat (`HavocKind::Applied`). A write of a byte not known yet does not
    /// count: its earlier value was arbitrary and never seen, so it may have been the same.
    pub(crate) version: u64,
}

impl Memory {
    /// Memory at the start of a run: the static objects live with their sizes, no byte known.
    pub(crate) fn new(program: &Program) -> Memory {
        let layout = program.layout;
        let mut m = Memory {
            pointer_mask: layout.pointer_ty().mask(),
            offset_bits: layout.offset_bits() as u32,
            offset_mask: qicc_ir::types::mask(layout.offset_bits()),
            objects: Vec::with_capacity(program.objects.len() + 1),
            sparse: HashMap::new(),
            table: ObjectTable::new(program),
            statics_forgotten: false,
            version: 0,
        };
        m.objects.push(Dense::default());
        for o in &program.objects {
            m.objects.push(Dense {
                len: o.size.min(DENSE_LIMIT) as usize,
                data: Vec::new(),
                state: Vec::new(),
            });
        }
        m
    }

    pub(crate) fn pointer_mask(&self) -> u64 {
        self.pointer_mask
    }

    /// The value and state of the byte at `addr` (masked to the pointer width) if known.
    #[inline]
    pub(crate) fn lookup(&self, addr: u64) -> Option<(u8, u8)> {
        let obj = (addr >> self.offset_bits) as usize;
        let off = (addr & self.offset_mask) as usize;
        if let Some(o) = self.objects.get(obj) {
            if let Some(&s) = o.state.get(off) {
                if s != UNKNOWN {
                    return Some((o.data[off], s));
                }
            }
        }
        if self.sparse.is_empty() {
            None
        } else {
            self.sparse.get(&addr).copied()
        }
    }

    /// Sets the byte at `addr` (masked to the pointer width), with state [`CLEAN`] or
    /// [`TAINTED`]. Writes never fail: the memory is total.
    #[inline]
    pub(crate) fn put(&mut self, addr: u64, value: u8, state: u8) {
        let obj = (addr >> self.offset_bits) as usize;
        let off = (addr & self.offset_mask) as usize;
        if let Some(o) = self.objects.get_mut(obj) {
            if off < o.len {
                if o.data.len() < o.len {
                    o.data.resize(o.len, 0);
                    o.state.resize(o.len, UNKNOWN);
                }
                if o.state[off] != UNKNOWN && o.data[off] != value {
                    self.version += 1;
                }
                o.data[off] = value;
                o.state[off] = state;
                return;
            }
        }
        if let Some((old, _)) = self.sparse.insert(addr, (value, state)) {
            if old != value {
                self.version += 1;
            }
        }
    }

    /// Allocates `size` bytes in the object table (`qicc_ir::memory`: the lowest number never
    /// used) and gives the new object a dense part. Its bytes are not touched: what was
    /// written there before stays.
    pub(crate) fn alloc(&mut self, size: u64, heap: bool) -> Result<u32, String> {
        let obj = self.table.alloc(size, heap)?;
        let i = obj as usize;
        if self.objects.len() <= i {
            self.objects.resize_with(i + 1, Dense::default);
        }
        // Bytes already written to this number before it was allocated are in the sparse
        // map; a dense part created now starts UNKNOWN and falls back to them.
        self.objects[i].len = size.min(DENSE_LIMIT) as usize;
        Ok(obj)
    }

    /// Forgets every byte: later reads resolve again (to the oracle's remembered bytes, the
    /// static initialisers no longer apply). The object table is kept.
    pub(crate) fn havoc(&mut self) {
        for o in &mut self.objects {
            o.state.iter_mut().for_each(|s| *s = UNKNOWN);
        }
        self.sparse.clear();
        self.statics_forgotten = true;
        self.version += 1;
    }
}
