//! The C side of the IR's memory model (the rules are `qicc_ir::memory`), emitted into every
//! file whose program touches memory.
//!
//! IR pointers are integers (object number in the top `object-bits` bits, byte offset in the
//! rest); the emitted program keeps them as integers, exactly as the IR computes them, and
//! keeps a table from object numbers to C storage. So address values, pointer arithmetic,
//! comparisons, `valid`, `free` and reads outside every object mean in C what they mean in
//! the IR, and the file has no pointer undefined behaviour: it dereferences only storage it
//! allocated, inside its bounds.
//!
//! Memory is the IR's total map from addresses to bytes, realised as:
//! - **Known objects** (the static objects, and objects allocated since the last
//!   `havoc_memory`): their bytes (up to their size) live in C storage, exactly.
//! - **Every other address**: reads give an arbitrary byte, writes are dropped. The IR would
//!   remember such a write, and repeat the same arbitrary byte on a second read; an
//!   arbitrary byte includes both, so the C program has every behaviour of the IR program
//!   (and possibly more): sound for proofs. Such accesses are undefined behaviour in C, which
//!   the front-end guards with checks, so programs from C reach them only on paths a check
//!   already reports.
//!
//! Two environments, chosen when the file is compiled:
//! - **Verifier** (default): nondeterminism through `__VERIFIER_nondet_*`; a fresh object gets
//!   an arbitrary fresh number (as in the IR), arbitrary contents (`malloc`'s), and
//!   `havoc_memory` gives every static object fresh arbitrary storage and forgets every
//!   run-time object (their numbers then behave as unknown addresses, and `valid` on them is
//!   arbitrary, as the IR says: their size and liveness become arbitrary). Nothing here loops
//!   over memory, so a bounded model checker needs no unwinding for the runtime.
//! - **External** (`-DQICC_EXTERNAL_ENVIRONMENT`, for running the file): the caller supplies
//!   the arbitrary values (`qicc_env_choice`, `qicc_env_unknown_byte`), numbers are handed
//!   out lowest first, and `havoc_memory` refills every known object from the environment
//!   while keeping the object table, as the interpreter does, so that a run can be compared
//!   with `qicc_interp` step for step.
//!
//! What the C model cannot represent (an allocation larger than the layout's object size, more
//! objects than the layout numbers, a bulk operation longer than an object can be, a `malloc`
//! that fails in a run) reaches a `QICC_FAIL("qicc unsupported: ...")` site: a verifier
//! reports it as a violation, which qicc turns into UNKNOWN, never into a silently cut path.
//! One assumption instead: a verifier's `malloc` of at most the layout's object size can
//! succeed (it may also fail, as CBMC 6's does by default; those paths are cut, since the
//! IR's allocation never fails).

use crate::emit::{Line, Site};
use qicc_ir::{DataModel, Program};

/// The parameters of the runtime for one program.
pub(crate) struct RuntimeShape {
    pub(crate) pointer_bits: u16,
    pub(crate) offset_bits: u16,
    pub(crate) statics: u32,
    pub(crate) data_model: DataModel,
}

impl RuntimeShape {
    pub(crate) fn of(p: &Program) -> RuntimeShape {
        RuntimeShape {
            pointer_bits: p.layout.pointer_bits,
            offset_bits: p.layout.offset_bits(),
            statics: p.objects.len() as u32,
            data_model: p.data_model,
        }
    }

    fn ptr(&self) -> &'static str {
        if self.pointer_bits > 32 {
            "uint64_t"
        } else {
            "uint32_t"
        }
    }

    fn lit(&self, v: u64) -> String {
        if self.pointer_bits > 32 {
            format!("{v:#x}ull")
        } else {
            format!("{v:#x}u")
        }
    }
}

fn plain(out: &mut Vec<Line>, text: &str) {
    for l in text.lines() {
        out.push(Line::plain(l));
    }
}

fn unsupported(out: &mut Vec<Line>, indent: &str, reason: &str) {
    out.push(Line::site(
        format!("{indent}QICC_FAIL(\"qicc unsupported: {reason}\"); abort();"),
        Site::Unsupported(reason.to_string()),
    ));
}

