//! Programs, functions and their control-flow automata.
//!
//! A [`Program`] is a set of [`Function`]s, each a control-flow automaton in the sense of
//! Beyer et al. as used by the Qicc paper (Sec. 2): numbered locations, one initial location
//! (`entry`), the final locations `exit` (return to the caller), `halt` (the whole program
//! stops without error: `abort`, `exit`) and `err` (an assertion failed), typed scalar
//! variables, and edges labelled with one [`Op`] each.
//!
//! Invariants (checked by [`crate::verify`]):
//! - `err` is entered only by [`Op::Error`] edges and every `Op::Error` edge enters `err`;
//!   `halt` only by [`Op::Halt`] edges; no edge leaves `exit`, `err` or `halt`.
//! - Every expression is well-typed; assumptions are `bool`.
//! - Every edge keeps the source span of the C construct it came from.
//!
//! Execution: a call binds the arguments to the callee's parameters; every other local of the
//! callee holds 0 on entry (the front-end makes C's indeterminate values explicit with
//! `havoc uninit`). Globals start at their `init`, or at an arbitrary value without one.
//! Static objects start zeroed or initialised; all other memory bytes start arbitrary.

use crate::expr::{Expr, TypeEnv, VarRef};
use crate::types::{DataModel, MemoryLayout, Ty};
use serde::{Deserialize, Serialize};
use std::fmt;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident, $prefix:literal) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(/// A location of one function's automaton.
    Loc, "L");
id_type!(/// Index into [`Function::locals`].
    LocalId, "local");
id_type!(/// Index into [`Program::globals`].
    GlobalId, "global");
id_type!(/// Index into [`Program::functions`].
    FuncId, "fn");
id_type!(/// A memory object number. 0 is the null object; static objects are `1..=objects.len()`;
    /// objects created at run time by [`Op::Alloc`] get higher numbers.
    ObjectId, "obj");
id_type!(/// Index into [`Program::assertions`].
    AssertionId, "#");
id_type!(/// Index into [`Function::edges`].
    EdgeId, "e");

/// A source position: file index into [`Program::files`], 1-based line and column
/// (line 0: unknown).
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct Span {
    pub file: u16,
    pub line: u32,
    pub col: u32,
}

impl Span {
    pub const UNKNOWN: Span = Span {
        file: 0,
        line: 0,
        col: 0,
    };

    pub fn new(file: u16, line: u32, col: u32) -> Span {
        Span { file, line, col }
    }

    pub fn is_known(&self) -> bool {
        self.line != 0
    }
}

/// Where a nondeterministic value comes from. The interpreter's oracle and the counterexample
/// traces use it to say what a value means to the user.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HavocKind {
    /// A call of `__VERIFIER_nondet_<type>()` (the function's name is kept): a program input.
    Nondet(String),
    /// An uninitialised local variable.
    Uninit,
    /// The return value of a function the program declares but does not define.
    Extern(String),
    /// The return value of a body-less function declared free of side effects
    /// (`__attribute__((const))`, or `((pure))` when `reads_memory`), applied to `args`: a
    /// function of its arguments, and for `pure` also of the globals and the memory contents.
    /// Within one run, two such havocs of the same `name` whose arguments are equal (and, for
    /// `pure`, with no global or memory byte changed in between) give equal results. An engine
    /// may treat the results as independent (that only loses counterexamples, which the
    /// interpreter's replay then rejects); the interpreter keeps the rule exactly.
    Applied {
        name: String,
        args: Vec<Expr>,
        reads_memory: bool,
    },
    /// Arbitrary entry state of an extracted region.
    Region,
    /// A choice the C implementation or the environment makes among the values C allows,
    /// named by what makes it: a computed NaN's sign and payload ([`COMPUTED_NAN`]), which
    /// zero `fmin(+0, -0)` returns, `__builtin_constant_p` of an expression the compiler may
    /// or may not fold, `main`'s `argc`/`argv`. Unlike [`HavocKind::Extern`], every value is
    /// one a real execution of the program as written can take.
    Platform(String),
}

