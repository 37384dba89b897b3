//! The memory model: the IR's byte memory and object table (the rules are
//! `qicc_ir::memory`) as array terms.
//!
//! - Memory is an array from pointer-width addresses to bytes. Loads and stores are
//!   little-endian byte sequences at `addr + i` (wrapping at the pointer width, as in the
//!   interpreter).
//! - Initial memory is `λa. static byte at a, or free0[a]`: static objects' initialisers and
//!   zero fill where the program defines them, the array symbol `free0` everywhere else.
//!   `free0` is exactly the interpreter's "never-written byte" oracle: a counterexample's
//!   uninitialised bytes are the model's values of `free0`. No object is encoded byte by
//!   byte: a zeroed object is one range test, initialised bytes an `ite` over the runs of
//!   equal bytes (a store chain over a constant array when there are more than
//!   `INIT_ITE_LIMIT` runs), and reads at known addresses fold to constants.
//! - The object table is three arrays indexed by object number: `live` (2 bits: [`LIVE`],
//!   or [`LIVE_HEAP`] for a heap object, 0 when not live), `size` (pointer width) and the
//!   static `readonly` flags. Static objects are live from the start; `alloc` stores a fresh
//!   number's liveness, kind and size, `free` clears liveness.
//! - Object numbers: an `alloc` takes the state's next number (the rule of
//!   `qicc_ir::memory`: the lowest number never used in the run), a term that is an `ite`
//!   after a join of paths that allocated differently.
//! - `havoc_memory` (entry of an extracted region) makes all contents, the liveness and
//!   size of every non-static object, and the next object number arbitrary, with fresh
//!   symbols (a region's head is reached with any number of earlier allocations). The interpreter can
//!   only replay one value per never-written address and keeps its object table, so each
//!   fresh array is `ite(align, <what the interpreter does>, <fresh symbol>)` with one Bool
//!   symbol `align`: queries for counterexamples assume `align`, proofs do not (they cover
//!   every arbitrary state).

use crate::error::SymexError;

/// Width of the `live` array's elements.
pub const LIVE_W: u16 = 2;
/// A live object that is not freeable (static, frame, `alloca`).
pub const LIVE: u64 = 1;
/// A live heap object (`freeable`).
pub const LIVE_HEAP: u64 = 3;
use qicc_ir::{Expr, InitItem, ObjectId, Program, Ty};
use qicc_smt::{Sort, TermId, TermStore};
use std::collections::BTreeMap;

/// `memcpy`/`memset` with a constant length up to this many bytes become individual stores;
/// longer or symbolic ones a lambda.
const UNROLL_BULK: u64 = 16;

pub struct MemModel {
    pub ptr_w: u16,
    pub obj_w: u16,
    pub off_w: u16,
    pub statics: u32,
    pub max_objects: u64,
    pub max_object_size: u64,
    /// Bytes never written (the interpreter's oracle bytes).
    pub free0: TermId,
    pub init_mem: TermId,
    pub init_live: TermId,
    pub init_size: TermId,
    readonly: TermId,
}

