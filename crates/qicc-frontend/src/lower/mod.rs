//! Lowering a parsed translation unit to a [`qicc_ir::Program`].
//!
//! [`Ctx`] holds everything the lowering shares: the source map, the C type system, the
//! scopes, the tables of file-scope variables and functions, and the program being built. Its
//! methods are spread over one module per job: declarations and types ([`decl`]), constant
//! expressions ([`consteval`]), typing without evaluation ([`typing`]), expressions
//! ([`expr`]), calls and the SV-COMP intrinsics ([`call`]), initialisers ([`init`]),
//! statements and function bodies ([`stmt`]).
//!
//! Invariants: only functions reachable from `main` through calls are lowered (a worklist
//! seeded with `main`), and only the globals they use are created (on first use); every
//! error names the offending construct's position in the original source; the result passes
//! `qicc_ir::verify_program` or the lowering reports an internal error.
//!
//! # What is modelled
//!
//! - Integer types of the data model (ILP32: `gcc -m32`, LP64), `_Bool`, enums (`unsigned
//!   int` without negative enumerators, as gcc), typedefs, `typeof`, `__attribute__((mode))`;
//!   constants typed by value and suffix; promotions, usual arithmetic conversions, casts;
//!   signed overflow wraps.
//! - Pointers (object/offset bit-vectors), arithmetic, differences, comparisons, int↔pointer
//!   casts as gcc does them; arrays of any dimension; structs and unions with the ABI layout
//!   (`packed`/`aligned` on the record honoured), anonymous members, flexible array members;
//!   struct assignment, parameters and results (copies through memory); `sizeof`,
//!   `_Alignof`, `__builtin_offsetof`, `_Generic`.
//! - Bit-fields with gcc's layout ([`crate::types::Types::complete_record`]: a field that
//!   would cross the end of a unit of its declared type's size, starting at the type's
//!   alignment, moves to the next aligned boundary; zero-width fields align; unnamed fields
//!   take room but do not align the record; in a packed record, or with `packed` on the
//!   field, a field starts at the next free bit; `aligned(N)` on a field moves it to a
//!   multiple of N bytes): `signed`/`unsigned`/plain `int` (signed, as
//!   gcc), `_Bool`, enum and other integer types, in structs and unions. A field is read and
//!   written through the smallest window of 1, 2, 4 or 8 bytes that holds it (aligned
//!   outside packed records)
//!   ([`crate::types::BitField`]): reads sign- or zero-extend and promote (a field narrower
//!   than `int` is an `int`), writes keep the window's other bits; compound assignment and
//!   `++`/`--` work on them, static initialisers merge their bits; `&` and `sizeof` of one are
//!   errors.
//! - Variable-length arrays ([`crate::types::CType::Vla`]): block-scope `T a[n]` of any
//!   dimension (`int g[n][m]`, `int t[3][m]`), typedefs of them, `sizeof` of them and of
//!   `T[n]` computed at run time, parameters `int a[][m]` whose row size is computed on entry.
//!   The size is computed when the declarator is evaluated and checked: `n` positive
//!   (`vla-size`), the whole size at most `MemoryLayout::max_object_size` (2^24 - 1 bytes on
//!   ILP32, 2^48 - 1 on LP64: `alloc-too-large`). The array is a stack object allocated where
//!   the declaration executes (fresh each time: its contents are arbitrary) and freed at the
//!   end of its block and by `break`/`continue` leaving it; `return` frees it with the
//!   function's other objects.
//! - Storage: scalars whose address is never taken are IR variables, everything else lives
//!   in memory (locals: stack objects allocated in the prologue, freed before `exit`);
//!   globals and static locals with static initialisers (designators, brace elision,
//!   strings, address constants); string literals are readonly objects; compound literals.
//! - All statements (GNU case ranges, statement expressions, `goto`), all operators with
//!   C's evaluation order guarantees (`&&`, `||`, `?:`, `,`; GNU's `x ?: y`), casts to union
//!   types, variadic function definitions (`va_start`, `va_arg`, `va_copy`, `va_end`: the
//!   caller passes a block of the promoted variable arguments, `Ctx::variadic_block`), calls with argument
//!   conversion, recursion.
//! - Function pointers: a function's pointer is the address of a one-byte readonly object
//!   `fn.NAME` ([`Ctx::fn_object`]), so it is stored, compared and converted like any
//!   pointer; a call through a pointer dispatches on its value over the functions used as a
//!   value anywhere in the unit with a compatible type (`call::fn_ptr_call`).
//! - UB checks: division/remainder by zero and overflow, shift amounts, invalid reads
//!   (loads, bit-field windows, struct copies' and `memcpy`'s sources, scalar arguments of
//!   body-less functions, discarded lvalues) and invalid writes
//!   (stores, `memset`/`memcpy`/`memmove`, struct copies), invalid `free`, oversized
//!   allocations, calls through a pointer that is no function of the called type,
//!   non-positive variable-length array sizes, float-to-integer conversions out of range.
//! - Floating point ([`float`]): `float`/`double` as IEEE binary32/binary64 with gcc's SSE
//!   semantics on both data models (each operation rounded to its type, to nearest-even),
//!   constants, conversions, arithmetic, comparisons, floats in memory as their bits, the
//!   exactly defined `<math.h>` functions and the builtins behind its macros.
//! - SV-COMP: `__VERIFIER_nondet_*`, `__VERIFIER_assume`, `__VERIFIER_assert` (inline when
//!   standard), `reach_error`, `__VERIFIER_error`, `__assert_fail` (glibc `assert`);
//!   `abort`/`exit`, `malloc`/`calloc`/`alloca`/`free`, `memset`/`memcpy`/`memmove`,
//!   `__builtin_expect`; the C library's functions of `clib` (models in C, `clib_models.c`);
//!   GCC's builtins of `builtin` (every other `__builtin_*` is rejected); an undeclared
//!   `__VERIFIER_nondet_T` has the type SV-COMP's name `T` says;
//!   any other body-less function returns an arbitrary value and, unless declared
//!   `const`/`pure`, may change every global and all memory (its stub, `extern.NAME`;
//!   warning).
//!
//! # What is rejected as unsupported (only when reachable)
//!
//! `long double`, `<math.h>` functions IEEE does not define exactly, `fesetround`, complex
//! numbers, calls through a function pointer that may point to a
//! function without a body (or to an SV-COMP intrinsic or `main`), vector types, `va_arg`
//! of an array or function type, bit-fields of a type wider
//! than `int` but narrower than it (gcc computes in the field's width), variable-length arrays
//! at file scope (C forbids them) and inside struct members or compound literals, calls of
//! a body-less function (not const/pure) given a function pointer or in a program that takes
//! a function's address, inline assembly, computed `goto` and other GNU syntax lang-c
//! cannot parse (detected by asking gcc), thread local storage, `setjmp`/`longjmp`, threads and `fork`, exit handlers, constructor and
//! destructor functions, the `cleanup` attribute, a packed bit-field whose bytes span more than 8.
//!
//! # Known approximations
//!
//! - A memory local declared in a loop keeps its bytes from the previous iteration (C says
//!   they are indeterminate again); scalar memory locals are re-havocked.
//! - `free` checks one valid byte at offset 0 of the pointer (not that the object is a heap
//!   object); `calloc`'s size product wraps instead of failing.
//! - Only the last execution of an `alloca` site is freed at function exit.
//! - A variable-length array left by a `goto` out of its block stays live until its
//!   declaration executes again or the function returns (C ends its life at the jump); the
//!   size expression of a VLA parameter's outermost dimension is not evaluated, and neither is
//!   the operand of `sizeof` when it has a variable-length array type (C evaluates both; it
//!   matters only for side effects there). Each execution of a VLA declaration takes a new
//!   object number, and numbers are never reused, so a loop declaring one runs out of them
//!   after `2^object-bits - 1` iterations (255 on ILP32): the run is then outside the model
//!   (never a wrong verdict).
//! - A NaN computed by an operation is the IR's default NaN (positive); x86 makes it negative
//!   at run time. Only a program reading a computed NaN's sign or bits can tell.
//! - A bit-field assigned from a float is range-checked against its declared type, not its
//!   width.
//! - `__alignof__` gives the ABI alignment (4 for `long long` on ILP32), like `_Alignof`.