impl HavocKind {
    /// The body-less function whose result this is ([`HavocKind::Extern`] and
    /// [`HavocKind::Applied`]).
    pub fn function(&self) -> Option<&str> {
        match self {
            HavocKind::Extern(n) | HavocKind::Applied { name: n, .. } => Some(n),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AllocKind {
    /// An object of the function's frame — a local whose address is taken, an array or struct
    /// local — allocated once per activation and freed by the epilogue (the front-end emits
    /// the matching [`Op::Free`]). The shape is part of the IR's contract, checked by
    /// [`crate::verify_program`], so analyses may rely on it: the edge leaves a location of
    /// [`Function::prologue_chain`], its destination is a local that is not a parameter and
    /// has no other definition, and its size is a constant. (Text: `alloc.frame(n)`.)
    Frame,
    /// `alloca`: dies when the function returns (the front-end emits the matching
    /// [`Op::Free`]), but may run any number of times, anywhere in the body.
    Stack,
    /// `malloc`, `calloc`: lives until `free`.
    Heap,
}

/// The operation on an edge; executing it moves control from the edge's source to its target.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Op {
    Skip,
    Assign(VarRef, Expr),
    /// Blocks unless the condition holds.
    Assume(Expr),
    /// The variable takes an arbitrary value of its type.
    Havoc(VarRef, HavocKind),
    /// Little-endian write of `ty.bits() / 8` bytes at `addr`.
    Store {
        ty: Ty,
        addr: Expr,
        value: Expr,
    },
    /// Creates a fresh object of `size` bytes (contents arbitrary) and stores its address in
    /// `dst`.
    Alloc {
        dst: VarRef,
        size: Expr,
        kind: AllocKind,
    },
    /// Ends the life of the object whose byte 0 is at the address.
    Free(Expr),
    /// Copies `len` bytes from `src` to `dst` (the ranges may overlap: `memmove` semantics).
    MemCopy {
        dst: Expr,
        src: Expr,
        len: Expr,
    },
    /// Sets `len` bytes at `dst` to the low byte of `byte`.
    MemSet {
        dst: Expr,
        byte: Expr,
        len: Expr,
    },
    /// The `len` bytes at `dst` take arbitrary values, chosen anew at each execution (C: a
    /// block-scope array or struct is indeterminate each time its declaration is reached).
    HavocBytes {
        dst: Expr,
        len: Expr,
    },
    /// All memory contents, and the size and liveness of every run-time object, become
    /// arbitrary (entry of an extracted region). Engines that prove must treat all of this as
    /// unknown; the interpreter, which follows one execution, resolves the choice by keeping
    /// its object table and asking the oracle for every byte again.
    HavocMemory,
    /// All memory contents become arbitrary; the object table (which objects exist, their
    /// sizes, the next object number) stays. What a loop that writes memory but never
    /// allocates or frees may leave behind (a loop cut at its head, `qicc_analysis::loop_cut`).
    /// The interpreter asks the oracle for every byte again, as for `havoc_memory`.
    HavocContents,
    /// Runs `callee` with the arguments bound to its parameters; its return value goes to `dst`.
    Call {
        dst: Option<VarRef>,
        callee: FuncId,
        args: Vec<Expr>,
    },
    /// The assertion is violated: the edge enters `err`.
    Error(AssertionId),
    /// The program stops without error (`abort()`, `exit(code)`): the edge enters `halt`.
    Halt(Option<Expr>),
    /// No effect. C requires the condition here: false means a signed overflow (undefined in
    /// C), evaluated in the state before the arithmetic that follows. The IR computes with
    /// wrap-around, so proofs (which cover every wrapping execution) ignore it; the
    /// interpreter reports the first one that fails, so that a counterexample through a
    /// signed overflow is not passed off as a C execution (`qicc_ir::semantics`).
    NoWrap(Expr),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Edge {
    pub from: Loc,
    pub to: Loc,
    pub op: Op,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Local {
    pub name: String,
    pub ty: Ty,
    /// C declared the variable with an unsigned type: its values are shown unsigned. Only
    /// for display (traces); the IR's operators carry the signedness of every computation.
    #[serde(default)]
    pub unsigned: bool,
    /// Where C's name for the variable is visible: `None` for the whole function (a
    /// parameter, a name the front-end invented, IR written by hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// The source type of what the variable stands for, for display only
    /// ([`crate::debug`]): its value's type, or, for a local holding the address of the
    /// object an `alloc` makes for a variable in memory, that object's type.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub debug_type: Option<crate::DebugTypeId>,
}

/// The part of one file where a block-scope name is visible: from its declarator to the end
/// of its block (C11 6.2.1p4). Consumers that write C at a source position (a correctness
/// witness's loop invariant) name only variables whose scope contains that position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scope {
    pub from: Span,
    pub to: Span,
}

impl Scope {
    /// Whether `at` lies in the scope (same file, `from <= at <= to` by line and column).
    pub fn contains(&self, at: Span) -> bool {
        let key = |s: Span| (s.line, s.col);
        at.file == self.from.file && key(self.from) <= key(at) && key(at) <= key(self.to)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Function {
    pub name: String,
    pub params: Vec<LocalId>,
    /// The variable `return e` assigns before entering `exit`; `None` for `void`.
    pub ret: Option<LocalId>,
    pub locals: Vec<Local>,
    pub num_locs: u32,
    pub entry: Loc,
    pub exit: Loc,
    pub err: Loc,
    pub halt: Loc,
    pub edges: Vec<Edge>,
    pub span: Span,
    /// Where the body ends (its closing brace), for display: where the end-of-program memory
    /// checks of a return from the entry stand, as C ends the frame there.
    /// [`Span::UNKNOWN`] where nothing says (IR text does not carry it).
    #[serde(default)]
    pub end: Span,
}

/// A scalar program-wide variable (a C global or static local whose address is never taken).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Global {
    pub name: String,
    pub ty: Ty,
    /// As [`Local::unsigned`]: for display only.
    #[serde(default)]
    pub unsigned: bool,
    /// Constant initial value; `None`: arbitrary.
    pub init: Option<Expr>,
    pub span: Span,
}

/// Part of a static object's initial contents.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum InitItem {
    Bytes {
        offset: u64,
        bytes: Vec<u8>,
    },
    /// A constant expression (constants, object addresses and their sums) stored at `offset`.
    Value {
        offset: u64,
        value: Expr,
    },
}

/// A memory object that exists for the whole run: a global or static local that lives in
/// memory (arrays, structs, scalars whose address is taken) or a string literal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Object {
    pub name: String,
    pub size: u64,
    /// Writes are undefined behaviour (string literals).
    pub readonly: bool,
    /// Bytes not covered by `init` are zero (`true`) or arbitrary (`false`, e.g. an `extern`
    /// object the program never defines).
    pub zeroed: bool,
    pub init: Vec<InitItem>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum UbKind {
    DivByZero,
    DivOverflow,
    ShiftOutOfRange,
    /// A write through a pointer that does not point into a live object with room to spare.
    InvalidWrite,
    InvalidFree,
    /// Not undefined in C, but outside the memory model: an allocation larger than
    /// [`crate::MemoryLayout::max_object_size`]. Handled like UB (reachable: UNKNOWN).
    AllocTooLarge,
    /// A call through a pointer whose value is not a function of the called type (null, a
    /// data pointer, a function of another type).
    InvalidCall,
    /// A variable-length array whose size expression is not positive when the declarator is
    /// evaluated (C99 6.7.6.2p5).
    VlaSize,
    /// A float converted to an integer type whose range does not hold the float's value
    /// truncated toward zero, or a NaN (C11 6.3.1.4p1).
    FloatToInt,
    /// A read through a pointer that does not point into a live object with room to spare
    /// (out of bounds, null, freed, a returned function's frame, an ended block).
    InvalidRead,
    /// A compiler builtin called where its documentation leaves the result undefined:
    /// `__builtin_unreachable` reached, `__builtin_clz`/`ctz` of 0.
    BuiltinUndefined,
    /// A pointer compared, subtracted or converted to an integer while it points into no
    /// live object (its value is indeterminate, C11 6.2.4p2), or pointers into different
    /// objects compared with `<`/`>`/`<=`/`>=` or subtracted (6.5.8p5, 6.5.6p9).
    InvalidPointerUse,
    /// Not undefined in C, but outside the memory model: an object's address observed
    /// (a pointer into an object converted to an integer; two pointers compared equal where
    /// one ends an object and the other starts another). C leaves the layout to the
    /// compiler; the model's fixed layout is only one of them. Handled like UB (reachable:
    /// UNKNOWN).
    AddressObserved,
    /// Not undefined in C, but outside qicc's C library models: a library function called
    /// in a case its model does not cover (a printf conversion of a floating-point value,
    /// strtod of a hexadecimal float, …). Handled like UB (reachable: UNKNOWN).
    Unmodelled,
}

impl UbKind {
    pub const ALL: [UbKind; 14] = [
        UbKind::DivByZero,
        UbKind::DivOverflow,
        UbKind::ShiftOutOfRange,
        UbKind::InvalidWrite,
        UbKind::InvalidFree,
        UbKind::AllocTooLarge,
        UbKind::InvalidCall,
        UbKind::VlaSize,
        UbKind::FloatToInt,
        UbKind::InvalidRead,
        UbKind::BuiltinUndefined,
        UbKind::InvalidPointerUse,
        UbKind::AddressObserved,
        UbKind::Unmodelled,
    ];

    pub fn name(self) -> &'static str {
        match self {
            UbKind::DivByZero => "div-by-zero",
            UbKind::DivOverflow => "div-overflow",
            UbKind::ShiftOutOfRange => "shift-out-of-range",
            UbKind::InvalidWrite => "invalid-write",
            UbKind::InvalidFree => "invalid-free",
            UbKind::AllocTooLarge => "alloc-too-large",
            UbKind::InvalidCall => "invalid-call",
            UbKind::VlaSize => "vla-size",
            UbKind::FloatToInt => "float-to-int",
            UbKind::InvalidRead => "invalid-read",
            UbKind::BuiltinUndefined => "builtin-undefined",
            UbKind::InvalidPointerUse => "invalid-pointer-use",
            UbKind::AddressObserved => "address-observed",
            UbKind::Unmodelled => "unmodelled-library-case",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            UbKind::DivByZero => "division by zero",
            UbKind::DivOverflow => "signed division overflow",
            UbKind::ShiftOutOfRange => "shift by a negative amount or by at least the width",
            UbKind::InvalidWrite => "write outside a live object",
            UbKind::InvalidFree => "free of a pointer that is not the start of a live heap object",
            UbKind::AllocTooLarge => "allocation larger than the memory model's object size limit",
            UbKind::InvalidCall => {
                "call through a pointer that is not a function of the called type"
            }
            UbKind::VlaSize => "variable-length array with a non-positive size",
            UbKind::FloatToInt => {
                "conversion of a float (NaN, or out of range) to an integer type that cannot hold it"
            }
            UbKind::InvalidRead => "read outside a live object",
            UbKind::BuiltinUndefined => {
                "builtin called where it is undefined (__builtin_unreachable reached, clz/ctz of 0)"
            }
            UbKind::InvalidPointerUse => {
                "pointer compared, subtracted or converted while it points into no live object, or pointers into different objects ordered or subtracted"
            }
            UbKind::AddressObserved => {
                "address of an object observed (pointer converted to an integer, or compared with the end of another object): it depends on where the compiler places objects"
            }
            UbKind::Unmodelled => {
                "library function called in a case its model does not cover (printf's floating-point conversions and %n, strtod beyond the exactly rounded cases, …)"
            }
        }
    }

    pub fn from_name(s: &str) -> Option<UbKind> {
        UbKind::ALL.iter().copied().find(|k| k.name() == s)
    }
}

/// The memory-safety sub-properties of SV-COMP (`valid-memsafety` is `Deref`, `Free` and
/// `Memtrack`; `valid-memcleanup` is `Deref`, `Free` and `Memcleanup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MemProp {
    /// Every dereference reads or writes inside a live object (the checks of
    /// [`UbKind::InvalidRead`] and [`UbKind::InvalidWrite`]).
    Deref,
    /// Every `free` is of the start of a live heap object, or null ([`UbKind::InvalidFree`]).
    Free,
    /// When the program ends by returning from its entry function, every live heap object is
    /// reachable from the static objects and globals. The IR's condition for reaching the
    /// assertion (some heap object is still live) over-approximates it; the interpreter
    /// decides the exact one at the `error` edge and blocks when nothing is lost
    /// ([`crate::memory`], "Memory tracking").
    Memtrack,
    /// As `Memtrack`, where the program ends by `exit` or `abort`: every function's frame is
    /// still there, so its locals and stack objects are roots too.
    MemtrackAtHalt,
    /// Every heap object is freed when the program ends (return from the entry, `exit`,
    /// `abort`): exact in the IR.
    Memcleanup,
}

impl MemProp {
    pub const ALL: [MemProp; 5] = [
        MemProp::Deref,
        MemProp::Free,
        MemProp::Memtrack,
        MemProp::MemtrackAtHalt,
        MemProp::Memcleanup,
    ];