impl MemModel {
    pub fn new(p: &Program, s: &mut TermStore) -> Result<MemModel, SymexError> {
        let layout = p.layout;
        let ptr_w = layout.pointer_bits;
        let obj_w = layout.object_bits;
        let off_w = layout.offset_bits();
        let statics = u32::try_from(p.objects.len())
            .ok()
            .filter(|&n| n as u64 <= layout.max_objects())
            .ok_or_else(|| {
                SymexError::Unsupported(format!(
                    "{} static objects, the memory layout numbers at most {}",
                    p.objects.len(),
                    layout.max_objects()
                ))
            })?;
        let mem_sort = Sort::Array {
            index: ptr_w,
            elem: 8,
        };
        let free0 = s.symbol("mem!free", mem_sort);
        let mut mm = MemModel {
            ptr_w,
            obj_w,
            off_w,
            statics,
            max_objects: layout.max_objects(),
            max_object_size: layout.max_object_size(),
            free0,
            init_mem: free0,
            init_live: free0,
            init_size: free0,
            readonly: free0,
        };
        let zero1 = s.bv_const(1, 0);
        let one1 = s.bv_const(1, 1);
        let zero_p = s.bv_const(ptr_w, 0);
        let dead = s.bv_const(LIVE_W, 0);
        let live_static = s.bv_const(LIVE_W, LIVE);
        let mut live = s.const_array(obj_w, dead);
        let mut size = s.const_array(obj_w, zero_p);
        let mut ro = s.const_array(obj_w, zero1);
        for (i, o) in p.objects.iter().enumerate() {
            if o.size > layout.max_object_size() {
                return Err(SymexError::Unsupported(format!(
                    "object @{} has {} bytes, the memory layout allows at most {}",
                    o.name,
                    o.size,
                    layout.max_object_size()
                )));
            }
            let n = s.bv_const(obj_w, i as u64 + 1);
            live = s.store(live, n, live_static);
            let sz = s.bv_const(ptr_w, o.size);
            size = s.store(size, n, sz);
            if o.readonly {
                ro = s.store(ro, n, one1);
            }
        }
        mm.init_live = live;
        mm.init_size = size;
        mm.readonly = ro;
        mm.init_mem = mm.initial_memory(p, s)?;
        Ok(mm)
    }

    /// `λa. ite(a in static object 1, its byte, ite(..., free0[a]))`.
    fn initial_memory(&self, p: &Program, s: &mut TermStore) -> Result<TermId, SymexError> {
        let a = s.bound_var(Sort::BitVec(self.ptr_w));
        let mut body = s.select(self.free0, a);
        let obj = self.obj_of(s, a);
        let off = self.off_of(s, a);
        let zero8 = s.bv_const(8, 0);
        let zeros = s.const_array(self.ptr_w, zero8);
        // Innermost first, so that object 1 is tested first.
        for (i, o) in p.objects.iter().enumerate().rev() {
            if !o.zeroed && o.init.is_empty() {
                continue;
            }
            let id = i as u32 + 1;
            let base = p.layout.base_address(id);
            // The initialised bytes, later items overriding earlier ones (as stores would).
            let mut bytes: BTreeMap<u64, u8> = BTreeMap::new();
            for item in &o.init {
                let (offset, data) = match item {
                    InitItem::Bytes { offset, bytes } => (*offset, bytes.clone()),
                    InitItem::Value { offset, value } => {
                        let (v, ty) = const_value(p, value).ok_or_else(|| {
                            SymexError::Unsupported(format!(
                                "object @{}: initialiser is not constant",
                                o.name
                            ))
                        })?;
                        let n = (ty.bits() as u64).div_ceil(8);
                        (*offset, (0..n).map(|k| (v >> (8 * k)) as u8).collect())
                    }
                };
                for (k, b) in data.into_iter().enumerate() {
                    bytes.insert(offset + k as u64, b);
                }
            }
            let runs = byte_runs(&bytes, o.zeroed);
            let val = if runs.len() <= INIT_ITE_LIMIT {
                // `ite(off in run, byte, ...)`: a symbolic read of a table resolves in the
                // bit-vector solver. As a store chain it went to Z3's array theory, which
                // took 1.3 s for one read of a 200-byte table and timed out at 20 s on
                // glibc's 768-byte <ctype.h> table, where the ite chain takes 35 ms.
                let mut v = if o.zeroed {
                    zero8
                } else {
                    s.select(self.free0, a)
                };
                for &(lo, hi, b) in runs.iter().rev() {
                    let lo_t = s.bv_const(self.ptr_w, lo);
                    let inside = if hi - lo == 1 {
                        s.eq(off, lo_t)
                    } else {
                        let hi_t = s.bv_const(self.ptr_w, hi);
                        let above = s.ule(lo_t, off);
                        let below = s.ult(off, hi_t);
                        s.and(above, below)
                    };
                    let byte = s.bv_const(8, b as u64);
                    v = s.ite(inside, byte, v);
                }
                v
            } else {
                // A large initialiser stays a store chain (an ite chain would be rebuilt at
                // every symbolic read).
                let mut data = if o.zeroed { zeros } else { self.free0 };
                for (&k, &b) in &bytes {
                    let addr = s.bv_const(self.ptr_w, base + k);
                    let byte = s.bv_const(8, b as u64);
                    data = s.store(data, addr, byte);
                }
                s.select(data, a)
            };
            let here = {
                let n = s.bv_const(self.obj_w, id as u64);
                let same = s.eq(obj, n);
                let sz = s.bv_const(self.ptr_w, o.size);
                let inb = s.ult(off, sz);
                s.and(same, inb)
            };
            body = s.ite(here, val, body);
        }
        Ok(s.lambda(a, body))
    }