pub mod addr;
pub mod builder;
pub mod builtin;
pub mod call;
pub mod clib;
pub mod consteval;
pub mod debug;
pub mod decl;
pub mod entry;
pub mod expr;
pub mod float;
pub mod fold;
pub mod init;
pub mod layout;
pub mod link;
pub mod scope;
pub mod stmt;
pub mod typing;

use crate::diag::{DiagKind, Diagnostic};
use crate::source_map::SourceMap;
use crate::types::{CType, FuncType, Types};
use crate::{Lowered, Options};
use builder::FnBuilder;
use lang_c::ast::{FunctionDefinition, Initializer, TranslationUnit};
use lang_c::span::Node;
use qicc_ir::{
    AssertKind, Assertion, BinOp, Expr, FuncId, GlobalId, HavocKind, InitItem, Loc, LocalId,
    Object, ObjectId, Op, Program, Span, Ty, UbKind, VarRef,
};
use scope::Scopes;
use std::collections::{HashMap, HashSet, VecDeque};
use std::rc::Rc;

pub type R<T> = Result<T, Diagnostic>;

/// Where a file-scope or static variable lives once it is used.
#[derive(Clone, Copy, Debug)]
pub enum GStorage {
    Var(GlobalId),
    Obj(ObjectId),
}

/// A file-scope variable or a static local.
pub struct GlobalVar<'a> {
    /// The IR name (`x`, or `f.x` for a static local).
    pub name: String,
    /// The C name (for the address-taken test).
    pub c_name: String,
    pub ty: R<CType>,
    /// Declared with an enumerated type: shown by its enumerators' names.
    pub shown_enum: Option<u32>,
    pub init: Option<&'a Node<Initializer>>,
    /// A definition (not only `extern` declarations) exists: storage starts zeroed.
    pub defined: bool,
    /// Where it is declared (byte offset in the preprocessed text).
    pub offset: usize,
    pub storage: Option<GStorage>,
    /// The initialiser refers to file-scope names only (file-scope variables); static locals
    /// are initialised while their function's scopes are live.
    pub file_scope: bool,
    /// The translation unit that declares it (index into [`Ctx::units`]).
    pub unit: usize,
    /// Declared `static` at file scope, or a static local: not shared with other units.
    pub internal: bool,
    /// Another unit's declaration of the same external variable, which holds its storage
    /// (the definition); set by [`Ctx::link`].
    pub link: Option<usize>,
}