    /// The name in IR text (unique per variant).
    pub fn name(self) -> &'static str {
        match self {
            MemProp::Deref => "valid-deref",
            MemProp::Free => "valid-free",
            MemProp::Memtrack => "valid-memtrack",
            MemProp::MemtrackAtHalt => "valid-memtrack-at-halt",
            MemProp::Memcleanup => "valid-memcleanup",
        }
    }

    /// SV-COMP's name of the sub-property (`FALSE(valid-deref)`).
    pub fn sv_name(self) -> &'static str {
        match self {
            MemProp::MemtrackAtHalt => MemProp::Memtrack.name(),
            m => m.name(),
        }
    }

    pub fn from_name(s: &str) -> Option<MemProp> {
        MemProp::ALL.iter().copied().find(|k| k.name() == s)
    }

    /// What a violation is, in words.
    pub fn describe(self) -> &'static str {
        match self {
            MemProp::Deref => "invalid dereference",
            MemProp::Free => "invalid free",
            MemProp::Memtrack | MemProp::MemtrackAtHalt => {
                "memory leak: a heap object is still allocated and no longer reachable when the program ends"
            }
            MemProp::Memcleanup => "heap memory is still allocated when the program ends",
        }
    }
}

/// What an [`Op::Error`] edge stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AssertKind {
    /// A call of `reach_error()` or `__VERIFIER_error()`.
    ReachError,
    /// `__assert_fail`, i.e. a failing `assert` from `<assert.h>`.
    AssertFail,
    /// `__VERIFIER_assert(cond)` with `cond` false.
    VerifierAssert,
    /// A signed integer operation whose result lies outside its type (SV-COMP's
    /// `no-overflow`): an [`Op::NoWrap`] condition or a signed `INT_MIN / -1`, made a property
    /// assertion by [`crate::property::check_overflow`] when that property is checked.
    Overflow,
    /// A conversion to a signed integer type that changes the value (implementation-defined
    /// in C, C11 6.3.1.3p3; CBMC's `--conversion-check`): the front-end asserts each one only
    /// when that property is checked.
    Conversion,
    /// A memory-safety sub-property (SV-COMP's `valid-memsafety`, `valid-memcleanup`), made
    /// a property assertion by [`crate::property::check_memsafety`] when it is checked.
    Memory(MemProp),
    /// Undefined behaviour: reaching it makes the program's meaning undefined, so it can never
    /// give a FALSE verdict for `unreach-call`, but a TRUE verdict needs it unreachable.
    Ub(UbKind),
}

