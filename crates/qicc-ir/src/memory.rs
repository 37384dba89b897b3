//! The memory semantics of the IR: the one definition, in words, and the object table as the
//! one concrete implementation.
//!
//! Every engine implements these rules: the interpreter concretely (its object table *is*
//! [`ObjectTable`]), the BMC as array terms (`qicc-bmc::memory`), Impulse as memory effects of
//! accelerated loops (`qicc-impulse::memory`), and the C emitted for external verifiers as a
//! runtime with an object table (`qicc-external::runtime`). Each of those cites the rule it
//! implements; the soundness fuzzer (`qicc-fuzz`) holds every engine's verdict to exhaustive
//! interpretation, and so to this definition.
//!
//! # Addresses and objects
//!
//! A pointer is a bit-vector of the data model's pointer width. Its top `object-bits` bits
//! number an *object*, its low bits are the *offset* ([`MemoryLayout`]). Object 0 is null: no
//! access to it is ever valid. Static objects (globals in memory, string literals) are
//! `1..=n` in declaration order, live from the start, with their declared size; `readonly`
//! ones are never valid for writing.
//!
//! # What the layout promises, and what it does not
//!
//! The numbering above is *one* layout a C compiler may choose: every object non-null,
//! aligned (to `2^offset-bits`, more than any type asks) and apart from every other. C
//! promises only that much — an object's address is aligned to its type's alignment, non-null
//! and does not overlap another live object's; it does not promise the value of an address,
//! the order of two objects, whether one object ends where another starts, nor that a freed
//! object's address is not handed out again (glibc does). So a verdict must not rest on the
//! numbering where a C program could observe it. The front-end (`lower::layout`) checks each
//! place a program could: a pointer into an object converted to an integer, and `==`/`!=`
//! between the end of one object and the start of another, are `address-observed` checks
//! (outside the model, handled like undefined behaviour: reachable means UNKNOWN); comparing
//! or subtracting a pointer into no live object (a freed one, a returned frame's), and
//! ordering or subtracting pointers into different objects, are `invalid-pointer-use`
//! checks (undefined in C). Every engine keeps the numbering as it is; the checks make sure
//! nothing past them depends on it. A native run of the program (with the machine's layout)
//! that goes past such a check confirms nothing.
//!
//! # Contents
//!
//! Memory is a total map from addresses to bytes. A load of `k` bytes reads `addr + i`
//! (`i < k`, wrapping at the pointer width) and assembles them little-endian; a store writes
//! them the same way. Neither consults the object table: an out-of-bounds read yields
//! whatever is there, and writes outside live objects are guarded by explicit `ub:` checks
//! that the front-end inserts (`valid`), not by the memory. A byte never written in the run is
//! *arbitrary* but fixed: reading it twice gives the same value. Static objects start with
//! their initialisers, zero-filled where declared `zeroed`.
//!
//! - `memcpy(d, s, n)` copies as `memmove` does: the result is as if all `n` source bytes were
//!   read first and then written (overlap is allowed).
//! - `memset(d, b, n)` writes the byte `b` `n` times.
//! - `havoc_bytes(d, n)` writes `n` arbitrary bytes (a block-scope array or struct entered
//!   again: C's indeterminate values, fresh at each execution).
//!
//! # The object table: allocation, liveness, sizes
//!
//! Each object has a size, a liveness flag and a read-only flag.
//!
//! - **`alloc(size)`** (stack or heap) takes the **lowest object number never used before in
//!   the run**: numbers are handed out in sequence from `n + 1` and never reused, not even
//!   after `free`. So the number is a function of the path: two paths that allocated a
//!   different number of objects give the next allocation different numbers, and an engine
//!   that merges paths must keep that (the BMC's next number is a term, an `ite` after such a
//!   join). The object becomes live and writable with `size` bytes; its contents are not
//!   touched (what was written at those addresses before stays). An allocation larger than
//!   [`MemoryLayout::max_object_size`], or when every number is used, is outside the model:
//!   the interpreter stops the run as unsupported, the BMC cuts the path (never a proof), the
//!   emitted C fails an `unsupported` check.
//! - **`free(p)`** ends the life of the object `p` points into. The front-end guards it with
//!   `ub:` checks (offset 0 of a live heap object: `freeable`).
//! - **`valid.k(p)`** holds iff `k` bytes from `p` lie in one live, writable object: not null,
//!   live, not read-only, and `offset + k <= size`. **`readable.k(p)`** is the same without
//!   "not read-only": the front-end checks it before every read that may fall outside a live
//!   object (out of bounds, null, freed, a returned frame), so no engine ever builds a verdict
//!   on the arbitrary bytes outside objects. **`freeable.k(p)`** is `readable.k(p)` of an
//!   object a *heap* `alloc` created (`malloc`): static objects, frame objects and `alloca`'s
//!   are never freeable. Each object carries that kind from its allocation.
//!
//! # `havoc_memory`: the entry of an extracted region
//!
//! An extracted region (or function node) starts with `havoc_memory`, standing for every
//! state its head can be reached in: every byte becomes arbitrary, and so do the liveness and
//! size of every non-static object, and the next object number (any non-static number: the
//! head may be reached after any number of allocations). Static objects stay live with their
//! sizes. The interpreter, which replays one execution, keeps its object table and resolves
//! the bytes again through its oracle; a symbolic engine must cover every table (the BMC
//! does, with fresh symbols, and aligns with the interpreter only when it looks for a
//! counterexample). The emitted C's environment may give any fresh number at an allocation,
//! which includes this one (sound for proofs; its counterexamples are re-checked by the
//! built-in engine).

