//! A qicc IR program as one standalone SV-COMP C file with the same behaviour.
//!
//! # Shape of the file
//!
//! - Each IR function reachable from the entry becomes a `static` C function; its locals are C
//!   locals initialised to 0 (as the IR defines), its locations labels `L<n>` (only those a
//!   `goto` names) and its edges straight-line code ending in a `goto`, a `return`, or the end
//!   of the run.
//! - A location's outgoing edges become
//!   - the edge's code, for one edge (an `assume` as `__VERIFIER_assume(c)`);
//!   - `if (c) ...; ...` for two `assume` edges whose conditions are syntactically
//!     complementary (`c`/`not(c)`, `eq`/`ne`, `ult(a,b)`/`ule(b,a)`, `slt`/`sle`);
//!   - otherwise every edge's enabledness in a flag, and an explicit nondeterministic choice
//!     among the enabled ones (`qicc_choice(n)`, `__VERIFIER_assume` that one exists): all of
//!     the IR's choices stay possible, none is preferred. No enabled edge blocks the run
//!     (`__VERIFIER_assume(0)`).
//! - `error #k` is one site per edge, `QICC_FAIL("qicc assertion #k"); abort();`, alone on its
//!   line, and [`EmittedC::assertion_lines`] maps lines back to assertions. `QICC_FAIL` is
//!   `reach_error()` (SV-COMP's `unreach-call`, and qicc's own front-end), or
//!   `__CPROVER_assert(0, ...)` / `__ESBMC_assert(0, ...)` with [`ErrorSpelling::Cbmc`] /
//!   [`ErrorSpelling::Esbmc`], so that those tools report each site as its own property. The
//!   `abort()` after it ends the path, as the IR's `err` ends the run.
//! - `halt` is `abort()` or `exit(code)`; havocs are `__VERIFIER_nondet_<type>()` calls (the
//!   kind of havoc in a comment); expressions are exact (see [`crate::cexpr`]).
//! - Globals are C globals with their initial value; a global without one gets a nondet
//!   value in `main`, before the entry function's parameters get theirs (the interpreter's
//!   order). `main` then calls the entry function.
//! - Memory is the runtime of [`crate::runtime`]: IR addresses stay integers and a table maps
//!   object numbers to C storage (the static objects are C arrays with their initialisers),
//!   so `load`, `store`, `valid`, `alloc`, `free`, `memcpy`, `memset` and `havoc_memory` keep
//!   the IR's meaning exactly, except that memory outside every known object reads as
//!   arbitrary bytes (an over-approximation, see there).
//!
//! # Extracted regions
//!
//! An extracted region's entry function starts with `havoc_memory` and havocs of every global
//! and live local, then runs the region from its head: so the file has the region as a
//! function (`region_main_L6`) whose first statements make memory, globals and live-ins
//! arbitrary, followed by the head's loop condition as its first branch (Listing 3 of the
//! Qicc abstract). Run-time objects that existed before the region cannot be named in C; the
//! IR makes their size, liveness and contents arbitrary, and in the file every address that
//! is not a known object reads as arbitrary bytes and has arbitrary validity after
//! `havoc_memory` (writes to it are dropped, which a later arbitrary read covers). So every
//! behaviour of the IR region is a behaviour of the file, and a proof of the file is a proof
//! of the region.
//!
//! # Exactness
//!
//! The file is free of undefined behaviour for every input. Its executions are exactly the
//! IR program's, except at addresses outside every known object (arbitrary bytes instead of
//! remembered ones) and where the C model runs out (objects too large or too many): there it
//! reaches a `qicc unsupported` site instead ([`EmittedC::unsupported_lines`]), never a cut
//! path. Widths other than 8, 16, 32 and 64 bits, layouts with more than 16 object bits and
//! static objects over 1 GiB are refused with [`EmitError::Unsupported`].