impl AssertKind {
    pub fn name(self) -> &'static str {
        match self {
            AssertKind::ReachError => "reach_error",
            AssertKind::AssertFail => "assert",
            AssertKind::VerifierAssert => "verifier_assert",
            AssertKind::Overflow => "overflow",
            AssertKind::Conversion => "conversion",
            AssertKind::Memory(m) => m.name(),
            AssertKind::Ub(k) => k.name(),
        }
    }

    pub fn from_name(s: &str) -> Option<AssertKind> {
        match s {
            "reach_error" => Some(AssertKind::ReachError),
            "assert" => Some(AssertKind::AssertFail),
            "verifier_assert" => Some(AssertKind::VerifierAssert),
            "overflow" => Some(AssertKind::Overflow),
            "conversion" => Some(AssertKind::Conversion),
            _ => MemProp::from_name(s)
                .map(AssertKind::Memory)
                .or_else(|| UbKind::from_name(s).map(AssertKind::Ub)),
        }
    }

    /// Whether reaching it violates the property being checked (as opposed to UB): the
    /// `unreach-call` kinds, or [`AssertKind::Overflow`] and [`AssertKind::Memory`] (present
    /// only when their property is checked).
    pub fn is_property(self) -> bool {
        !matches!(self, AssertKind::Ub(_))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assertion {
    pub kind: AssertKind,
    pub func: FuncId,
    pub span: Span,
    /// The asserted condition as written, when the front-end knows it.
    pub text: Option<String>,
}

/// The file name the C library's models (`__qicc_NAME`, with bodies) carry in spans.
pub const LIBRARY_MODELS_FILE: &str = "<qicc libc>";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Program {
    pub data_model: DataModel,
    pub layout: MemoryLayout,
    pub files: Vec<String>,
    /// Static objects; `ObjectId(i)` is `objects[i - 1]`.
    pub objects: Vec<Object>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    pub assertions: Vec<Assertion>,
    pub entry: FuncId,
    /// Source types for display only ([`crate::debug`]): no engine reads them.
    #[serde(default)]
    pub debug_types: crate::DebugTypes,
}

impl Program {
    pub fn new(data_model: DataModel) -> Program {
        Program {
            data_model,
            layout: data_model.default_layout(),
            files: Vec::new(),
            objects: Vec::new(),
            globals: Vec::new(),
            functions: Vec::new(),
            assertions: Vec::new(),
            entry: FuncId(0),
            debug_types: crate::DebugTypes::default(),
        }
    }

    /// Whether `f` is one of the C library's models (defined in [`LIBRARY_MODELS_FILE`]).
    pub fn is_library_model(&self, f: &Function) -> bool {
        f.span.is_known()
            && self
                .files
                .get(f.span.file as usize)
                .is_some_and(|n| n == LIBRARY_MODELS_FILE)
    }

    pub fn pointer_ty(&self) -> Ty {
        self.layout.pointer_ty()
    }

    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }

    pub fn function_mut(&mut self, id: FuncId) -> &mut Function {
        &mut self.functions[id.index()]
    }

    pub fn function_ids(&self) -> impl Iterator<Item = FuncId> {
        (0..self.functions.len() as u32).map(FuncId)
    }

    pub fn find_function(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }

    pub fn object(&self, id: ObjectId) -> Option<&Object> {
        (id.0 as usize)
            .checked_sub(1)
            .and_then(|i| self.objects.get(i))
    }

    pub fn add_object(&mut self, object: Object) -> ObjectId {
        self.objects.push(object);
        ObjectId(self.objects.len() as u32)
    }

    pub fn add_global(&mut self, global: Global) -> GlobalId {
        self.globals.push(global);
        GlobalId(self.globals.len() as u32 - 1)
    }

    pub fn add_function(&mut self, function: Function) -> FuncId {
        self.functions.push(function);
        FuncId(self.functions.len() as u32 - 1)
    }

    pub fn add_assertion(&mut self, assertion: Assertion) -> AssertionId {
        self.assertions.push(assertion);
        AssertionId(self.assertions.len() as u32 - 1)
    }

    pub fn assertion(&self, id: AssertionId) -> &Assertion {
        &self.assertions[id.index()]
    }

    /// How reports name an assertion to people: the program's assertions `#1`, `#2`, ... and
    /// its undefined-behaviour checks `ub#1`, `ub#2`, ..., each in program order (the ids mix
    /// both; JSON keeps the id).
    pub fn assertion_label(&self, id: AssertionId) -> String {
        let Some(a) = self.assertions.get(id.index()) else {
            return format!("{id}");
        };
        let property = a.kind.is_property();
        let n = self.assertions[..id.index()]
            .iter()
            .filter(|b| b.kind.is_property() == property)
            .count()
            + 1;
        if property {
            format!("#{n}")
        } else {
            format!("ub#{n}")
        }
    }

    pub fn assertion_ids(&self) -> impl Iterator<Item = AssertionId> {
        (0..self.assertions.len() as u32).map(AssertionId)
    }

    pub fn add_file(&mut self, name: &str) -> u16 {
        if let Some(i) = self.files.iter().position(|f| f == name) {
            return i as u16;
        }
        self.files.push(name.to_string());
        self.files.len() as u16 - 1
    }

    /// `file:line:col` for messages (the file's base name is kept as given).
    pub fn span_str(&self, span: Span) -> String {
        let file = self
            .files
            .get(span.file as usize)
            .map(String::as_str)
            .unwrap_or("?");
        if span.is_known() {
            format!("{file}:{}:{}", span.line, span.col)
        } else {
            file.to_string()
        }
    }

    /// Type environment of one function (its locals and the program's globals).
    pub fn env<'a>(&'a self, func: &'a Function) -> FnEnv<'a> {
        FnEnv {
            program: self,
            func,
        }
    }

    pub fn global_ty(&self, id: GlobalId) -> Ty {
        self.globals[id.index()].ty
    }
}