//!
//! # `havoc_contents`: a loop cut at its head
//!
//! Every byte becomes arbitrary, as after `havoc_memory`, but the object table stays: the
//! same objects are live with the same sizes and the next object number is unchanged. A loop
//! that writes memory but never allocates or frees can leave exactly such states at its head.
//! The interpreter treats it like `havoc_memory` (its table stays anyway).

//!
//! # Memory tracking (`valid-memtrack`)
//!
//! A heap object is *tracked* while a pointer to it (to any of its bytes, or one past its
//! end) is held by a root or by a tracked object: a pointer-width value, at any byte offset,
//! whose object number is the heap object's. The roots are the globals' values and the static
//! objects' bytes; where the program ends by `exit` or `abort` (every frame still there), also
//! every frame's locals and every live non-heap object (the frames' objects in memory). Only
//! bytes the run determined count (written, or read once): a byte never determined holds no
//! value the run put there. An object lost by this definition stays lost (nothing can
//! compute its address again), so checking when the program ends finds every loss of a run
//! that ends. [`unreachable_heap`] is the one implementation (the interpreter's).

use crate::{MemoryLayout, Program};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    size: u64,
    live: bool,
    readonly: bool,
    /// Allocated by a heap `alloc` (freeable).
    heap: bool,
    /// Static, or allocated at some point of this run.
    used: bool,
}

/// The object table of one run (see the module docs): sizes, liveness, writability and which
/// numbers were ever used.
#[derive(Clone, Debug)]
pub struct ObjectTable {
    layout: MemoryLayout,
    entries: Vec<Entry>,
    /// Lowest object number that may still be unused.
    fresh_hint: u32,
}

impl ObjectTable {
    /// The table at the start of a run: null, then the static objects, live with their sizes.
    pub fn new(program: &Program) -> ObjectTable {
        let mut entries = Vec::with_capacity(program.objects.len() + 1);
        entries.push(Entry::default());
        entries.extend(program.objects.iter().map(|o| Entry {
            size: o.size,
            live: true,
            readonly: o.readonly,
            heap: false,
            used: true,
        }));
        ObjectTable {
            layout: program.layout,
            entries,
            fresh_hint: program.objects.len() as u32 + 1,
        }
    }

    /// `valid.n(addr)` for `Access::Write`, `readable.n(addr)` for `Access::Read`,
    /// `freeable.n(addr)` for `Access::Free`: `n` bytes from `addr` lie inside one live
    /// object, which must be writable for a write and a heap object for a free.
    pub fn accessible(&self, access: crate::Access, addr: u64, n: u32) -> bool {
        let obj = self.layout.object_of(addr) as usize;
        let off = self.layout.offset_of(addr);
        if obj == 0 {
            return false;
        }
        match self.entries.get(obj) {
            Some(o) => {
                o.live
                    && match access {
                        crate::Access::Write => !o.readonly,
                        crate::Access::Read => true,
                        crate::Access::Free => o.heap,
                    }
                    && off as u128 + n as u128 <= o.size as u128
            }
            None => false,
        }
    }

    /// Whether the object number is static or was allocated before in this run.
    pub fn is_used(&self, obj: u32) -> bool {
        self.entries.get(obj as usize).is_some_and(|o| o.used)
    }

    /// The size of an object (0 for a number never used).
    pub fn size(&self, obj: u32) -> u64 {
        self.entries.get(obj as usize).map_or(0, |o| o.size)
    }

    /// Whether an object is live.
    pub fn is_live(&self, obj: u32) -> bool {
        self.entries.get(obj as usize).is_some_and(|o| o.live)
    }