use crate::cexpr::{c_type, literal};
use crate::function::{nondet_call, FnEmitter};
use crate::names::{sanitize, Names};
use crate::runtime::{havoc_memory, runtime, RuntimeShape};
use qicc_ir::{AssertionId, BinOp, DataModel, Expr, Function, InitItem, Op, Program, Ty, VarRef};
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Largest static object the file gives C storage.
const MAX_STATIC_OBJECT: u64 = 1 << 30;

/// How an assertion site reports itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ErrorSpelling {
    /// `reach_error()`: SV-COMP's `unreach-call` (Ultimate, gcc runs, qicc's front-end).
    #[default]
    ReachError,
    /// `__CPROVER_assert(0, "qicc assertion #k")`: one CBMC property per site.
    Cbmc,
    /// `__ESBMC_assert(0, "qicc assertion #k")`.
    Esbmc,
}

#[derive(Clone, Debug, Default)]
pub struct EmitOptions {
    pub spelling: ErrorSpelling,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EmitError {
    /// The program uses something the C file cannot express faithfully.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The program is not well-formed IR.
    #[error("ill-formed program: {}", .0.join("; "))]
    Invalid(Vec<String>),
}

/// The emitted file and where its assertion sites are.
#[derive(Clone, Debug)]
pub struct EmittedC {
    pub text: String,
    /// Every `error #k` site: the assertion and its 1-based line.
    pub assertion_lines: Vec<(AssertionId, u32)>,
    /// Sites reached where the C model cannot follow the IR, with the reason.
    pub unsupported_lines: Vec<(u32, String)>,
    /// The C name of the IR entry function.
    pub entry_function: String,
    /// Whether the file carries the memory runtime.
    pub uses_memory: bool,
}

impl EmittedC {
    /// The assertion whose site is on `line`.
    pub fn assertion_at(&self, line: u32) -> Option<AssertionId> {
        self.assertion_lines
            .iter()
            .find(|(_, l)| *l == line)
            .map(|(a, _)| *a)
    }

    /// The reason of the unsupported site on `line`.
    pub fn unsupported_at(&self, line: u32) -> Option<&str> {
        self.unsupported_lines
            .iter()
            .find(|(l, _)| *l == line)
            .map(|(_, r)| r.as_str())
    }
}

/// What a line of the file is, besides its text.
#[derive(Clone, Debug)]
pub(crate) enum Site {
    Assertion(AssertionId),
    Unsupported(String),
}

/// One line of the file; line numbers are assigned when the file is assembled.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    pub(crate) text: String,
    pub(crate) site: Option<Site>,
}

impl Line {
    pub(crate) fn plain(text: &str) -> Line {
        Line {
            text: text.to_string(),
            site: None,
        }
    }

    pub(crate) fn site(text: String, site: Site) -> Line {
        Line {
            text,
            site: Some(site),
        }
    }
}

/// The C file of `program`.
pub fn emit_c(program: &Program, opts: &EmitOptions) -> Result<String, EmitError> {
    emit_c_with_map(program, opts).map(|e| e.text)
}