/// A function known by name.
pub struct FuncInfo<'a> {
    pub name: String,
    pub ty: R<Rc<FuncType>>,
    pub def: Option<&'a Node<FunctionDefinition>>,
    pub ir: Option<FuncId>,
    pub offset: usize,
    /// Declared `__attribute__((const))` or `((pure))`: writes nothing (matters only for a
    /// function without a body, see `call::extern_call`).
    pub side_effect_free: bool,
    /// Declared `pure` and not `const`: its result may depend on memory and globals too.
    pub reads_memory: bool,
    /// The translation unit that declares it (index into [`Ctx::units`]).
    pub unit: usize,
    /// Declared `static`: not shared with other units.
    pub internal: bool,
    /// Defined `inline` (C99: not an external definition; several units may have one).
    pub inline: bool,
    /// The IR function's name: the C name, with the unit's name added to a `static`
    /// function whose name another unit uses too.
    pub ir_name: String,
    /// Another unit's declaration of the same external function, which stands for this one
    /// (the definition, if any); set by [`Ctx::link`].
    pub link: Option<usize>,
}

/// One translation unit: its preprocessed text, where its positions come from, and its file
/// scope while another unit is being lowered.
pub struct UnitView<'a> {
    pub text: &'a str,
    pub map: &'a SourceMap,
    pub record_attrs: Option<&'a HashMap<usize, String>>,
    /// The unit's file scope, kept here while the unit is not the current one.
    file: Scopes,
}

/// How a local variable of the function being lowered is stored.
#[derive(Clone, Debug)]
pub enum LocalPlace {
    /// An IR local holding the value.
    Reg(LocalId),
    /// An IR local holding the address of the variable's memory.
    Mem(LocalId),
}

#[derive(Clone, Debug)]
pub struct LocalVar {
    pub ty: CType,
    pub place: LocalPlace,
    /// Declared with an enumerated type: shown by its enumerators' names.
    pub shown_enum: Option<u32>,
}

/// One `switch` being lowered: its case labels' locations.
pub struct SwitchCtx {
    /// Location of each `case`/`default` label, keyed by the label node's address.
    pub labels: HashMap<usize, Loc>,
}