/// The [`TypeEnv`] of a function inside its program.
#[derive(Clone, Copy)]
pub struct FnEnv<'a> {
    pub program: &'a Program,
    pub func: &'a Function,
}

impl TypeEnv for FnEnv<'_> {
    fn var_ty(&self, v: VarRef) -> Ty {
        match v {
            VarRef::Local(l) => self.func.locals[l.index()].ty,
            VarRef::Global(g) => self.program.globals[g.index()].ty,
        }
    }

    fn pointer_ty(&self) -> Ty {
        self.program.pointer_ty()
    }
}

/// The name prefix of the functions the front-end links in from its models of the C library
/// (`qicc_frontend`'s `clib`: `strlen` is modelled by `__qicc_strlen`).
pub const LIBRARY_MODEL_PREFIX: &str = "__qicc_";

/// The name prefix of the front-end's stubs for functions without a body (`extern.f` stands
/// for the calls of `f`: it makes globals, memory and the result arbitrary).
pub const EXTERN_STUB_PREFIX: &str = "extern.";

/// The name of the [`HavocKind::Platform`] choice of a computed NaN's sign and payload, which
/// IEEE 754 leaves to the implementation (the front-end makes it where a float operation
/// produces a NaN): a choice of the platform, not of a missing function body.
pub const COMPUTED_NAN: &str = "computed NaN";