/// The C file of `program`, with its assertion line table.
pub fn emit_c_with_map(program: &Program, opts: &EmitOptions) -> Result<EmittedC, EmitError> {
    qicc_ir::verify_program(program).map_err(EmitError::Invalid)?;
    check_supported(program)?;
    let reachable = qicc_analysis::reach::reachable_functions(program);
    let uses_memory = reachable
        .iter()
        .any(|&f| function_uses_memory(program.function(f)));

    // Program-wide names: functions, globals; object macros and storage have their own prefix.
    let mut names = Names::new();
    let mut fn_names: Vec<Option<String>> = vec![None; program.functions.len()];
    for &f in &reachable {
        fn_names[f.index()] = Some(names.fresh(&program.function(f).name));
    }
    let global_names: Vec<String> = program
        .globals
        .iter()
        .map(|g| names.fresh(&g.name))
        .collect();
    let mut prefixed = HashSet::new();
    let mut unique = |prefix: &str, name: &str| -> String {
        let base = format!("{prefix}{}", sanitize(name));
        let mut n = base.clone();
        let mut i = 1;
        while !prefixed.insert(n.clone()) {
            n = format!("{base}_{i}");
            i += 1;
        }
        n
    };
    let mut object_addrs = vec![String::new()];
    let mut object_storage = vec![String::new()];
    for o in &program.objects {
        object_addrs.push(unique("qicc_addr_", &o.name));
        object_storage.push(unique("qicc_obj_", &o.name));
    }

    let mut helpers = BTreeSet::new();
    let mut functions = Vec::new();
    for &f in &reachable {
        let mut fe = FnEmitter {
            program,
            fid: f,
            func: program.function(f),
            fn_names: &fn_names,
            global_names: &global_names,
            object_addrs: &object_addrs,
            helpers: &mut helpers,
            names: names.clone(),
            local_names: Vec::new(),
            uses_memory,
            referenced: BTreeSet::new(),
            max_fanout: 0,
        };
        functions.push(fe.emit()?);
    }

    let entry_name = fn_names[program.entry.index()]
        .clone()
        .expect("the entry is reachable from itself");
    let shape = RuntimeShape::of(program);
    let mut out: Vec<Line> = Vec::new();
    header(&mut out, program, opts, &entry_name);
    for h in &helpers {
        push_text(&mut out, &h.definition());
    }
    if uses_memory {
        out.extend(runtime(&shape));
        out.extend(havoc_memory(&shape));
    }
    if !program.objects.is_empty() {
        out.push(Line::plain(
            "/* Addresses of the static objects (object number << offset bits). */",
        ));
    }
    for (i, o) in program.objects.iter().enumerate() {
        let addr = program.layout.base_address(i as u32 + 1);
        let lit = literal(program.pointer_ty(), addr)?;
        out.push(Line::plain(&format!(
            "#define {} {lit} /* @{} */",
            object_addrs[i + 1],
            o.name
        )));
    }
    for (g, name) in program.globals.iter().zip(&global_names) {
        let t = c_type(g.ty)?;
        match &g.init {
            Some(e) => {
                let v = const_value(program, e)?;
                out.push(Line::plain(&format!("{t} {name} = {};", literal(g.ty, v)?)));
            }
            None => out.push(Line::plain(&format!(
                "{t} {name}; /* arbitrary: set in main */"
            ))),
        }
    }
    if uses_memory {
        for (i, o) in program.objects.iter().enumerate() {
            static_storage(&mut out, program, o, &object_storage[i + 1])?;
        }
    }
    for lines in &functions {
        if let Some(first) = lines.first() {
            out.push(Line::plain(&format!(
                "{};",
                first.text.trim_end_matches(" {")
            )));
        }
    }
    for lines in functions {
        out.push(Line::plain(""));
        out.extend(lines);
    }
    out.push(Line::plain(""));
    emit_main(
        &mut out,
        program,
        &global_names,
        &object_storage,
        &entry_name,
        uses_memory,
    )?;
    Ok(assemble(out, entry_name, uses_memory))
}

fn push_text(out: &mut Vec<Line>, text: &str) {
    for l in text.lines() {
        out.push(Line::plain(l));
    }
}

fn assemble(lines: Vec<Line>, entry_function: String, uses_memory: bool) -> EmittedC {
    let mut text = String::new();
    let mut assertion_lines = Vec::new();
    let mut unsupported_lines = Vec::new();
    for (i, l) in lines.into_iter().enumerate() {
        let n = i as u32 + 1;
        match l.site {
            Some(Site::Assertion(a)) => assertion_lines.push((a, n)),
            Some(Site::Unsupported(r)) => unsupported_lines.push((n, r)),
            None => {}
        }
        text.push_str(&l.text);
        text.push('\n');
    }
    EmittedC {
        text,
        assertion_lines,
        unsupported_lines,
        entry_function,
        uses_memory,
    }
}