    /// The number the next allocation takes: the lowest that is neither static nor used in
    /// this run, if any is left.
    pub fn lowest_fresh(&mut self) -> Option<u32> {
        let max = self.layout.max_objects();
        while (self.fresh_hint as u64) <= max && self.is_used(self.fresh_hint) {
            self.fresh_hint += 1;
        }
        ((self.fresh_hint as u64) <= max).then_some(self.fresh_hint)
    }

    /// Allocates `size` bytes: the number [`ObjectTable::lowest_fresh`] gives becomes a live,
    /// writable object, freeable if `heap`. `Err` when the allocation is outside the model
    /// (too large, or no number left).
    pub fn alloc(&mut self, size: u64, heap: bool) -> Result<u32, String> {
        if size > self.layout.max_object_size() {
            return Err(format!(
                "unsupported: allocation of {size} bytes, the memory layout allows at most {}",
                self.layout.max_object_size()
            ));
        }
        let obj = self.lowest_fresh().ok_or_else(|| {
            format!(
                "unsupported: out of object numbers (the memory layout has {})",
                self.layout.max_objects()
            )
        })?;
        let i = obj as usize;
        if self.entries.len() <= i {
            self.entries.resize_with(i + 1, Entry::default);
        }
        self.entries[i] = Entry {
            size,
            live: true,
            readonly: false,
            heap,
            used: true,
        };
        Ok(obj)
    }

    /// Ends the life of the object `addr` points into (no checks: the front-end guards `free`
    /// with its own).
    pub fn free(&mut self, addr: u64) {
        let obj = self.layout.object_of(addr) as usize;
        if let Some(o) = self.entries.get_mut(obj) {
            o.live = false;
        }
    }
}

/// The live heap objects that are not tracked (module docs, "Memory tracking"): `roots`
/// are root values, `root_objects` the objects whose bytes are roots, `byte(addr)` a byte's
/// value if the run determined it. In increasing order.
pub fn unreachable_heap(
    table: &ObjectTable,
    roots: impl IntoIterator<Item = u64>,
    root_objects: impl IntoIterator<Item = u32>,
    byte: impl Fn(u64) -> Option<u8>,
) -> Vec<u32> {
    let layout = table.layout;
    let width = (layout.pointer_bits / 8) as u64;
    let mut reached = vec![false; table.entries.len()];
    let mut work: Vec<u32> = Vec::new();
    let mark = |v: u64, reached: &mut Vec<bool>, work: &mut Vec<u32>| {
        let obj = layout.object_of(v);
        let i = obj as usize;
        if table
            .entries
            .get(i)
            .is_some_and(|o| o.live && o.heap && !reached[i])
        {
            reached[i] = true;
            work.push(obj);
        }
    };
    for v in roots {
        mark(v, &mut reached, &mut work);
    }
    let mut scan: Vec<u32> = root_objects.into_iter().collect();
    loop {
        scan.append(&mut work);
        let Some(obj) = scan.pop() else { break };
        let base = layout.base_address(obj);
        let size = table.size(obj);
        // A sliding window of the last `width` bytes (`None` once one is not determined).
        let mut window: Vec<Option<u8>> = Vec::with_capacity(size as usize);
        for off in 0..size {
            window.push(byte(base + off));
            if off + 1 >= width {
                let start = (off + 1 - width) as usize;
                let word = window[start..]
                    .iter()
                    .rev()
                    .try_fold(0u64, |acc, b| b.map(|b| (acc << 8) | b as u64));
                if let Some(v) = word {
                    mark(v, &mut reached, &mut work);
                }
            }
        }
    }
    (0..table.entries.len())
        .filter(|&i| {
            let o = &table.entries[i];
            o.live && o.heap && !reached[i]
        })
        .map(|i| i as u32)
        .collect()
}

impl ObjectTable {
    /// The live objects that are neither static nor on the heap: the frames' objects.
    pub fn live_stack_objects(&self, program: &Program) -> Vec<u32> {
        let statics = program.objects.len();
        (statics + 1..self.entries.len())
            .filter(|&i| self.entries[i].live && !self.entries[i].heap)
            .map(|i| i as u32)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DataModel, Object};

    fn program(statics: &[(u64, bool)]) -> Program {
        let mut p = Program::new(DataModel::Ilp32);
        for (i, &(size, readonly)) in statics.iter().enumerate() {
            p.objects.push(Object {
                name: format!("o{i}"),
                size,
                readonly,
                zeroed: true,
                init: Vec::new(),
                span: crate::Span::new(0, 1, 1),
            });
        }
        p
    }