/// The type part of an input function's name: `int` for SV-COMP's `__VERIFIER_nondet_int`
/// and for CBMC's and ESBMC's `nondet_int` (a body-less `nondet_…` is an input there, as
/// both tools define it); `None` for any other function. Inputs are no body-less functions:
/// a counterexample may choose their values.
pub fn input_function_type(name: &str) -> Option<&str> {
    name.strip_prefix("__VERIFIER_nondet_")
        .or_else(|| name.strip_prefix("nondet_"))
        .filter(|t| !t.is_empty())
}

impl Function {
    /// Whether this is one of the front-end's C library models ([`LIBRARY_MODEL_PREFIX`]).
    pub fn is_library_model(&self) -> bool {
        self.name.starts_with(LIBRARY_MODEL_PREFIX)
    }

    /// A function with the four special locations `entry` (L0), `exit` (L1), `err` (L2) and
    /// `halt` (L3) and nothing else.
    pub fn new(name: impl Into<String>, span: Span) -> Function {
        Function {
            name: name.into(),
            params: Vec::new(),
            ret: None,
            locals: Vec::new(),
            num_locs: 4,
            entry: Loc(0),
            exit: Loc(1),
            err: Loc(2),
            halt: Loc(3),
            edges: Vec::new(),
            span,
            end: Span::UNKNOWN,
        }
    }