/// The function being lowered.
pub struct FnState {
    pub b: FnBuilder,
    pub fid: FuncId,
    pub c_name: String,
    /// The IR function's name (see [`FuncInfo::ir_name`]): its static locals' names start
    /// with it.
    pub ir_name: String,
    pub vars: Vec<LocalVar>,
    pub ret_ty: CType,
    /// The IR return variable (non-void, non-struct returns).
    pub ret_var: Option<LocalId>,
    /// Hidden parameter: where a struct return value goes.
    pub sret: Option<LocalId>,
    pub labels: HashMap<String, Loc>,
    pub defined_labels: HashSet<String>,
    pub breaks: Vec<Loc>,
    pub continues: Vec<Loc>,
    /// Pointers to the objects of nested blocks in scope (variable-length arrays, and arrays,
    /// structs and address-taken variables declared below the body's top level), innermost
    /// last: a block's end, and a `break` or `continue` out of it, frees those it declared.
    /// A `goto` out of a block does not: the declaration executed again, or the function's
    /// return, frees them. A jump into a block past such a declaration (C allows it for a
    /// fixed-size object, as `switch` cases do) finds the object not allocated: its accesses
    /// are undefined behaviour in qicc's model, never a wrong verdict.
    pub vlas: Vec<LocalId>,
    /// Per entry of `breaks` / `continues`: how many of `vlas` were in scope where the loop
    /// or switch starts (a jump out frees the others).
    pub break_vlas: Vec<usize>,
    pub continue_vlas: Vec<usize>,
    pub switches: Vec<SwitchCtx>,
    /// Names taken by static locals (`f.x`, `f.x.1`).
    pub static_names: HashMap<String, u32>,
    /// Sizes of the stack objects (by the local holding their address).
    pub stack_sizes: HashMap<LocalId, u64>,
    /// C names whose address this function takes.
    pub addr_taken: HashSet<String>,
    pub copy_counter: u32,
    /// The ends of the blocks (compound statements, `for` statements) being lowered,
    /// innermost last: where the scope of a name declared now ends.
    pub block_ends: Vec<Span>,
    /// A variadic function's hidden last parameter: the address of the block its caller
    /// filled with the variable arguments (see `Ctx::variadic_block`); `va_start` starts there.
    pub va_args: Option<LocalId>,
}

/// How calls of `__VERIFIER_assert` are lowered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssertMode {
    /// Inline assertion at every call site (declared without body, or the standard body).
    Inline,
    /// An ordinary function.
    Ordinary,
}

pub struct Ctx<'a> {
    /// The current translation unit's text and source map (see [`Ctx::in_unit`]).
    pub text: &'a str,
    pub map: &'a SourceMap,
    /// Every translation unit of the program; unit 0 also holds the C library's models.
    pub units: Vec<UnitView<'a>>,
    pub cur_unit: usize,
    /// The declaration of each external variable that holds its storage (by C name).
    pub extern_globals: HashMap<String, usize>,
    pub opts: &'a Options,
    pub types: Types,
    pub scopes: Scopes,
    pub globals: Vec<GlobalVar<'a>>,
    pub funcs: Vec<FuncInfo<'a>>,
    /// The declaration standing for each function with external linkage (by C name).
    pub func_by_name: HashMap<String, usize>,
    pub program: Program,
    /// The IR file of each (unit, source-map file).
    file_ids: HashMap<(usize, u32), u16>,
    pub warnings: Vec<Diagnostic>,
    pub warned: HashSet<String>,
    worklist: VecDeque<usize>,
    /// C names whose address is taken somewhere (file-scope scalars named so live in memory).
    pub global_addr_taken: HashSet<String>,
    /// Per function definition (by name): C names whose address it takes.
    pub fn_addr_taken: HashMap<String, HashSet<String>>,
    /// Names used as a value anywhere in the unit (not only as a direct callee): the
    /// functions among them are the ones a function pointer may point to.
    pub used_as_value: HashSet<String>,
    strings: HashMap<Vec<u8>, ObjectId>,
    /// The object whose address is a function's pointer value (by function index), and back.
    fn_objects: HashMap<usize, ObjectId>,
    pub fn_of_object: HashMap<ObjectId, usize>,
    pub lit_counter: u32,
    /// The source types interned into `program.debug_types` so far.
    pub debug: debug::DebugTypeTable,
    /// The enumerated type the last declaration specifiers named (an `enum` specifier or a
    /// typedef of one), as an index into `program.debug_types.enums`: what a declaration of
    /// that type shows its values by. Read right after `decl_specs`/`sq_type`; display only.
    pub spec_enum: Option<u32>,
    pub fs: Option<FnState>,
    pub assert_mode: AssertMode,
    /// The stub of each body-less function a call may let change memory and globals (see
    /// [`Ctx::extern_stub`]): its IR function, and its return variable.
    extern_stubs: Vec<(FuncId, String, Option<LocalId>)>,
    /// > 0 while evaluating a constant expression (no edges may be emitted, no variable read).
    pub const_depth: u32,
    /// > 0 while evaluating a file-scope initialiser: names resolve at file scope.
    pub file_scope_only: u32,
    /// > 0 while typing a prototype's parameters: a runtime array size there is not
    /// evaluated and the array is left incomplete (`int a[n][m]` is `int (*)[]`, as C's `[*]`);
    /// a definition's parameters are typed again on entry, with their sizes evaluated.
    pub vla_unevaluated: u32,
    /// Conditions under which the expression being lowered is evaluated at all (the left
    /// side of `&&`/`||`, the condition of `?:`, when those are lowered as one expression):
    /// a `nowrap` check emitted meanwhile holds only under them.
    pub eval_guards: Vec<Expr>,
}