fn check_supported(p: &Program) -> Result<(), EmitError> {
    if !matches!(p.layout.pointer_bits, 32 | 64) {
        return Err(EmitError::Unsupported(format!(
            "pointers of {} bits",
            p.layout.pointer_bits
        )));
    }
    if p.layout.object_bits > 16 {
        return Err(EmitError::Unsupported(format!(
            "{} object bits (the C object table has at most 2^16 entries)",
            p.layout.object_bits
        )));
    }
    for g in &p.globals {
        c_type(g.ty)?;
    }
    for f in &p.functions {
        for l in &f.locals {
            c_type(l.ty)?;
        }
    }
    for o in &p.objects {
        if o.size > MAX_STATIC_OBJECT {
            return Err(EmitError::Unsupported(format!(
                "static object @{} of {} bytes",
                o.name, o.size
            )));
        }
    }
    Ok(())
}

fn function_uses_memory(f: &Function) -> bool {
    f.edges.iter().any(|e| {
        // `havoc_memory` alone needs no runtime: a program that never reads memory ignores it.
        let mut mem = e.op.writes_memory() && !matches!(e.op, Op::HavocMemory | Op::HavocContents);
        e.op.exprs(&mut |x| mem |= x.reads_memory());
        mem
    })
}

/// The value of a constant initialiser (constants, object addresses, sums, casts).
fn const_value(p: &Program, e: &Expr) -> Result<u64, EmitError> {
    struct Env<'a>(&'a Program);
    impl qicc_ir::TypeEnv for Env<'_> {
        fn var_ty(&self, _: VarRef) -> Ty {
            Ty::Bool
        }
        fn pointer_ty(&self) -> Ty {
            self.0.pointer_ty()
        }
    }
    let env = Env(p);
    let bad = || EmitError::Invalid(vec!["an initialiser is not a constant".into()]);
    Ok(match e {
        Expr::Const { value, .. } => *value,
        Expr::ObjAddr(o) => p.layout.base_address(o.0),
        Expr::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
            let t = a.ty(&env);
            qicc_ir::semantics::eval_binop(*op, t, const_value(p, a)?, const_value(p, b)?)
        }
        Expr::Cast(op, to, a) => {
            qicc_ir::semantics::eval_cast(*op, a.ty(&env), *to, const_value(p, a)?)
        }
        _ => return Err(bad()),
    })
}

/// The C array holding a static object's bytes, with its initialiser.
fn static_storage(
    out: &mut Vec<Line>,
    p: &Program,
    o: &qicc_ir::Object,
    name: &str,
) -> Result<(), EmitError> {
    let mut bytes: BTreeMap<u64, u8> = BTreeMap::new();
    for item in &o.init {
        match item {
            InitItem::Bytes { offset, bytes: b } => {
                for (i, v) in b.iter().enumerate() {
                    bytes.insert(offset + i as u64, *v);
                }
            }
            InitItem::Value { offset, value } => {
                let v = const_value(p, value)?;
                let n = init_len(p, value);
                for i in 0..n {
                    bytes.insert(offset + i, (v >> (8 * i)) as u8);
                }
            }
        }
    }
    let len = o.size.max(1);
    let nonzero: Vec<(u64, u8)> = bytes
        .into_iter()
        .filter(|&(off, b)| off < o.size && (b != 0 || !o.zeroed))
        .collect();
    if nonzero.is_empty() {
        out.push(Line::plain(&format!(
            "static unsigned char {name}[{len}]; /* @{} */",
            o.name
        )));
        return Ok(());
    }
    out.push(Line::plain(&format!(
        "static unsigned char {name}[{len}] = {{ /* @{} */",
        o.name
    )));
    for chunk in nonzero.chunks(8) {
        let items: Vec<String> = chunk
            .iter()
            .map(|(o, b)| format!("[{o}] = {b:#04x}"))
            .collect();
        out.push(Line::plain(&format!("  {},", items.join(", "))));
    }
    out.push(Line::plain("};"));
    Ok(())
}