    pub fn new_loc(&mut self) -> Loc {
        self.num_locs += 1;
        Loc(self.num_locs - 1)
    }

    pub fn locs(&self) -> impl Iterator<Item = Loc> {
        (0..self.num_locs).map(Loc)
    }

    pub fn add_local(&mut self, name: impl Into<String>, ty: Ty) -> LocalId {
        self.locals.push(Local {
            name: name.into(),
            ty,
            unsigned: false,
            scope: None,
            debug_type: None,
        });
        LocalId(self.locals.len() as u32 - 1)
    }

    pub fn local(&self, id: LocalId) -> &Local {
        &self.locals[id.index()]
    }

    pub fn find_local(&self, name: &str) -> Option<LocalId> {
        self.locals
            .iter()
            .position(|l| l.name == name)
            .map(|i| LocalId(i as u32))
    }

    pub fn add_edge(&mut self, from: Loc, to: Loc, op: Op, span: Span) -> EdgeId {
        self.edges.push(Edge { from, to, op, span });
        EdgeId(self.edges.len() as u32 - 1)
    }

    pub fn edge(&self, id: EdgeId) -> &Edge {
        &self.edges[id.index()]
    }

    pub fn edge_ids(&self) -> impl Iterator<Item = EdgeId> {
        (0..self.edges.len() as u32).map(EdgeId)
    }

    pub fn is_final(&self, loc: Loc) -> bool {
        loc == self.exit || loc == self.err || loc == self.halt
    }

    /// Outgoing edges of every location, in edge order.
    pub fn successors(&self) -> Vec<Vec<EdgeId>> {
        let mut out = vec![Vec::new(); self.num_locs as usize];
        for (i, e) in self.edges.iter().enumerate() {
            out[e.from.index()].push(EdgeId(i as u32));
        }
        out
    }

    /// Incoming edges of every location, in edge order.
    pub fn predecessors(&self) -> Vec<Vec<EdgeId>> {
        let mut out = vec![Vec::new(); self.num_locs as usize];
        for (i, e) in self.edges.iter().enumerate() {
            out[e.to.index()].push(EdgeId(i as u32));
        }
        out
    }

    /// The prologue chain: the locations every activation passes exactly once, in order, before
    /// anything else. It starts at `entry` when `entry` has no predecessors (else it is just
    /// `[entry]` and has no edges), and goes on while a location has exactly one outgoing edge
    /// whose target has exactly one predecessor and is not on the chain yet. Each edge leaving
    /// a chain location runs once per activation and dominates every location past it.
    pub fn prologue_chain(&self) -> Vec<Loc> {
        let succ = self.successors();
        let pred = self.predecessors();
        let mut chain = vec![self.entry];
        if !pred[self.entry.index()].is_empty() {
            return chain;
        }
        let mut at = self.entry;
        while let [e] = succ[at.index()].as_slice() {
            let to = self.edges[e.index()].to;
            if pred[to.index()].len() != 1 || chain.contains(&to) {
                break;
            }
            at = to;
            chain.push(at);
        }
        chain
    }