    /// The object number of an address.
    pub fn obj_of(&self, s: &mut TermStore, addr: TermId) -> TermId {
        s.extract(self.ptr_w - 1, self.off_w, addr)
    }

    /// The offset of an address, zero-extended to pointer width.
    pub fn off_of(&self, s: &mut TermStore, addr: TermId) -> TermId {
        let off = s.extract(self.off_w - 1, 0, addr);
        s.zero_ext(self.obj_w, off)
    }

    pub fn base_address(&self, obj: u64) -> u64 {
        obj << self.off_w
    }

    /// Little-endian `bytes`-byte load.
    pub fn load(&self, s: &mut TermStore, mem: TermId, addr: TermId, bytes: u16) -> TermId {
        let mut acc: Option<TermId> = None;
        for i in 0..bytes {
            let a = s.add_const(addr, i as u64);
            let b = s.select(mem, a);
            acc = Some(match acc {
                None => b,
                Some(low) => s.concat(b, low),
            });
        }
        acc.expect("loads have at least one byte")
    }

    /// Little-endian store of the whole `value` (its width is a multiple of 8).
    pub fn store(&self, s: &mut TermStore, mem: TermId, addr: TermId, value: TermId) -> TermId {
        let bytes = s.width(value) / 8;
        let mut m = mem;
        for i in 0..bytes {
            let a = s.add_const(addr, i as u64);
            let b = s.extract(8 * i + 7, 8 * i, value);
            m = s.store(m, a, b);
        }
        m
    }

    /// `valid.n(addr)`: `n` bytes from `addr` lie inside one live, writable object
    /// (`readable.n(addr)`, for `Access::Read`: any live object; `freeable.n(addr)`, for
    /// `Access::Free`: a live heap object).
    pub fn valid(
        &self,
        s: &mut TermStore,
        live: TermId,
        size: TermId,
        access: qicc_ir::Access,
        n: u32,
        addr: TermId,
    ) -> TermId {
        let obj = self.obj_of(s, addr);
        let off = self.off_of(s, addr);
        let zero_o = s.bv_const(self.obj_w, 0);
        let not_null = s.ne(obj, zero_o);
        let one1 = s.bv_const(1, 1);
        let l = s.select(live, obj);
        let live_bit = s.extract(0, 0, l);
        let is_live = s.eq(live_bit, one1);
        let r = s.select(self.readonly, obj);
        let writable = s.ne(r, one1);
        let sz = s.select(size, obj);
        let nn = s.bv_const(self.ptr_w, n as u64);
        let fits = if (n as u64) > qicc_ir::types::mask(self.ptr_w) {
            s.ff()
        } else {
            let n_le = s.ule(nn, sz);
            let room = s.sub(sz, nn);
            let off_le = s.ule(off, room);
            s.and(n_le, off_le)
        };
        let a = s.and(not_null, is_live);
        let b = match access {
            qicc_ir::Access::Write => s.and(a, writable),
            qicc_ir::Access::Read => a,
            qicc_ir::Access::Free => {
                let heap = s.bv_const(LIVE_W, LIVE_HEAP);
                let is_heap = s.eq(l, heap);
                s.and(a, is_heap)
            }
        };
        s.and(b, fits)
    }