impl<'a> Ctx<'a> {
    fn new(text: &'a str, map: &'a SourceMap, opts: &'a Options) -> Ctx<'a> {
        Ctx {
            text,
            map,
            units: vec![UnitView {
                text,
                map,
                record_attrs: None,
                file: Scopes::default(),
            }],
            cur_unit: 0,
            extern_globals: HashMap::new(),
            opts,
            types: Types::new(opts.data_model),
            scopes: Scopes::default(),
            globals: Vec::new(),
            funcs: Vec::new(),
            func_by_name: HashMap::new(),
            program: Program::new(opts.data_model),
            file_ids: HashMap::new(),
            warnings: Vec::new(),
            warned: HashSet::new(),
            worklist: VecDeque::new(),
            global_addr_taken: HashSet::new(),
            fn_addr_taken: HashMap::new(),
            used_as_value: HashSet::new(),
            strings: HashMap::new(),
            fn_objects: HashMap::new(),
            fn_of_object: HashMap::new(),
            lit_counter: 0,
            debug: debug::DebugTypeTable::default(),
            spec_enum: None,
            fs: None,
            assert_mode: AssertMode::Ordinary,
            const_depth: 0,
            extern_stubs: Vec::new(),
            eval_guards: Vec::new(),
            file_scope_only: 0,
            vla_unevaluated: 0,
        }
    }

    // ---- positions and diagnostics ----

    pub fn diag(&self, kind: DiagKind, offset: usize, msg: impl Into<String>) -> Diagnostic {
        let p = self.map.locate(self.text, offset);
        Diagnostic::new(kind, self.map.file_name(p.file), p.line, p.col, msg)
    }

    pub fn unsupported(&self, offset: usize, msg: impl Into<String>) -> Diagnostic {
        self.diag(DiagKind::Unsupported, offset, msg)
    }

    pub fn type_err(&self, offset: usize, msg: impl Into<String>) -> Diagnostic {
        self.diag(DiagKind::Type, offset, msg)
    }

    pub fn internal(&self, offset: usize, msg: impl Into<String>) -> Diagnostic {
        self.diag(DiagKind::Internal, offset, msg)
    }

    pub fn warn(&mut self, offset: usize, msg: impl Into<String>) {
        let d = self.diag(DiagKind::Warning, offset, msg);
        self.warnings.push(d);
    }

    /// The IR span of a byte offset of the current unit (registering the file in the
    /// program).
    pub fn span(&mut self, offset: usize) -> Span {
        self.span_in(self.cur_unit, offset)
    }

    /// The IR span of a byte offset of unit `u`.
    pub fn span_in(&mut self, u: usize, offset: usize) -> Span {
        let (text, map) = match self.units.get(u) {
            Some(v) => (v.text, v.map),
            None => (self.text, self.map),
        };
        let p = map.locate(text, offset);
        let fid = match self.file_ids.get(&(u, p.file)) {
            Some(f) => *f,
            None => {
                let name = map.file_name(p.file);
                // Two units including one header name one file.
                let f = match self.program.files.iter().position(|f| f == name) {
                    Some(i) => i as u16,
                    None => self.program.add_file(name),
                };
                self.file_ids.insert((u, p.file), f);
                f
            }
        };
        Span::new(fid, p.line, p.col)
    }

    /// Runs `f` with unit `u` current: its text, source map and file scope (the inner
    /// scopes of a function being lowered stay), then makes the previous unit current again.
    /// What a unit's declarations refer to (a function body, a variable's initialiser) is
    /// lowered in that unit.
    pub fn in_unit<T>(&mut self, u: usize, f: impl FnOnce(&mut Self) -> T) -> T {
        if u == self.cur_unit || u >= self.units.len() {
            return f(self);
        }
        let prev = self.cur_unit;
        self.switch_unit(u);
        let r = f(self);
        self.switch_unit(prev);
        r
    }

    fn switch_unit(&mut self, u: usize) {
        let cur = self.cur_unit;
        self.scopes.swap_file(&mut self.units[cur].file);
        self.scopes.swap_file(&mut self.units[u].file);
        self.text = self.units[u].text;
        self.map = self.units[u].map;
        self.cur_unit = u;
    }

    /// The source text of a node (for assertion texts), whitespace-normalised.
    pub fn source_text(&self, start: usize, end: usize) -> String {
        let s = self.text.get(start..end.min(self.text.len())).unwrap_or("");
        // Line markers inside a macro expansion are not part of the expression.
        let mut out = String::new();
        for line in s.lines() {
            if line.trim_start().starts_with('#') {
                continue;
            }
            for w in line.split_whitespace() {
                if !out.is_empty() {
                    out.push(' ');
                }
                out.push_str(w);
            }
        }
        out
    }

    // ---- the function being lowered ----

    /// The function being lowered; outside a function (a constant expression), an error
    /// saying the construct is not constant.
    pub fn fs(&mut self, offset: usize) -> R<&mut FnState> {
        if self.const_depth > 0 || self.fs.is_none() {
            return Err(self.type_err(offset, "initializer element is not a constant expression"));
        }
        Ok(self.fs.as_mut().expect("checked above"))
    }

    pub fn in_function(&self) -> bool {
        self.fs.is_some() && self.const_depth == 0
    }

    /// Emits `op` at the current location, with the span of `offset`.
    pub fn emit(&mut self, op: Op, offset: usize) -> R<()> {
        let span = self.span(offset);
        let fs = self.fs(offset)?;
        fs.b.span = span;
        fs.b.emit(op);
        Ok(())
    }

    pub fn set_span(&mut self, offset: usize) {
        let span = self.span(offset);
        if let Some(fs) = self.fs.as_mut() {
            fs.b.span = span;
        }
    }

    pub fn ptr_ty(&self) -> qicc_ir::Ty {
        self.program.pointer_ty()
    }

    /// An undefined-behaviour check: `ok` must hold here, else the run has UB.
    /// Before the signed C arithmetic `a op b` (add, sub, mul at type `ty`): a `nowrap` edge
    /// at the current location, whose condition (no signed overflow) C requires in the
    /// state before the arithmetic (see [`qicc_ir::Op::NoWrap`]).
    pub fn nowrap(&mut self, op: BinOp, ty: Ty, a: &Expr, b: &Expr, offset: usize) -> R<()> {
        let Some(ok) = fold::no_signed_overflow(op, ty, a, b) else {
            return Ok(());
        };
        if ok.is_true() || self.const_depth > 0 || self.fs.is_none() {
            return Ok(());
        }
        let ok = self.where_evaluated(ok);
        let span = self.span(offset);
        let fs = self.fs(offset)?;
        fs.b.span = span;
        fs.b.emit(Op::NoWrap(ok));
        Ok(())
    }

    /// `ok` where C evaluates the current operand: under `&&`, `||` and `?:` lowered without
    /// branches (`expr::is_simple`), a check matters only where its operand is evaluated (a
    /// float-to-int cast is simple).
    pub fn where_evaluated(&self, ok: Expr) -> Expr {
        self.eval_guards
            .iter()
            .rev()
            .fold(ok, |acc, g| fold::bin(BinOp::Or, fold::not(g.clone()), acc))
    }

    pub fn check(&mut self, ok: Expr, kind: UbKind, offset: usize) -> R<()> {
        if !self.opts.ub_checks || ok.is_true() {
            return Ok(());
        }
        if self.const_depth > 0 || self.fs.is_none() {
            return Err(self.type_err(
                offset,
                format!("{} in a constant expression", kind.describe()),
            ));
        }
        let ok = self.where_evaluated(ok);
        self.assert_here(ok, AssertKind::Ub(kind), None, offset)
    }

    /// A new assertion of `kind` here (named by `text` in reports): runs where `ok` is false
    /// take an edge to the error location, the others go on.
    pub fn assert_here(
        &mut self,
        ok: Expr,
        kind: AssertKind,
        text: Option<String>,
        offset: usize,
    ) -> R<()> {
        let span = self.span(offset);
        let fid = self.fs(offset)?.fid;
        let k = self.program.add_assertion(Assertion {
            kind,
            func: fid,
            span,
            text,
        });
        let fs = self.fs(offset)?;
        fs.b.span = span;
        let bad = fs.b.new_loc();
        let good = fs.b.new_loc();
        let err = fs.b.func.err;
        fs.b.branch(ok, good, bad);
        fs.b.set_cur(bad);
        fs.b.edge_to(Op::Error(k), err);
        fs.b.set_cur(good);
        Ok(())
    }

    /// A property assertion at the current location: reaching this edge fails.
    pub fn assert_fail_here(
        &mut self,
        kind: AssertKind,
        text: Option<String>,
        offset: usize,
    ) -> R<()> {
        let span = self.span(offset);
        let fid = self.fs(offset)?.fid;
        let k = self.program.add_assertion(Assertion {
            kind,
            func: fid,
            span,
            text,
        });
        let fs = self.fs(offset)?;
        fs.b.span = span;
        let err = fs.b.func.err;
        fs.b.edge_to(Op::Error(k), err);
        fs.b.dead();
        Ok(())
    }

    // ---- functions ----

    /// The IR function of a defined C function, created (and queued for lowering) on first
    /// use.
    pub fn func_id(&mut self, idx: usize) -> FuncId {
        let idx = self.funcs[idx].link.unwrap_or(idx);
        if let Some(id) = self.funcs[idx].ir {
            return id;
        }
        let span = self.span_in(self.funcs[idx].unit, self.funcs[idx].offset);
        let name = self.funcs[idx].ir_name.clone();
        let id = self
            .program
            .add_function(qicc_ir::Function::new(name, span));
        self.funcs[idx].ir = Some(id);
        self.worklist.push_back(idx);
        id
    }

    /// The stub standing for the calls of body-less function `name` (made on first use; its
    /// body once every function is lowered, see [`Ctx::finish_extern_stubs`]): no parameters
    /// (the arguments are evaluated by the caller and not passed), a return variable of type
    /// `ret`.
    pub fn extern_stub(&mut self, name: &str, ret: Option<Ty>, span: Span) -> FuncId {
        if let Some((id, _, _)) = self.extern_stubs.iter().find(|(_, n, _)| n == name) {
            return *id;
        }
        let mut f = qicc_ir::Function::new(format!("{}{name}", qicc_ir::EXTERN_STUB_PREFIX), span);
        let ret_var = ret.map(|t| f.add_local("ret.val", t));
        f.ret = ret_var;
        let id = self.program.add_function(f);
        self.extern_stubs.push((id, name.to_string(), ret_var));
        id
    }

    /// The bodies of the stubs: every global and all memory contents become arbitrary (the
    /// object table stays: the function is assumed to allocate and free nothing the program
    /// sees), then the result. Made last, when the program's globals are all known.
    fn finish_extern_stubs(&mut self) {
        let globals: Vec<GlobalId> = (0..self.program.globals.len())
            .map(|i| GlobalId(i as u32))
            .collect();
        for (id, name, ret) in std::mem::take(&mut self.extern_stubs) {
            let f = self.program.function_mut(id);
            let span = f.span;
            let mut ops = vec![Op::HavocContents];
            ops.extend(
                globals
                    .iter()
                    .map(|&g| Op::Havoc(VarRef::Global(g), HavocKind::Extern(name.clone()))),
            );
            ops.extend(ret.map(|r| Op::Havoc(VarRef::Local(r), HavocKind::Extern(name.clone()))));
            let mut from = f.entry;
            let n = ops.len();
            for (i, op) in ops.into_iter().enumerate() {
                let to = if i + 1 == n { f.exit } else { f.new_loc() };
                f.add_edge(from, to, op, span);
                from = to;
            }
        }
    }

    // ---- static objects ----

    /// The readonly object holding a string literal (one per distinct contents).
    pub fn string_object(&mut self, bytes: Vec<u8>, offset: usize) -> ObjectId {
        if let Some(id) = self.strings.get(&bytes) {
            return *id;
        }
        let span = self.span(offset);
        let name = format!("str.{}", self.strings.len());
        let id = self.program.add_object(Object {
            name,
            size: bytes.len() as u64,
            readonly: true,
            zeroed: true,
            init: vec![InitItem::Bytes {
                offset: 0,
                bytes: bytes.clone(),
            }],
            span,
        });
        self.strings.insert(bytes, id);
        id
    }

    /// The object that stands for function `idx` as a pointer value: one readonly byte per
    /// function, created on first use, so that a function pointer is an ordinary object
    /// address (non-null, distinct per function, storable, comparable, convertible) and every
    /// engine handles it without knowing about functions. A call through a pointer compares
    /// it with the candidates' objects (`call::fn_ptr_call`); the function itself is lowered
    /// only when such a call may reach it.
    pub fn fn_object(&mut self, idx: usize) -> ObjectId {
        let idx = self.funcs[idx].link.unwrap_or(idx);
        if let Some(id) = self.fn_objects.get(&idx) {
            return *id;
        }
        let span = self.span_in(self.funcs[idx].unit, self.funcs[idx].offset);
        let id = self.program.add_object(Object {
            name: format!("fn.{}", self.funcs[idx].ir_name),
            size: 1,
            readonly: true,
            zeroed: true,
            init: Vec::new(),
            span,
        });
        self.fn_objects.insert(idx, id);
        self.fn_of_object.insert(id, idx);
        id
    }
}

/// A parsed translation unit: its preprocessed text, where its positions come from, and its
/// syntax tree.
pub struct ParsedUnit {
    pub text: String,
    pub map: SourceMap,
    pub unit: TranslationUnit,
    /// Attributes written between `struct`/`union` and the tag, by the keyword's offset
    /// (see `parse::take_record_attributes`).
    pub record_attrs: HashMap<usize, String>,
}

/// Lowers a program of one or more translation units (the first also holds the C library's
/// models), linked as C links them: see [`Ctx::link`].
pub fn lower_units(units: &[ParsedUnit], opts: &Options) -> R<Lowered> {
    let Some(first) = units.first() else {
        return Err(Diagnostic::new(DiagKind::Io, "qicc", 1, 1, "no input file"));
    };
    let map = &first.map;
    let mut cx = Ctx::new(&first.text, map, opts);
    cx.units = units
        .iter()
        .map(|u| UnitView {
            text: &u.text,
            map: &u.map,
            record_attrs: Some(&u.record_attrs),
            file: Scopes::default(),
        })
        .collect();
    for (u, parsed) in units.iter().enumerate() {
        cx.in_unit(u, |cx| {
            addr::collect(cx, &parsed.unit);
            cx.collect_file_scope(&parsed.unit)
        })?;
    }
    cx.link()?;
    cx.assert_mode = call::verifier_assert_mode(&cx);
    let entry_name = opts.entry.clone().unwrap_or_else(|| "main".to_string());
    let main = match cx.func_by_name.get(&entry_name) {
        Some(&i) if cx.funcs[i].def.is_some() => i,
        _ => {
            let file = map.file_name(0).to_string();
            return Err(Diagnostic::new(
                DiagKind::Type,
                file,
                1,
                1,
                format!("the program has no function '{entry_name}' (with a body)"),
            ));
        }
    };
    let entry = cx.func_id(main);
    cx.program.entry = entry;
    while let Some(idx) = cx.worklist.pop_front() {
        cx.lower_function(idx)?;
    }
    if entry_name != "main" {
        let (unit, at) = (cx.funcs[main].unit, cx.funcs[main].offset);
        cx.program.entry = cx.in_unit(unit, |cx| cx.entry_wrapper(entry, &entry_name, at))?;
    }
    cx.finish_extern_stubs();
    if let Err(errs) = qicc_ir::verify_program(&cx.program) {
        let first = errs.first().cloned().unwrap_or_default();
        let file = map.file_name(0).to_string();
        return Err(Diagnostic::new(
            DiagKind::Internal,
            file,
            1,
            1,
            format!(
                "the front-end produced ill-formed IR ({} problems; first: {first})",
                errs.len()
            ),
        ));
    }
    Ok(Lowered {
        program: cx.program,
        warnings: cx.warnings,
    })
}