/// Bytes an initialiser value covers.
fn init_len(p: &Program, value: &Expr) -> u64 {
    let bits = match value {
        Expr::Const { ty, .. } => ty.bits(),
        Expr::Cast(_, ty, _) => ty.bits(),
        _ => p.pointer_ty().bits(),
    };
    (bits as u64).div_ceil(8)
}

/// Ranges `(offset, len)` an object's initialiser covers, for objects whose other bytes are
/// arbitrary.
fn init_ranges(p: &Program, o: &qicc_ir::Object) -> Vec<(u64, u64)> {
    o.init
        .iter()
        .map(|item| match item {
            InitItem::Bytes { offset, bytes } => (*offset, bytes.len() as u64),
            InitItem::Value { offset, value } => (*offset, init_len(p, value)),
        })
        .filter(|&(_, n)| n > 0)
        .collect()
}

fn header(out: &mut Vec<Line>, p: &Program, opts: &EmitOptions, entry: &str) {
    let (arch, m) = match p.data_model {
        DataModel::Ilp32 => ("32", "-m32"),
        DataModel::Lp64 => ("64", "-m64"),
    };
    let entry_ir = &p.function(p.entry).name;
    push_text(
        out,
        &format!(
            "/* Generated by qicc from IR (entry @{entry_ir}, C function {entry}), data model {dm}.\n \
             * A run reaches QICC_FAIL(\"qicc assertion #k\") exactly when the IR program violates\n \
             * assertion #k. Verify with cbmc/esbmc --{arch}, Ultimate --architecture {arch}bit,\n \
             * or compile with gcc -std=gnu99 {m}. */",
            dm = p.data_model.name()
        ),
    );
    match opts.spelling {
        ErrorSpelling::ReachError => {}
        ErrorSpelling::Cbmc => out.push(Line::plain("#define QICC_CBMC 1")),
        ErrorSpelling::Esbmc => out.push(Line::plain("#define QICC_ESBMC 1")),
    }
    let (u64t, i64t, nondet64) = match p.data_model {
        DataModel::Ilp32 => ("unsigned long long", "long long", "ulonglong"),
        DataModel::Lp64 => ("unsigned long", "long", "ulong"),
    };
    push_text(
        out,
        &format!(
            "/* Assertion sites: one property per site for CBMC and ESBMC, reach_error() otherwise.\n   \
             The declarations are for plain compilers only (the tools have these built in). */\n\
             #if defined(QICC_CBMC)\n\
             #if !defined(__CPROVER__) && !defined(__CPROVER)\n\
             extern void __CPROVER_assert(_Bool cond, const char *what);\n\
             #endif\n\
             #define QICC_FAIL(what) __CPROVER_assert(0, what)\n\
             #elif defined(QICC_ESBMC)\n\
             #if !defined(__ESBMC__) && !defined(__ESBMC)\n\
             extern void __ESBMC_assert(_Bool cond, const char *what);\n\
             #endif\n\
             #define QICC_FAIL(what) __ESBMC_assert(0, what)\n\
             #elif defined(QICC_EXTERNAL_ENVIRONMENT)\n\
             extern void qicc_env_fail(const char *what);\n\
             #define QICC_FAIL(what) qicc_env_fail(what)\n\
             #else\n\
             #define QICC_FAIL(what) reach_error()\n\
             #endif\n\
             typedef unsigned char uint8_t;\n\
             typedef unsigned short uint16_t;\n\
             typedef unsigned int uint32_t;\n\
             typedef {u64t} uint64_t;\n\
             typedef signed char int8_t;\n\
             typedef short int16_t;\n\
             typedef int int32_t;\n\
             typedef {i64t} int64_t;\n\
             extern void reach_error(void);\n\
             extern void abort(void);\n\
             extern void exit(int status);\n\
             extern void __VERIFIER_assume(int cond);\n\
             extern _Bool __VERIFIER_nondet_bool(void);\n\
             extern unsigned char __VERIFIER_nondet_uchar(void);\n\
             extern unsigned short __VERIFIER_nondet_ushort(void);\n\
             extern unsigned int __VERIFIER_nondet_uint(void);\n\
             extern {u64t} __VERIFIER_nondet_{nondet64}(void);\n\
             /* The environment: a verifier's nondeterminism, or (QICC_EXTERNAL_ENVIRONMENT) values\n   \
             supplied by the caller, for running the file. */\n\
             #ifdef QICC_EXTERNAL_ENVIRONMENT\n\
             extern unsigned qicc_env_choice(unsigned n);\n\
             extern unsigned char qicc_env_unknown_byte(uint64_t addr);\n\
             extern void qicc_env_returned(uint64_t value);\n\
             static inline unsigned qicc_choice(unsigned n) {{ return qicc_env_choice(n); }}\n\
             static inline unsigned char qicc_unknown_byte(uint64_t a) {{ return qicc_env_unknown_byte(a); }}\n\
             #else\n\
             /* One of n >= 2 enabled edges, any of them. */\n\
             static inline unsigned qicc_choice(unsigned n) {{\n  \
             unsigned k = __VERIFIER_nondet_uint();\n  \
             __VERIFIER_assume(k < n);\n  \
             return k;\n}}\n\
             static inline unsigned char qicc_unknown_byte(uint64_t a) {{\n  \
             (void)a;\n  \
             return __VERIFIER_nondet_uchar();\n}}\n\
             #endif\n\
             static inline _Bool qicc_arbitrary_bool(void) {{ return __VERIFIER_nondet_bool(); }}\n\
             static inline uint64_t qicc_arbitrary_u64(void) {{ return (uint64_t)__VERIFIER_nondet_{nondet64}(); }}"
        ),
    );
}