    /// `memset(dst, byte, len)`.
    pub fn memset(
        &self,
        s: &mut TermStore,
        mem: TermId,
        dst: TermId,
        byte: TermId,
        len: TermId,
    ) -> TermId {
        if let Some(n) = s.as_bv_const(len).filter(|&n| n <= UNROLL_BULK) {
            let mut m = mem;
            for i in 0..n {
                let a = s.add_const(dst, i);
                m = s.store(m, a, byte);
            }
            return m;
        }
        let a = s.bound_var(Sort::BitVec(self.ptr_w));
        let rel = s.sub(a, dst);
        let inside = s.ult(rel, len);
        let old = s.select(mem, a);
        let body = s.ite(inside, byte, old);
        s.lambda(a, body)
    }

    /// `mem` with the `len` bytes at `dst` taken from the same addresses of `bytes` (the
    /// fresh array of a `havoc_bytes`).
    pub fn copy_in(
        &self,
        s: &mut TermStore,
        mem: TermId,
        dst: TermId,
        bytes: TermId,
        len: TermId,
    ) -> TermId {
        self.copy(s, mem, dst, (bytes, dst), len)
    }

    /// `memmove(dst, src, len)` (overlap allowed: every byte reads the old memory).
    pub fn memcpy(
        &self,
        s: &mut TermStore,
        mem: TermId,
        dst: TermId,
        src: TermId,
        len: TermId,
    ) -> TermId {
        self.copy(s, mem, dst, (mem, src), len)
    }

    /// `mem` with the `len` bytes at `dst` read from array `from` at `src` onwards (every
    /// byte reads `from` before any is written).
    fn copy(
        &self,
        s: &mut TermStore,
        mem: TermId,
        dst: TermId,
        (from, src): (TermId, TermId),
        len: TermId,
    ) -> TermId {
        if let Some(n) = s.as_bv_const(len).filter(|&n| n <= UNROLL_BULK) {
            let bytes: Vec<TermId> = (0..n)
                .map(|i| {
                    let a = s.add_const(src, i);
                    s.select(from, a)
                })
                .collect();
            let mut m = mem;
            for (i, b) in bytes.into_iter().enumerate() {
                let a = s.add_const(dst, i as u64);
                m = s.store(m, a, b);
            }
            return m;
        }
        let a = s.bound_var(Sort::BitVec(self.ptr_w));
        let rel = s.sub(a, dst);
        let inside = s.ult(rel, len);
        let at = s.add(rel, src);
        let copied = s.select(from, at);
        let old = s.select(mem, a);
        let body = s.ite(inside, copied, old);
        s.lambda(a, body)
    }

    /// The address of byte 0 of object `obj` (an `object-bits` term).
    pub fn base_of(&self, s: &mut TermStore, obj: TermId) -> TermId {
        let zero = s.bv_const(self.off_w, 0);
        s.concat(obj, zero)
    }

    /// Memory, object table and next object number after the `k`-th `havoc_memory` (see the
    /// module docs). The fresh next number is any non-static one.
    /// The memory after `havoc_contents` number `k`: every byte arbitrary (the interpreter's
    /// never-written bytes when `align`, as for [`MemModel::havoc`]); the object table stays.
    pub fn havoc_contents(&self, s: &mut TermStore, align: TermId, k: u64) -> TermId {
        let mem_sym = s.symbol(
            &format!("mem!havoc{k}"),
            Sort::Array {
                index: self.ptr_w,
                elem: 8,
            },
        );
        s.ite(align, self.free0, mem_sym)
    }

    pub fn havoc(
        &self,
        s: &mut TermStore,
        align: TermId,
        (live, size, next_obj): (TermId, TermId, TermId),
        k: u64,
    ) -> (TermId, TermId, TermId, TermId) {
        let mem_sym = s.symbol(
            &format!("mem!havoc{k}"),
            Sort::Array {
                index: self.ptr_w,
                elem: 8,
            },
        );
        let mem = s.ite(align, self.free0, mem_sym);
        let live_sym = s.symbol(
            &format!("live!havoc{k}"),
            Sort::Array {
                index: self.obj_w,
                elem: LIVE_W,
            },
        );
        let size_sym = s.symbol(
            &format!("size!havoc{k}"),
            Sort::Array {
                index: self.obj_w,
                elem: self.ptr_w,
            },
        );
        let new_live = self.keep_statics(s, align, live, live_sym);
        let new_size = self.keep_statics(s, align, size, size_sym);
        let next_sym = s.symbol(&format!("next!havoc{k}"), Sort::BitVec(self.obj_w));
        let first = s.bv_const(self.obj_w, self.statics as u64 + 1);
        let below = s.ult(next_sym, first);
        let clamped = s.ite(below, first, next_sym);
        let fresh = s.zero_ext(1, clamped);
        let new_next = s.ite(align, next_obj, fresh);
        (mem, new_live, new_size, new_next)
    }