/// Little-endian load and store of `bits` through the table (fast path: the whole value in
/// one known object; otherwise byte by byte, unrolled).
fn load_store(out: &mut Vec<Line>, bits: u16) {
    let n = bits / 8;
    let t = format!("uint{bits}_t");
    let assemble = |byte: &dyn Fn(u16) -> String| -> String {
        (0..n)
            .map(|i| {
                if i == 0 {
                    format!("({t}){}", byte(i))
                } else {
                    format!("(({t}){} << {})", byte(i), 8 * i)
                }
            })
            .collect::<Vec<_>>()
            .join(" | ")
    };
    let fast = assemble(&|i| format!("p[{i}]"));
    let slow = assemble(&|i| {
        if i == 0 {
            "qicc_read_byte(a)".to_string()
        } else {
            format!("qicc_read_byte((qicc_ptr)(a + {i}u))")
        }
    });
    plain(
        out,
        &format!(
            "static inline {t} qicc_load{bits}(qicc_ptr a) {{\n  \
             unsigned char *p = qicc_range(a, {n}u);\n  \
             if (p) return ({t})({fast});\n  \
             return ({t})({slow});\n}}"
        ),
    );
    let fast_st: String = (0..n)
        .map(|i| format!("    p[{i}] = (unsigned char)(v >> {});\n", 8 * i))
        .collect();
    let slow_st: String = (0..n)
        .map(|i| {
            format!(
                "  qicc_write_byte((qicc_ptr)(a + {i}u), (unsigned char)(v >> {}));\n",
                8 * i
            )
        })
        .collect();
    plain(
        out,
        &format!(
            "static inline void qicc_store{bits}(qicc_ptr a, {t} v) {{\n  \
             unsigned char *p = qicc_range(a, {n}u);\n  \
             if (p) {{\n{fast_st}    return;\n  }}\n{slow_st}}}"
        ),
    );
}