    /// The functions this one calls, in first-call order.
    pub fn callees(&self) -> Vec<FuncId> {
        let mut out = Vec::new();
        for e in &self.edges {
            if let Op::Call { callee, .. } = &e.op {
                if !out.contains(callee) {
                    out.push(*callee);
                }
            }
        }
        out
    }
}

impl Op {
    /// Calls `f` on each expression the operation evaluates.
    pub fn exprs(&self, f: &mut dyn FnMut(&Expr)) {
        match self {
            Op::Havoc(_, HavocKind::Applied { args, .. }) => args.iter().for_each(|a| f(a)),
            Op::Skip
            | Op::Havoc(..)
            | Op::HavocMemory
            | Op::HavocContents
            | Op::Error(_)
            | Op::Halt(None) => {}
            Op::Assign(_, e) | Op::Assume(e) | Op::Free(e) | Op::Halt(Some(e)) => f(e),
            Op::Store { addr, value, .. } => {
                f(addr);
                f(value);
            }
            Op::Alloc { size, .. } => f(size),
            Op::NoWrap(e) => f(e),
            Op::HavocBytes { dst, len } => {
                f(dst);
                f(len);
            }
            Op::MemCopy { dst, src, len } => {
                f(dst);
                f(src);
                f(len);
            }
            Op::MemSet { dst, byte, len } => {
                f(dst);
                f(byte);
                f(len);
            }
            Op::Call { args, .. } => args.iter().for_each(|a| f(a)),
        }
    }

    /// Applies `f` to each expression the operation evaluates.
    pub fn map_exprs(&self, f: &mut dyn FnMut(&Expr) -> Expr) -> Op {
        match self {
            Op::Havoc(
                v,
                HavocKind::Applied {
                    name,
                    args,
                    reads_memory,
                },
            ) => Op::Havoc(
                *v,
                HavocKind::Applied {
                    name: name.clone(),
                    args: args.iter().map(|a| f(a)).collect(),
                    reads_memory: *reads_memory,
                },
            ),
            Op::Skip
            | Op::Havoc(..)
            | Op::HavocMemory
            | Op::HavocContents
            | Op::Error(_)
            | Op::Halt(None) => self.clone(),
            Op::Assign(v, e) => Op::Assign(*v, f(e)),
            Op::Assume(e) => Op::Assume(f(e)),
            Op::NoWrap(e) => Op::NoWrap(f(e)),
            Op::HavocBytes { dst, len } => Op::HavocBytes {
                dst: f(dst),
                len: f(len),
            },
            Op::Free(e) => Op::Free(f(e)),
            Op::Halt(Some(e)) => Op::Halt(Some(f(e))),
            Op::Store { ty, addr, value } => Op::Store {
                ty: *ty,
                addr: f(addr),
                value: f(value),
            },
            Op::Alloc { dst, size, kind } => Op::Alloc {
                dst: *dst,
                size: f(size),
                kind: *kind,
            },
            Op::MemCopy { dst, src, len } => Op::MemCopy {
                dst: f(dst),
                src: f(src),
                len: f(len),
            },
            Op::MemSet { dst, byte, len } => Op::MemSet {
                dst: f(dst),
                byte: f(byte),
                len: f(len),
            },
            Op::Call { dst, callee, args } => Op::Call {
                dst: *dst,
                callee: *callee,
                args: args.iter().map(|a| f(a)).collect(),
            },
        }
    }

    /// The variable the operation writes, if any.
    pub fn def(&self) -> Option<VarRef> {
        match self {
            Op::Assign(v, _) | Op::Havoc(v, _) => Some(*v),
            Op::Alloc { dst, .. } => Some(*dst),
            Op::Call { dst, .. } => *dst,
            _ => None,
        }
    }

    /// Whether the operation may change memory (contents or the object table).
    pub fn writes_memory(&self) -> bool {
        matches!(
            self,
            Op::Store { .. }
                | Op::Alloc { .. }
                | Op::Free(_)
                | Op::MemCopy { .. }
                | Op::MemSet { .. }
                | Op::HavocBytes { .. }
                | Op::HavocMemory
                | Op::HavocContents
        )
    }
}