    /// `λo. ite(o is static or align, old[o], fresh[o])`.
    fn keep_statics(&self, s: &mut TermStore, align: TermId, old: TermId, fresh: TermId) -> TermId {
        let o = s.bound_var(Sort::BitVec(self.obj_w));
        let one = s.bv_const(self.obj_w, 1);
        let last = s.bv_const(self.obj_w, self.statics as u64);
        let lo = s.ule(one, o);
        let hi = s.ule(o, last);
        let is_static = s.and(lo, hi);
        let keep = s.or(align, is_static);
        let a = s.select(old, o);
        let b = s.select(fresh, o);
        let body = s.ite(keep, a, b);
        s.lambda(o, body)
    }
}

/// Value and type of a constant expression (constants, object addresses, and operators on
/// them), as the interpreter computes it.
pub fn const_value(p: &Program, e: &Expr) -> Option<(u64, Ty)> {
    use qicc_ir::semantics::{eval_binop, eval_cast, eval_unop};
    Some(match e {
        Expr::Const { ty, value } => (*value & ty.mask(), *ty),
        Expr::ObjAddr(ObjectId(o)) => (p.layout.base_address(*o), p.pointer_ty()),
        Expr::Unary(op, a) => {
            let (a, ty) = const_value(p, a)?;
            (eval_unop(*op, ty, a), ty)
        }
        Expr::Binary(op, a, b) => {
            let (a, ty) = const_value(p, a)?;
            let (b, _) = const_value(p, b)?;
            let rty = if op.is_comparison() { Ty::Bool } else { ty };
            (eval_binop(*op, ty, a, b), rty)
        }
        Expr::Cast(op, to, a) => {
            let (a, from) = const_value(p, a)?;
            (eval_cast(*op, from, *to, a), *to)
        }
        Expr::Ite(c, a, b) => {
            let (c, _) = const_value(p, c)?;
            if c != 0 {
                const_value(p, a)?
            } else {
                const_value(p, b)?
            }
        }
        Expr::Fp(op, args) => {
            let mut vals = Vec::with_capacity(args.len());
            let mut ty = Ty::Bool;
            for (i, a) in args.iter().enumerate() {
                let (v, t) = const_value(p, a)?;
                if i == 0 {
                    ty = t;
                }
                vals.push(v);
            }
            (
                qicc_ir::semantics::float::eval_fp(*op, ty, &vals),
                op.result_ty(ty),
            )
        }
        Expr::Var(_) | Expr::Load(..) | Expr::Valid(..) => return None,
    })
}

/// Most runs of equal bytes an initialiser may have to be read through an `ite` chain (see
/// `initial_memory`); the ctype tables of the C library's models have about 400.
const INIT_ITE_LIMIT: usize = 1024;

/// The maximal runs `(lo, hi, byte)` of consecutive offsets holding the same byte, without
/// the zero runs of a `zeroed` object (its default is zero anyway).
fn byte_runs(bytes: &BTreeMap<u64, u8>, zeroed: bool) -> Vec<(u64, u64, u8)> {
    let mut runs: Vec<(u64, u64, u8)> = Vec::new();
    for (&k, &b) in bytes {
        match runs.last_mut() {
            Some((_, hi, v)) if *hi == k && *v == b => *hi += 1,
            _ => runs.push((k, k + 1, b)),
        }
    }
    if zeroed {
        runs.retain(|&(_, _, b)| b != 0);
    }
    runs
}