/// The runtime's declarations and functions.
pub(crate) fn runtime(shape: &RuntimeShape) -> Vec<Line> {
    let mut out = Vec::new();
    let ptr = shape.ptr();
    let nobj = 1u64 << (shape.pointer_bits - shape.offset_bits);
    let max_size = qicc_ir::types::mask(shape.offset_bits);
    let size_t = match shape.data_model {
        DataModel::Ilp32 => "unsigned int",
        DataModel::Lp64 => "unsigned long",
    };
    plain(
        &mut out,
        &format!(
            "/* ---- memory: IR addresses are integers (object number << {ob} | offset); known\n   \
             objects have C storage, every other address reads arbitrary bytes. ---- */\n\
             typedef {ptr} qicc_ptr;\n\
             extern void *malloc({size_t} size);\n\
             extern void *memmove(void *d, const void *s, {size_t} n);\n\
             extern void *memcpy(void *d, const void *s, {size_t} n);\n\
             extern void *memset(void *d, int c, {size_t} n);\n\
             #define QICC_OFFSET_BITS {ob}\n\
             #define QICC_NOBJ {nobj}u\n\
             #define QICC_NSTATIC {ns}u\n\
             #define QICC_MAX_SIZE {max}\n\
             #define QICC_KNOWN 1u\n\
             #define QICC_LIVE 2u\n\
             #define QICC_READONLY 4u\n\
             #define QICC_USED 8u\n\
             #define QICC_HEAP 16u\n\
             static unsigned char *qicc_base[QICC_NOBJ];\n\
             static qicc_ptr qicc_size[QICC_NOBJ];\n\
             static unsigned char qicc_flags[QICC_NOBJ];\n\
             static unsigned qicc_obj_epoch[QICC_NOBJ];\n\
             static unsigned qicc_epoch;\n\
             static _Bool qicc_havocked;\n\
             /* Unknown objects after havoc_memory: size and liveness, chosen at the first\n   \
             question about the object in each epoch (qicc_hepoch[id] == qicc_epoch + 1). */\n\
             static qicc_ptr qicc_hsize[QICC_NOBJ];\n\
             static _Bool qicc_hlive[QICC_NOBJ];\n\
             static _Bool qicc_hheap[QICC_NOBJ];\n\
             static unsigned qicc_hepoch[QICC_NOBJ];\n\
             static qicc_ptr qicc_allocated;\n\
             static inline _Bool qicc_known(qicc_ptr id) {{\n  \
             return (qicc_flags[id] & QICC_KNOWN) != 0\n         \
             && (id <= QICC_NSTATIC || qicc_obj_epoch[id] == qicc_epoch);\n}}\n\
             /* The storage of the n bytes at a, if they lie inside one known object. */\n\
             static inline unsigned char *qicc_range(qicc_ptr a, qicc_ptr n) {{\n  \
             qicc_ptr id = a >> QICC_OFFSET_BITS, off = a & QICC_MAX_SIZE;\n  \
             if (!qicc_known(id) || n > qicc_size[id] || off > qicc_size[id] - n) return 0;\n  \
             return qicc_base[id] + off;\n}}\n\
             /* The known prefix of [a, a + n) within a's object region (n does not cross it). */\n\
             static inline unsigned char *qicc_known_prefix(qicc_ptr a, qicc_ptr n, qicc_ptr *k) {{\n  \
             qicc_ptr id = a >> QICC_OFFSET_BITS, off = a & QICC_MAX_SIZE;\n  \
             *k = 0;\n  \
             if (!qicc_known(id) || off >= qicc_size[id]) return 0;\n  \
             *k = qicc_size[id] - off < n ? qicc_size[id] - off : n;\n  \
             return qicc_base[id] + off;\n}}\n\
             static inline unsigned char qicc_read_byte(qicc_ptr a) {{\n  \
             unsigned char *p = qicc_range(a, 1u);\n  \
             return p ? *p : qicc_unknown_byte(a);\n}}\n\
             static inline void qicc_write_byte(qicc_ptr a, unsigned char v) {{\n  \
             unsigned char *p = qicc_range(a, 1u);\n  \
             if (p) *p = v;\n}}",
            ob = shape.offset_bits,
            ns = shape.statics,
            max = shape.lit(max_size),
        ),
    );
    for bits in [8u16, 16, 32, 64] {
        load_store(&mut out, bits);
    }
    plain(
        &mut out,
        "/* The size and liveness of unknown object id in this epoch (any size an object can\n   \
         have, live or not), chosen once. */\n\
         static inline void qicc_choose_unknown(qicc_ptr id) {\n  \
         if (qicc_hepoch[id] == qicc_epoch + 1u) return;\n  \
         qicc_hsize[id] = (qicc_ptr)(qicc_arbitrary_u64() & (uint64_t)QICC_MAX_SIZE);\n  \
         qicc_hlive[id] = qicc_arbitrary_bool();\n  \
         qicc_hheap[id] = qicc_arbitrary_bool();\n  \
         qicc_hepoch[id] = qicc_epoch + 1u;\n}\n\
         /* valid (mode 1, write: a writable object), readable (mode 0, read: any live\n   \
         object) and freeable (mode 2: a heap object). */\n\
         static inline _Bool qicc_access(qicc_ptr a, qicc_ptr n, int mode) {\n  \
         qicc_ptr id = a >> QICC_OFFSET_BITS, off = a & QICC_MAX_SIZE;\n  \
         if (id == 0) return 0;\n  \
         if (qicc_known(id))\n    \
         return (qicc_flags[id] & QICC_LIVE) && !(mode == 1 && (qicc_flags[id] & QICC_READONLY))\n           \
         && !(mode == 2 && !(qicc_flags[id] & QICC_HEAP))\n           \
         && n <= qicc_size[id] && off <= qicc_size[id] - n;\n  \
         /* Not known: never allocated (not live), or a run-time object whose size and\n     \
         liveness havoc_memory made arbitrary: arbitrary, but the same for every question\n     \
         (the IR's object table is one table), so that a fact assumed about the object holds\n     \
         at every later check. */\n  \
         if (!qicc_havocked) return 0;\n  \
         qicc_choose_unknown(id);\n  \
         return qicc_hlive[id] && !(mode == 2 && !qicc_hheap[id])\n         \
         && n <= qicc_hsize[id] && off <= qicc_hsize[id] - n;\n}\n\
         /* Storage for an object with arbitrary contents. */\n\
         static inline unsigned char *qicc_new_storage(qicc_ptr id, qicc_ptr size) {\n  \
         unsigned char *p = (unsigned char *)malloc(size ? size : 1u);\n\
         #ifndef QICC_EXTERNAL_ENVIRONMENT\n  \
         /* A verifier's malloc may fail (CBMC 6 by default); the IR's allocation never does,\n     \
         and a failure that is possible is never the only possibility. */\n  \
         __VERIFIER_assume(p != 0);\n\
         #else\n  \
         if (!p) {",
    );
    unsupported(&mut out, "    ", "malloc failed");
    plain(
        &mut out,
        "  }\n\
         #endif\n\
         #ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
         { qicc_ptr i;\n    \
         for (i = 0; i < size; i++)\n      \
         p[i] = qicc_unknown_byte((qicc_ptr)((id << QICC_OFFSET_BITS) | i)); }\n\
         #else\n  \
         (void)id;\n\
         #endif\n  \
         return p;\n}\n\
         static inline void qicc_register(qicc_ptr id, unsigned char *storage, qicc_ptr size, _Bool ro) {\n  \
         qicc_base[id] = storage;\n  \
         qicc_size[id] = size;\n  \
         qicc_flags[id] = (unsigned char)(QICC_KNOWN | QICC_LIVE | QICC_USED | (ro ? QICC_READONLY : 0u));\n\
         }\n\
         /* A static object whose bytes outside its initialiser are arbitrary. */\n\
         static inline void qicc_register_arbitrary(qicc_ptr id, const unsigned char *image, qicc_ptr size, _Bool ro) {\n  \
         qicc_register(id, qicc_new_storage(id, size), size, ro);\n  \
         (void)image;\n\
         }\n\
         static inline void qicc_copy_init(qicc_ptr id, const unsigned char *image, qicc_ptr off, qicc_ptr n) {\n  \
         memcpy(qicc_base[id] + off, image + off, n);\n\
         }\n\
         static inline qicc_ptr qicc_alloc(qicc_ptr size, _Bool heap) {\n  \
         qicc_ptr id;\n  \
         if (size > QICC_MAX_SIZE) {",
    );
    unsupported(
        &mut out,
        "    ",
        "allocation larger than the memory layout's object size",
    );
    plain(
        &mut out,
        "  }\n  \
         if (qicc_allocated >= QICC_NOBJ - 1u - QICC_NSTATIC) {",
    );
    unsupported(&mut out, "    ", "out of object numbers");
    plain(
        &mut out,
        "  }\n\
         #ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
         id = QICC_NSTATIC + 1u + qicc_allocated; /* the lowest fresh number, as the interpreter */\n\
         #else\n  \
         id = (qicc_ptr)__VERIFIER_nondet_uint(); /* any fresh number, as the IR */\n  \
         __VERIFIER_assume(id > QICC_NSTATIC && id < QICC_NOBJ && !(qicc_flags[id] & QICC_USED));\n\
         #endif\n  \
         qicc_allocated++;\n  \
         qicc_register(id, qicc_new_storage(id, size), size, 0);\n  \
         if (heap) qicc_flags[id] = (unsigned char)(qicc_flags[id] | QICC_HEAP);\n  \
         qicc_obj_epoch[id] = qicc_epoch;\n  \
         return (qicc_ptr)(id << QICC_OFFSET_BITS);\n}\n\
         static inline void qicc_free(qicc_ptr a) {\n  \
         qicc_ptr id = a >> QICC_OFFSET_BITS;\n  \
         if (qicc_known(id)) qicc_flags[id] = (unsigned char)(qicc_flags[id] & ~QICC_LIVE);\n  \
         else if (qicc_havocked && id != 0) {\n    \
         /* An unknown object ends its life too: later questions must say so. */\n    \
         qicc_choose_unknown(id);\n    \
         qicc_hlive[id] = 0;\n  \
         }\n}\n\
         /* havoc_bytes of a whole known object: new storage, arbitrary contents in a verifier\n   \
         (zeros in the external environment, as an interpreter oracle that gives no bytes).\n   \
         Bytes of unknown objects read arbitrary anyway. */\n\
         static inline void qicc_havoc_bytes(qicc_ptr d, qicc_ptr n) {\n  \
         qicc_ptr id = d >> QICC_OFFSET_BITS;\n  \
         if (!qicc_known(id)) return;\n  \
         if ((d & QICC_MAX_SIZE) != 0u || n != qicc_size[id]) {",
    );
    unsupported(&mut out, "    ", "havoc_bytes of part of an object");
    plain(
        &mut out,
        "  }\n\
         #ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
         memset(qicc_base[id], 0, n);\n\
         #else\n  \
         qicc_base[id] = qicc_new_storage(id, n);\n\
         #endif\n\
         }\n\
         /* memset: [d, d + n) covers at most two object regions; only known bytes matter. */\n\
         static inline void qicc_memset(qicc_ptr d, uint8_t b, qicc_ptr n) {\n  \
         qicc_ptr first, k;\n  \
         unsigned char *p;\n  \
         if (n == 0) return;\n  \
         if (n > QICC_MAX_SIZE) {",
    );
    unsupported(&mut out, "    ", "memset longer than an object can be");
    plain(
        &mut out,
        "  }\n  \
         first = QICC_MAX_SIZE - (d & QICC_MAX_SIZE) + 1u;\n  \
         if (first > n) first = n;\n  \
         p = qicc_known_prefix(d, first, &k);\n  \
         if (p) memset(p, b, k);\n  \
         if (first < n) {\n    \
         p = qicc_known_prefix((qicc_ptr)(d + first), n - first, &k);\n    \
         if (p) memset(p, b, k);\n  \
         }\n}\n\
         /* memmove: read all of [s, s + n) into a buffer (arbitrary where not known), then write\n   \
         the known bytes of [d, d + n). */\n\
         static inline void qicc_memmove(qicc_ptr d, qicc_ptr s, qicc_ptr n) {\n  \
         qicc_ptr first, k;\n  \
         unsigned char *p, *q, *buf;\n  \
         if (n == 0) return;\n  \
         if (n > QICC_MAX_SIZE) {",
    );
    unsupported(&mut out, "    ", "memcpy longer than an object can be");
    plain(
        &mut out,
        "  }\n  \
         p = qicc_range(d, n);\n  \
         q = qicc_range(s, n);\n  \
         if (p && q) { memmove(p, q, n); return; }\n  \
         buf = qicc_new_storage(0u, n);\n\
         #ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
         for (k = 0; k < n; k++) buf[k] = qicc_unknown_byte((qicc_ptr)(s + k));\n\
         #endif\n  \
         first = QICC_MAX_SIZE - (s & QICC_MAX_SIZE) + 1u;\n  \
         if (first > n) first = n;\n  \
         q = qicc_known_prefix(s, first, &k);\n  \
         if (q) memcpy(buf, q, k);\n  \
         if (first < n) {\n    \
         q = qicc_known_prefix((qicc_ptr)(s + first), n - first, &k);\n    \
         if (q) memcpy(buf + first, q, k);\n  \
         }\n  \
         first = QICC_MAX_SIZE - (d & QICC_MAX_SIZE) + 1u;\n  \
         if (first > n) first = n;\n  \
         p = qicc_known_prefix(d, first, &k);\n  \
         if (p) memcpy(p, buf, k);\n  \
         if (first < n) {\n    \
         p = qicc_known_prefix((qicc_ptr)(d + first), n - first, &k);\n    \
         if (p) memcpy(p, buf + first, k);\n  \
         }\n}",
    );
    out
}

/// `qicc_havoc_memory`: in the verifier environment, fresh arbitrary storage for each static
/// object (listed, no loop) and a new epoch that forgets the run-time objects; in the external
/// environment, every known object refilled from the environment.
pub(crate) fn havoc_memory(shape: &RuntimeShape) -> Vec<Line> {
    let mut out = Vec::new();
    plain(
        &mut out,
        "static inline void qicc_havoc_memory(void) {\n\
         #ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
         qicc_ptr id, i;\n  \
         for (id = 1; id < QICC_NOBJ; id++)\n    \
         if (qicc_flags[id] & QICC_KNOWN)\n      \
         for (i = 0; i < qicc_size[id]; i++)\n        \
         qicc_base[id][i] = qicc_unknown_byte((qicc_ptr)((id << QICC_OFFSET_BITS) | i));\n\
         #else",
    );
    for id in 1..=shape.statics {
        out.push(Line::plain(&format!(
            "  qicc_base[{id}] = qicc_new_storage({id}u, qicc_size[{id}]);"
        )));
    }
    plain(
        &mut out,
        "  qicc_epoch++;\n  \
         qicc_havocked = 1;\n\
         #endif\n}",
    );
    out
}