fn emit_main(
    out: &mut Vec<Line>,
    p: &Program,
    global_names: &[String],
    storage: &[String],
    entry: &str,
    uses_memory: bool,
) -> Result<(), EmitError> {
    out.push(Line::plain("int main(void) {"));
    if uses_memory {
        for (i, o) in p.objects.iter().enumerate() {
            let id = i + 1;
            let size = literal(p.pointer_ty(), o.size)?;
            let ro = o.readonly as u8;
            if o.zeroed {
                out.push(Line::plain(&format!(
                    "  qicc_register({id}u, {}, {size}, {ro});",
                    storage[id]
                )));
            } else {
                out.push(Line::plain(&format!(
                    "  qicc_register_arbitrary({id}u, {}, {size}, {ro});",
                    storage[id]
                )));
                for (off, n) in init_ranges(p, o) {
                    out.push(Line::plain(&format!(
                        "  qicc_copy_init({id}u, {}, {}, {});",
                        storage[id],
                        literal(p.pointer_ty(), off)?,
                        literal(p.pointer_ty(), n)?
                    )));
                }
            }
        }
    }
    for (g, name) in p.globals.iter().zip(global_names) {
        if g.init.is_none() {
            out.push(Line::plain(&format!(
                "  {name} = {};",
                nondet_call(p, g.ty)?
            )));
        }
    }
    let f = p.function(p.entry);
    let mut args = Vec::new();
    for (i, prm) in f.params.iter().enumerate() {
        let ty = f.local(*prm).ty;
        out.push(Line::plain(&format!(
            "  {} qicc_arg{i} = {};",
            c_type(ty)?,
            nondet_call(p, ty)?
        )));
        args.push(format!("qicc_arg{i}"));
    }
    let call = format!("{entry}({})", args.join(", "));
    match f.ret {
        Some(r) => {
            out.push(Line::plain(&format!(
                "  {} qicc_ret = {call};",
                c_type(f.local(r).ty)?
            )));
            push_text(
                out,
                "#ifdef QICC_EXTERNAL_ENVIRONMENT\n  \
                 qicc_env_returned((uint64_t)qicc_ret);\n\
                 #endif\n  \
                 (void)qicc_ret;",
            );
        }
        None => out.push(Line::plain(&format!("  {call};"))),
    }
    push_text(out, "  return 0;\n}");
    Ok(())
}