    #[test]
    fn numbers_are_lowest_never_used_and_never_reused() {
        let p = program(&[(4, false), (3, true)]);
        let mut t = ObjectTable::new(&p);
        let a = t.alloc(8, true).expect("fits");
        assert_eq!(a, 3);
        let b = t.alloc(1, true).expect("fits");
        assert_eq!(b, 4);
        t.free(p.layout.base_address(a));
        assert!(!t.is_live(a));
        // Freed numbers are not reused.
        assert_eq!(t.alloc(2, true).expect("fits"), 5);
        assert_eq!(t.size(a), 8);
    }

    #[test]
    fn valid_needs_live_writable_in_bounds_and_not_null() {
        use crate::Access::{Read, Write};
        let p = program(&[(4, false), (3, true)]);
        let mut t = ObjectTable::new(&p);
        let l = p.layout;
        for access in [Write, Read] {
            assert!(!t.accessible(access, l.base_address(0), 1), "null");
            assert!(t.accessible(access, l.base_address(1), 4));
            assert!(
                !t.accessible(access, l.base_address(1) + 1, 4),
                "past the end"
            );
        }
        assert!(!t.accessible(Write, l.base_address(2), 1), "read-only");
        assert!(
            t.accessible(Read, l.base_address(2), 3),
            "read-only objects may be read"
        );
        let a = t.alloc(2, true).expect("fits");
        assert!(t.accessible(Write, l.base_address(a), 2));
        t.free(l.base_address(a) + 1);
        for access in [Write, Read] {
            assert!(!t.accessible(access, l.base_address(a), 1), "freed");
            assert!(
                !t.accessible(access, l.base_address(a + 1), 1),
                "never allocated"
            );
        }
    }

    #[test]
    fn only_live_heap_objects_are_freeable() {
        use crate::Access::Free;
        let p = program(&[(4, false), (3, true)]);
        let mut t = ObjectTable::new(&p);
        let l = p.layout;
        assert!(!t.accessible(Free, l.base_address(1), 0), "a static object");
        let stack = t.alloc(4, false).expect("fits");
        assert!(
            !t.accessible(Free, l.base_address(stack), 0),
            "a stack object"
        );
        let heap = t.alloc(4, true).expect("fits");
        assert!(t.accessible(Free, l.base_address(heap), 0));
        assert!(t.accessible(Free, l.base_address(heap), 4));
        assert!(!t.accessible(Free, l.base_address(heap), 5), "past the end");
        t.free(l.base_address(heap));
        assert!(!t.accessible(Free, l.base_address(heap), 0), "freed");
    }

    #[test]
    fn tracked_heap_objects_are_reached_through_roots_and_tracked_objects() {
        let p = program(&[(8, false)]);
        let mut t = ObjectTable::new(&p);
        let l = p.layout;
        let a = t.alloc(8, true).expect("fits");
        let b = t.alloc(4, true).expect("fits");
        let c = t.alloc(4, true).expect("fits");
        let freed = t.alloc(4, true).expect("fits");
        t.free(l.base_address(freed));
        // The static object holds a pointer into `a` at the unaligned offset 1; `a` holds
        // one past the end of `b`; nothing points to `c`.
        let mut bytes = std::collections::HashMap::new();
        let mut put = |at: u64, v: u64| {
            for i in 0..4 {
                bytes.insert(at + i, (v >> (8 * i)) as u8);
            }
        };
        put(l.base_address(1) + 1, l.base_address(a) + 2);
        put(l.base_address(a) + 4, l.base_address(b) + 4);
        let byte = |x: u64| bytes.get(&x).copied();
        assert_eq!(unreachable_heap(&t, [], [1], byte), vec![c]);
        assert_eq!(unreachable_heap(&t, [], [], byte), vec![a, b, c]);
        // A root value reaches `c`; an undetermined byte is no pointer.
        assert_eq!(
            unreachable_heap(&t, [l.base_address(c)], [1], byte),
            Vec::<u32>::new()
        );
        assert_eq!(unreachable_heap(&t, [], [1], |_| None), vec![a, b, c]);
        let stack = t.alloc(4, false).expect("fits");
        assert_eq!(t.live_stack_objects(&p), vec![stack]);
    }

    #[test]
    fn allocations_outside_the_model_are_refused() {
        let p = program(&[]);
        let mut t = ObjectTable::new(&p);
        assert!(t.alloc(p.layout.max_object_size() + 1, true).is_err());
        for _ in 0..p.layout.max_objects() {
            t.alloc(0, true).expect("a number is left");
        }
        assert!(t.alloc(0, true).is_err());
    }
}
