//! The random program generator.
//!
//! A [`Program`] is built from a seed by a deterministic PRNG ([`Rng`], splitmix64). Every
//! generated program is free of undefined behaviour *by construction*: the generator keeps a
//! sound interval for every storage cell (scalar, array as a whole, struct field, global) and
//! for every expression, and rewrites an operand with a mask (`(e & 0xff)`) whenever a signed
//! `+ - * << /` could overflow. Divisors are guarded (`(d == 0 ? 1 : d)`), shift amounts
//! masked to `& 7`, array indices masked or reduced modulo the length, every object written
//! before it is read, loops bounded by constants (≤ 4) or by small input-derived counters,
//! recursion bounded by a masked argument. Loops and branches are handled conservatively: a
//! loop chooses beforehand which cells its body may write and those cells are widened to
//! their type's full range; the two arms of an `if` are joined.
//!
//! Assertions come in two kinds: *slots* (placeholders filled in after generation, once
//! probe runs of the interpreter have told the minimum and maximum value the asserted
//! expression takes over all inputs, see [`crate::build`]) and *interval assertions* taken
//! from the generator's own interval of a cell (meant to hold; the ground truth decides).
//!
//! Not generated, on purpose (known engine bugs being fixed elsewhere): negation of values
//! near `INT_MIN`, signed overflow. Undefined behaviour on purpose — reads past arrays and
//! after `free` or a block's end, pointer-to-integer casts, `free` of locals, pointer order
//! across objects — comes from the hazards `crate::build` adds to some programs afterwards;
//! so do floating-point blocks and calls of body-less `const`/`pure` functions. A quarter of
//! the programs are generated for ILP32 (`long` 32 bits: [`LONG_BITS`]).

use std::fmt::Write as _;

/// splitmix64: small, fast, and the same stream on every platform.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5151_ecc0_f022_2026)
    }
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
    /// True with probability `pct` %.
    pub fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

thread_local! {
    /// The width of `long` in the program being generated on this thread: 64 (LP64) or 32
    /// (ILP32). [`generate`] sets it from the seed before it builds anything; every width,
    /// range and conversion of [`Ty`] follows it. A thread-local rather than a parameter of
    /// every `Ty` method because only this one width depends on the data model, and the
    /// generator is single-threaded per program.
    static LONG_BITS: std::cell::Cell<u32> = const { std::cell::Cell::new(64) };
}

/// How many programs in 100 are generated for ILP32 (`long` 32 bits, pointers 4 bytes; the
/// engines get the `--32` data model and gcc `-m32`).
const ILP32_PERCENT: u64 = 25;

/// The C integer types the generator uses (plain `char` is signed; `long` is 64 bits on
/// LP64, 32 on ILP32: see [`LONG_BITS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LLong,
    ULLong,
}

pub const ALL_TYS: [Ty; 11] = [
    Ty::Char,
    Ty::SChar,
    Ty::UChar,
    Ty::Short,
    Ty::UShort,
    Ty::Int,
    Ty::UInt,
    Ty::Long,
    Ty::ULong,
    Ty::LLong,
    Ty::ULLong,
];

impl Ty {
    pub fn bits(self) -> u32 {
        match self {
            Ty::Char | Ty::SChar | Ty::UChar => 8,
            Ty::Short | Ty::UShort => 16,
            Ty::Int | Ty::UInt => 32,
            Ty::Long | Ty::ULong => LONG_BITS.with(|b| b.get()),
            Ty::LLong | Ty::ULLong => 64,
        }
    }
    pub fn signed(self) -> bool {
        matches!(
            self,
            Ty::Char | Ty::SChar | Ty::Short | Ty::Int | Ty::Long | Ty::LLong
        )
    }
    fn rank(self) -> u8 {
        match self {
            Ty::Char | Ty::SChar | Ty::UChar => 1,
            Ty::Short | Ty::UShort => 2,
            Ty::Int | Ty::UInt => 3,
            Ty::Long | Ty::ULong => 4,
            Ty::LLong | Ty::ULLong => 5,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Ty::Char => "char",
            Ty::SChar => "signed char",
            Ty::UChar => "unsigned char",
            Ty::Short => "short",
            Ty::UShort => "unsigned short",
            Ty::Int => "int",
            Ty::UInt => "unsigned int",
            Ty::Long => "long",
            Ty::ULong => "unsigned long",
            Ty::LLong => "long long",
            Ty::ULLong => "unsigned long long",
        }
    }
    pub fn min(self) -> i128 {
        if self.signed() {
            -(1i128 << (self.bits() - 1))
        } else {
            0
        }
    }
    pub fn max(self) -> i128 {
        if self.signed() {
            (1i128 << (self.bits() - 1)) - 1
        } else {
            (1i128 << self.bits()) - 1
        }
    }
    fn full(self) -> Iv {
        Iv {
            lo: self.min(),
            hi: self.max(),
        }
    }
    fn unsigned_of(self) -> Ty {
        match self {
            Ty::Char | Ty::SChar => Ty::UChar,
            Ty::Short => Ty::UShort,
            Ty::Int => Ty::UInt,
            Ty::Long => Ty::ULong,
            Ty::LLong => Ty::ULLong,
            t => t,
        }
    }
    /// Integer promotion.
    pub fn promote(self) -> Ty {
        if self.rank() < 3 {
            Ty::Int
        } else {
            self
        }
    }
    /// The `__VERIFIER_nondet_*` suffix of an input of this type.
    pub fn nondet_suffix(self) -> Option<&'static str> {
        Some(match self {
            Ty::Char => "char",
            Ty::UChar => "uchar",
            Ty::Short => "short",
            Ty::UShort => "ushort",
            Ty::Int => "int",
            Ty::UInt => "uint",
            Ty::Long => "long",
            Ty::ULong => "ulong",
            _ => return None,
        })
    }
}

/// Usual arithmetic conversions.
pub fn conv(a: Ty, b: Ty) -> Ty {
    let (a, b) = (a.promote(), b.promote());
    if a == b {
        return a;
    }
    if a.signed() == b.signed() {
        return if a.rank() >= b.rank() { a } else { b };
    }
    let (u, s) = if a.signed() { (b, a) } else { (a, b) };
    if u.rank() >= s.rank() {
        u
    } else if s.bits() > u.bits() {
        s
    } else {
        s.unsigned_of()
    }
}

/// A closed interval of mathematical integers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Iv {
    pub lo: i128,
    pub hi: i128,
}

impl Iv {
    pub fn point(v: i128) -> Iv {
        Iv { lo: v, hi: v }
    }
    fn join(self, o: Iv) -> Iv {
        Iv {
            lo: self.lo.min(o.lo),
            hi: self.hi.max(o.hi),
        }
    }
    fn fits(self, t: Ty) -> bool {
        self.lo >= t.min() && self.hi <= t.max()
    }
    /// The value after conversion to `t` (modular when it does not fit).
    fn convert(self, t: Ty) -> Iv {
        if self.fits(t) {
            self
        } else {
            t.full()
        }
    }
    fn maxabs(self) -> i128 {
        self.lo.abs().max(self.hi.abs())
    }
}

/// An expression with its type and a sound interval of its value.
#[derive(Clone, Debug)]
struct E {
    s: String,
    ty: Ty,
    iv: Iv,
}

/// A C literal of value `v` with type `t` (or, for types without literals, a cast).
pub fn lit(v: i128, t: Ty) -> String {
    let suffix = match t {
        Ty::UInt => "u",
        Ty::Long => "L",
        Ty::ULong => "UL",
        Ty::LLong => "LL",
        Ty::ULLong => "ULL",
        _ => "",
    };
    let body = if v < 0 {
        if v == t.min() && t.bits() >= 32 {
            format!("(-{}{suffix} - 1)", -(v + 1))
        } else {
            format!("(-{}{suffix})", -v)
        }
    } else {
        format!("{v}{suffix}")
    };
    match t {
        Ty::Int | Ty::UInt | Ty::Long | Ty::ULong | Ty::LLong | Ty::ULLong => body,
        _ => format!("(({}){body})", t.name()),
    }
}

#[derive(Clone, Debug)]
struct Cell {
    ty: Ty,
    iv: Iv,
    writable: bool,
    /// Several elements share this cell: writes join.
    weak: bool,
}

#[derive(Clone, Debug)]
enum AccKind {
    /// `x`, `s.f`, `p->f`, `(*p)`.
    Plain(String),
    /// `base[index]` with `len` elements.
    Indexed(String, u32),
}

/// What an access names, for taking its address.
#[derive(Clone, Debug, PartialEq)]
enum Obj {
    None,
    /// A scalar variable.
    Var,
    /// A whole array object (its name is the access's base).
    Array,
}

#[derive(Clone, Debug)]
struct Access {
    kind: AccKind,
    cell: usize,
    obj: Obj,
}

#[derive(Clone, Debug)]
struct StructTy {
    name: String,
    /// (field name, type, array length if an array field)
    fields: Vec<(String, Ty, Option<u32>)>,
}

#[derive(Clone, Debug)]
struct StructObj {
    name: String,
    sidx: usize,
    /// Cell of each field.
    cells: Vec<usize>,
}

#[derive(Clone, Debug)]
struct Func {
    name: String,
    ret: Ty,
    ret_iv: Iv,
    /// Per parameter: type and, if restricted, the mask the caller applies.
    params: Vec<(Ty, Option<u32>)>,
    /// A first parameter `T *q` the helper writes through (called as a statement only).
    ptr: Option<Ty>,
}

/// The innermost construct a `break` or `continue` would leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctx {
    /// `for`: `break` and `continue` are fine.
    For,
    /// `while`/`do` with the counter increment at the end of the body: `break` only.
    Counted,
    /// A `switch` case: neither (a `break` would leave the case with a state the
    /// interval join at the end of the case does not see).
    Switch,
}

/// An input of the program: `T x = __VERIFIER_nondet_T(); __VERIFIER_assume(lo <= x && x <= hi);`.
#[derive(Clone, Debug)]
pub struct Input {
    pub name: String,
    pub ty: Ty,
    pub lo: i64,
    pub hi: i64,
}

/// An assertion placeholder: `expr` has type `int` or `unsigned int`.
#[derive(Clone, Debug)]
pub struct Slot {
    pub expr: String,
    pub unsigned: bool,
}

/// A generated program before its slots are filled.
#[derive(Clone, Debug)]
pub struct Skeleton {
    pub seed: u64,
    pub inputs: Vec<Input>,
    pub slots: Vec<Slot>,
    /// Struct declarations, globals and helper functions (with slot markers).
    pub decls: String,
    /// The body of `main` (with slot markers), without the braces.
    pub main_body: String,
    /// Where in `main_body` the statements after the inputs' declarations start.
    pub main_after_inputs: usize,
    /// `__VERIFIER_nondet_*` suffixes used.
    pub nondets: Vec<&'static str>,
    /// Generated for ILP32 (see [`LONG_BITS`]): verified with `--32`, compiled with `-m32`.
    pub ilp32: bool,
}

/// The marker of slot `k` in the generated text.
pub fn slot_marker(k: usize) -> String {
    format!("/*@SLOT{k}@*/")
}

struct Gen {
    rng: Rng,
    out: String,
    indent: usize,
    cells: Vec<Cell>,
    accs: Vec<Access>,
    sobjs: Vec<StructObj>,
    structs: Vec<StructTy>,
    funcs: Vec<Func>,
    /// Functions callable from the code being generated (helpers may call earlier ones).
    callable: usize,
    slots: Vec<Slot>,
    max_slots: usize,
    names: u32,
    loop_depth: u32,
    /// Set when an operand was masked (compound assignment then becomes explicit).
    masked: bool,
    budget: i32,
    /// Nesting of indices and call arguments inside expressions.
    nest: u32,
    /// Depth of the expressions of assignments, conditions and initialisers.
    depth: u32,
    ctx: Vec<Ctx>,
    /// Generating a `void` helper.
    void_fn: bool,
}

/// How large the generated programs are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Statements of `main` (a loop or `if` counts once, its body counts too).
    pub statements: (i64, i64),
    /// Depth of the expressions of assignments, conditions and initialisers.
    pub expr_depth: u32,
    /// Helper functions (besides an optional recursive one): `0..helpers`.
    pub helpers: u64,
    /// How many programs in 100 get a floating-point block (`crate::build`).
    pub float_percent: u64,
}

impl Profile {
    /// For the CI test: small programs that every engine decides quickly.
    pub const SMALL: Profile = Profile {
        statements: (3, 8),
        expr_depth: 2,
        helpers: 2,
        float_percent: 10,
    };
    /// For the CI test: [`Profile::SMALL`] without floating-point blocks. One CI-style run of
    /// 440 programs with them crashed inside Z3 (`smt::context::cache_generation`, SIGSEGV,
    /// in a `qicc-j1` worker, not reproduced in two more runs nor in a 300-program campaign);
    /// until that is understood, the float programs run in campaigns only.
    pub const CI: Profile = Profile {
        float_percent: 0,
        ..Profile::SMALL
    };
    /// For campaigns.
    pub const NORMAL: Profile = Profile {
        statements: (5, 12),
        expr_depth: 2,
        helpers: 3,
        float_percent: 10,
    };
}

impl Gen {
    fn fresh(&mut self, p: &str) -> String {
        self.names += 1;
        format!("{p}{}", self.names)
    }
    fn line(&mut self, s: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(s);
        self.out.push('\n');
    }
    /// A cell the program reads through `kind` but never writes (loop counters, constant
    /// globals and arrays, the recursion depth): added with its access.
    fn read_only_cell(&mut self, ty: Ty, iv: Iv, weak: bool, kind: AccKind, obj: Obj) -> usize {
        let c = self.add_cell(ty, iv, weak);
        self.cells[c].writable = false;
        self.accs.push(Access { kind, cell: c, obj });
        c
    }

    fn add_cell(&mut self, ty: Ty, iv: Iv, weak: bool) -> usize {
        self.cells.push(Cell {
            ty,
            iv,
            writable: true,
            weak,
        });
        self.cells.len() - 1
    }
    fn scope(&self) -> (usize, usize, usize) {
        (self.cells.len(), self.accs.len(), self.sobjs.len())
    }
    fn close(&mut self, s: (usize, usize, usize)) {
        self.cells.truncate(s.0);
        self.accs.truncate(s.1);
        self.sobjs.truncate(s.2);
    }

    fn any_ty(&mut self) -> Ty {
        // Favour int and the unsigned types (where arithmetic is unrestricted).
        match self.rng.below(16) {
            0..=3 => Ty::Int,
            4..=6 => Ty::UInt,
            7 => Ty::UChar,
            8 => Ty::Char,
            9 => Ty::Short,
            10 => Ty::UShort,
            11 => Ty::Long,
            12 => Ty::ULong,
            13 => Ty::LLong,
            14 => Ty::ULLong,
            _ => Ty::SChar,
        }
    }

    // ---------------------------------------------------------------- expressions

    fn literal(&mut self) -> E {
        let ty = match self.rng.below(10) {
            0..=5 => Ty::Int,
            6 | 7 => Ty::UInt,
            8 => Ty::Long,
            _ => Ty::ULong,
        };
        let v: i128 = match self.rng.below(10) {
            0..=5 => self.rng.range(0, 20) as i128,
            6 => self.rng.range(20, 300) as i128,
            7 => self
                .rng
                .pick(&[127i128, 128, 255, 256, 1000, 0x7fff, 0xffff, 65536]),
            8 if ty.signed() => -(self.rng.range(1, 20) as i128),
            _ if !ty.signed() && self.rng.chance(30) => ty.max() - self.rng.range(0, 3) as i128,
            _ => self.rng.range(0, 9) as i128,
        };
        E {
            s: lit(v, ty),
            ty,
            iv: Iv::point(v),
        }
    }

    fn index(&mut self, len: u32) -> String {
        self.nest += 1;
        let e = self.expr(1);
        self.nest -= 1;
        // Near the bounds (the last or first two elements), where an engine's read check
        // must still prove the access inside the object (issue 28: reads are checked).
        if len >= 2 && self.rng.chance(20) {
            return if self.rng.chance(50) {
                format!("({} - (({}) & 1))", len - 1, e.s)
            } else {
                format!("(({}) & 1)", e.s)
            };
        }
        if e.iv.lo >= 0 && e.iv.hi < len as i128 {
            e.s
        } else if len.is_power_of_two() {
            format!("(({}) & {})", e.s, len - 1)
        } else {
            format!("((unsigned)({}) % {len}u)", e.s)
        }
    }

    fn access_text(&mut self, a: usize) -> String {
        match self.accs[a].kind.clone() {
            AccKind::Plain(s) => s,
            AccKind::Indexed(b, len) => {
                let i = self.index(len);
                format!("{b}[{i}]")
            }
        }
    }

    fn read(&mut self) -> Option<E> {
        // Deep inside indices and arguments: plain accesses only (bounded recursion).
        let cands: Vec<usize> = (0..self.accs.len())
            .filter(|&a| self.nest < 2 || matches!(self.accs[a].kind, AccKind::Plain(_)))
            .collect();
        if cands.is_empty() {
            return None;
        }
        let a = cands[self.rng.below(cands.len() as u64) as usize];
        let c = self.accs[a].cell;
        let s = self.access_text(a);
        Some(E {
            s,
            ty: self.cells[c].ty,
            iv: self.cells[c].iv,
        })
    }

    fn call(&mut self) -> Option<E> {
        let pure: Vec<usize> = (0..self.callable)
            .filter(|&k| self.funcs[k].ptr.is_none())
            .collect();
        if pure.is_empty() {
            return None;
        }
        let f = self.funcs[pure[self.rng.below(pure.len() as u64) as usize]].clone();
        let mut args = Vec::new();
        for (t, mask) in &f.params {
            self.nest += 1;
            let a = self.expr(1);
            self.nest -= 1;
            args.push(match mask {
                Some(m) => format!("({}) & {m}", a.s),
                None if self.rng.chance(30) => format!("({}){}", t.name(), a.s),
                None => a.s,
            });
        }
        Some(E {
            s: format!("{}({})", f.name, args.join(", ")),
            ty: f.ret,
            iv: f.ret_iv,
        })
    }

    fn leaf(&mut self) -> E {
        let r = self.rng.below(100);
        if r < 12 {
            return self.literal();
        }
        if (12..15).contains(&r) && self.nest < 2 {
            return self.builtin();
        }
        if r < 20 && self.nest < 2 {
            if let Some(e) = self.call() {
                return e;
            }
        }
        self.read().unwrap_or_else(|| self.literal())
    }

    /// A call of a GCC builtin qicc models, over an operand of any value (the operand of
    /// `clz`/`ctz` is made non-zero: 0 is undefined there); the result's range holds for
    /// every operand.
    fn builtin(&mut self) -> E {
        self.nest += 1;
        let a = self.expr(1);
        self.nest -= 1;
        let (s, hi) = match self.rng.below(6) {
            0 => (format!("__builtin_popcount((unsigned)({}))", a.s), 32),
            1 => (
                format!("__builtin_parityll((unsigned long long)({}))", a.s),
                1,
            ),
            2 => (format!("__builtin_ffs((int)({}))", a.s), 32),
            3 => (format!("__builtin_clz((unsigned)({}) | 1u)", a.s), 31),
            4 => (
                format!("__builtin_ctzll((unsigned long long)({}) | 0x100ull)", a.s),
                8,
            ),
            _ => (
                format!("(int)__builtin_bswap16((unsigned short)({}))", a.s),
                65535,
            ),
        };
        E {
            s,
            ty: Ty::Int,
            iv: Iv { lo: 0, hi },
        }
    }

    fn mask(&mut self, e: E) -> E {
        self.masked = true;
        let m: i128 = self.rng.pick(&[0xf, 0x7f, 0xff]);
        E {
            s: format!("(({}) & {m:#x})", e.s),
            ty: conv(e.ty, Ty::Int),
            iv: Iv { lo: 0, hi: m },
        }
    }

    fn expr(&mut self, depth: u32) -> E {
        if depth == 0 || self.rng.chance(25) {
            return self.leaf();
        }
        let d = depth - 1;
        match self.rng.below(22) {
            0..=2 => {
                let (a, b) = (self.expr(d), self.expr(d));
                self.arith('+', a, b)
            }
            3 | 4 => {
                let (a, b) = (self.expr(d), self.expr(d));
                self.arith('-', a, b)
            }
            5 | 6 => {
                let (a, b) = (self.expr(d), self.expr(d));
                self.arith('*', a, b)
            }
            7 | 8 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = if self.rng.chance(50) { '/' } else { '%' };
                self.divmod(op, a, b)
            }
            9 | 10 => {
                let (a, b) = (self.expr(d), self.expr(d.min(1)));
                let left = self.rng.chance(50);
                self.shift(left, a, b)
            }
            11 | 12 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&['&', '|', '^']);
                self.bitwise(op, a, b)
            }
            13 | 14 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = self.rng.pick(&["<", "<=", ">", ">=", "==", "!="]);
                E {
                    s: format!("({} {op} {})", a.s, b.s),
                    ty: Ty::Int,
                    iv: Iv { lo: 0, hi: 1 },
                }
            }
            15 => {
                let (a, b) = (self.expr(d), self.expr(d));
                let op = if self.rng.chance(50) { "&&" } else { "||" };
                E {
                    s: format!("({} {op} {})", a.s, b.s),
                    ty: Ty::Int,
                    iv: Iv { lo: 0, hi: 1 },
                }
            }
            16 => {
                let a = self.expr(d);
                match self.rng.below(3) {
                    0 => E {
                        s: format!("(!{})", a.s),
                        ty: Ty::Int,
                        iv: Iv { lo: 0, hi: 1 },
                    },
                    1 => self.neg(a),
                    _ => self.bitnot(a),
                }
            }
            17 | 18 => {
                let a = self.expr(d);
                let t = self.any_ty();
                E {
                    s: format!("(({}){})", t.name(), a.s),
                    ty: t,
                    iv: a.iv.convert(t),
                }
            }
            _ => {
                let c = self.expr(d.min(1));
                let (a, b) = (self.expr(d), self.expr(d));
                let t = conv(a.ty, b.ty);
                E {
                    s: format!("({} ? {} : {})", c.s, a.s, b.s),
                    ty: t,
                    iv: a.iv.convert(t).join(b.iv.convert(t)),
                }
            }
        }
    }

    fn arith(&mut self, op: char, a: E, b: E) -> E {
        let t = conv(a.ty, b.ty);
        let (x, y) = (a.iv.convert(t), b.iv.convert(t));
        let r = match op {
            '+' => x.lo.checked_add(y.lo).zip(x.hi.checked_add(y.hi)),
            '-' => x.lo.checked_sub(y.hi).zip(x.hi.checked_sub(y.lo)),
            _ => {
                let ps = [
                    x.lo.checked_mul(y.lo),
                    x.lo.checked_mul(y.hi),
                    x.hi.checked_mul(y.lo),
                    x.hi.checked_mul(y.hi),
                ];
                if ps.iter().all(|p| p.is_some()) {
                    let ps: Vec<i128> = ps.iter().flatten().copied().collect();
                    let lo = ps.iter().copied().min().unwrap_or(0);
                    let hi = ps.iter().copied().max().unwrap_or(0);
                    Some((lo, hi))
                } else {
                    None
                }
            }
        }
        .map(|(lo, hi)| Iv { lo, hi });
        let s = format!("({} {op} {})", a.s, b.s);
        match r {
            Some(r) if r.fits(t) => E { s, ty: t, iv: r },
            _ if !t.signed() => E {
                s,
                ty: t,
                iv: t.full(),
            },
            _ => {
                // Signed overflow possible: mask both operands (at most 255 * 255).
                let (a, b) = (self.mask(a), self.mask(b));
                self.arith(op, a, b)
            }
        }
    }

    fn divmod(&mut self, op: char, a: E, b: E) -> E {
        let dt = b.ty.promote();
        let d = E {
            s: format!("(({0}) == 0 ? 1 : ({0}))", b.s),
            ty: dt,
            iv: b.iv.convert(dt).join(Iv::point(1)),
        };
        let t = conv(a.ty, d.ty);
        let x = a.iv.convert(t);
        let y = d.iv.convert(t);
        if t.signed() && x.lo <= t.min() {
            // INT_MIN / -1 is undefined.
            let a = self.mask(a);
            return self.divmod(op, a, b);
        }
        let iv = if x.lo >= 0 && y.lo >= 0 {
            Iv { lo: 0, hi: x.hi }
        } else if op == '%' && x.lo >= 0 {
            Iv { lo: 0, hi: x.hi }
        } else {
            let m = x.maxabs();
            Iv { lo: -m, hi: m }
        };
        E {
            s: format!("({} {op} {})", a.s, d.s),
            ty: t,
            iv: iv.convert(t),
        }
    }

    fn shift(&mut self, left: bool, a: E, b: E) -> E {
        let t = a.ty.promote();
        let x = a.iv.convert(t);
        let s = format!(
            "({} {} (({}) & 7))",
            a.s,
            if left { "<<" } else { ">>" },
            b.s
        );
        if left {
            if t.signed() {
                if x.lo < 0 || (x.hi << 7) > t.max() {
                    let a = self.mask(a);
                    return self.shift(left, a, b);
                }
                E {
                    s,
                    ty: t,
                    iv: Iv {
                        lo: x.lo,
                        hi: x.hi << 7,
                    },
                }
            } else {
                let hi = x.hi << 7;
                let iv = if hi <= t.max() {
                    Iv { lo: x.lo, hi }
                } else {
                    t.full()
                };
                E { s, ty: t, iv }
            }
        } else {
            let iv = if x.lo >= 0 {
                Iv { lo: 0, hi: x.hi }
            } else {
                Iv {
                    lo: x.lo,
                    hi: if x.hi < 0 { -1 } else { x.hi },
                }
            };
            E { s, ty: t, iv }
        }
    }

    fn bitwise(&mut self, op: char, a: E, b: E) -> E {
        let t = conv(a.ty, b.ty);
        let (x, y) = (a.iv.convert(t), b.iv.convert(t));
        let iv = match op {
            '&' => {
                if x.lo >= 0 && y.lo >= 0 {
                    Iv {
                        lo: 0,
                        hi: x.hi.min(y.hi),
                    }
                } else if x.lo >= 0 {
                    Iv { lo: 0, hi: x.hi }
                } else if y.lo >= 0 {
                    Iv { lo: 0, hi: y.hi }
                } else {
                    t.full()
                }
            }
            _ => {
                if x.lo >= 0 && y.lo >= 0 {
                    let m = x.hi.max(y.hi);
                    let mut p: i128 = 1;
                    while p <= m {
                        p <<= 1;
                    }
                    Iv { lo: 0, hi: p - 1 }.convert(t)
                } else {
                    t.full()
                }
            }
        };
        E {
            s: format!("({} {op} {})", a.s, b.s),
            ty: t,
            iv,
        }
    }

    fn neg(&mut self, a: E) -> E {
        let t = a.ty.promote();
        let x = a.iv.convert(t);
        if t.signed() {
            if x.maxabs() >= (1 << 30) {
                let a = self.mask(a);
                return self.neg(a);
            }
            E {
                s: format!("(-{})", a.s),
                ty: t,
                iv: Iv {
                    lo: -x.hi,
                    hi: -x.lo,
                },
            }
        } else if x.hi <= 0xffff {
            let iv = if x.lo > 0 {
                Iv {
                    lo: t.max() + 1 - x.hi,
                    hi: t.max() + 1 - x.lo,
                }
            } else {
                t.full()
            };
            E {
                s: format!("(-{})", a.s),
                ty: t,
                iv,
            }
        } else {
            self.bitnot(a)
        }
    }

    fn bitnot(&mut self, a: E) -> E {
        let t = a.ty.promote();
        let x = a.iv.convert(t);
        let iv = if t.signed() {
            Iv {
                lo: -x.hi - 1,
                hi: -x.lo - 1,
            }
        } else {
            Iv {
                lo: t.max() - x.hi,
                hi: t.max() - x.lo,
            }
        };
        E {
            s: format!("(~{})", a.s),
            ty: t,
            iv,
        }
    }

    // ---------------------------------------------------------------- statements

    fn writable_accs(&self) -> Vec<usize> {
        (0..self.accs.len())
            .filter(|&a| self.cells[self.accs[a].cell].writable)
            .collect()
    }

    fn write_cell(&mut self, c: usize, iv: Iv) {
        let cell = &mut self.cells[c];
        let v = iv.convert(cell.ty);
        cell.iv = if cell.weak { cell.iv.join(v) } else { v };
    }

    fn assign(&mut self) {
        let ws = self.writable_accs();
        if ws.is_empty() {
            return self.decl_scalar();
        }
        let a = ws[self.rng.below(ws.len() as u64) as usize];
        let c = self.accs[a].cell;
        let lv = self.access_text(a);
        let rhs = self.expr(self.depth);
        if self.rng.chance(40) {
            // Compound assignment (the left side has no side effects: evaluating it twice is
            // the same as once).
            let op = self.rng.pick(&['+', '-', '*', '&', '|', '^']);
            let cur = E {
                s: lv.clone(),
                ty: self.cells[c].ty,
                iv: self.cells[c].iv,
            };
            self.masked = false;
            let r = match op {
                '+' | '-' | '*' => self.arith(op, cur, rhs.clone()),
                _ => self.bitwise(op, cur, rhs.clone()),
            };
            if self.masked {
                self.line(&format!("{lv} = {};", r.s));
            } else {
                self.line(&format!("{lv} {op}= {};", rhs.s));
            }
            self.write_cell(c, r.iv);
        } else {
            self.line(&format!("{lv} = {};", rhs.s));
            self.write_cell(c, rhs.iv);
        }
    }

    fn decl_scalar(&mut self) {
        let t = self.any_ty();
        let e = self.expr(self.depth);
        let n = self.fresh("v");
        self.line(&format!("{} {n} = {};", t.name(), e.s));
        let c = self.add_cell(t, e.iv.convert(t), false);
        self.accs.push(Access {
            kind: AccKind::Plain(n),
            cell: c,
            obj: Obj::Var,
        });
    }

    /// Writes every element of `base[0..len]`; returns the join of the written values.
    fn init_elements(&mut self, base: &str, len: u32, ty: Ty) -> Iv {
        if self.rng.chance(50) {
            let j = self.fresh("j");
            self.line(&format!("for (int {j} = 0; {j} < {len}; {j}++)"));
            let sc = self.scope();
            self.read_only_cell(
                Ty::Int,
                Iv {
                    lo: 0,
                    hi: len as i128 - 1,
                },
                false,
                AccKind::Plain(j.clone()),
                Obj::None,
            );
            let e = self.expr(self.depth);
            self.close(sc);
            self.indent += 1;
            self.line(&format!("{base}[{j}] = {};", e.s));
            self.indent -= 1;
            e.iv.convert(ty)
        } else {
            let mut iv: Option<Iv> = None;
            for k in 0..len {
                let e = self.expr(1);
                self.line(&format!("{base}[{k}] = {};", e.s));
                let v = e.iv.convert(ty);
                iv = Some(iv.map_or(v, |i| i.join(v)));
            }
            iv.unwrap_or(Iv::point(0))
        }
    }

    fn decl_array(&mut self) {
        let t = self.any_ty();
        let len = self.rng.range(2, 6) as u32;
        let n = self.fresh("a");
        if self.rng.chance(30) {
            let mut vals: Vec<i128> = (0..len)
                .map(|_| self.rng.range(-5, 40) as i128)
                .map(|v| if t.signed() { v } else { v.abs() })
                .collect();
            let mut text: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            if self.rng.chance(50) {
                // Designators in any order, one of them repeated (the later one wins), and
                // the elements no designator names zero (C11 6.7.9p19, p21).
                let mut named = vec![false; len as usize];
                text.clear();
                for _ in 0..len {
                    let k = self.rng.below(len as u64) as usize;
                    named[k] = true;
                    text.push(format!("[{k}] = {}", vals[k]));
                }
                let k = self.rng.below(len as u64) as usize;
                if named[k] {
                    vals[k] = if t.signed() { -1 } else { 1 };
                    text.push(format!("[{k}] = {}", vals[k]));
                }
                for (v, n) in vals.iter_mut().zip(&named) {
                    if !n {
                        *v = 0;
                    }
                }
            }
            self.line(&format!(
                "{} {n}[{len}] = {{{}}};",
                t.name(),
                text.join(", ")
            ));
            let lo = vals.iter().copied().min().unwrap_or(0);
            let hi = vals.iter().copied().max().unwrap_or(0);
            let c = self.add_cell(t, Iv { lo, hi }, true);
            self.accs.push(Access {
                kind: AccKind::Indexed(n, len),
                cell: c,
                obj: Obj::Array,
            });
        } else {
            self.line(&format!("{} {n}[{len}];", t.name()));
            let iv = self.init_elements(&n, len, t);
            let c = self.add_cell(t, iv, true);
            self.accs.push(Access {
                kind: AccKind::Indexed(n, len),
                cell: c,
                obj: Obj::Array,
            });
        }
    }

    /// Writes every field of the struct object reached by `prefix` (`s.` or `p->`) and
    /// returns the cells and accesses.
    fn init_struct(&mut self, prefix: &str, sidx: usize) -> Vec<usize> {
        let fields = self.structs[sidx].fields.clone();
        let mut cells = Vec::new();
        let mut new_accs = Vec::new();
        for (f, t, len) in fields {
            match len {
                None => {
                    let e = self.expr(self.depth);
                    self.line(&format!("{prefix}{f} = {};", e.s));
                    cells.push((t, e.iv.convert(t), false));
                    new_accs.push(AccKind::Plain(format!("{prefix}{f}")));
                }
                Some(len) => {
                    let iv = self.init_elements(&format!("{prefix}{f}"), len, t);
                    cells.push((t, iv, true));
                    new_accs.push(AccKind::Indexed(format!("{prefix}{f}"), len));
                }
            }
        }
        // Fields become visible only once all are written.
        let mut ids = Vec::new();
        for ((t, iv, weak), kind) in cells.into_iter().zip(new_accs) {
            let c = self.add_cell(t, iv, weak);
            self.accs.push(Access {
                kind,
                cell: c,
                obj: Obj::None,
            });
            ids.push(c);
        }
        ids
    }

    fn decl_struct(&mut self) {
        if self.structs.is_empty() {
            return self.decl_scalar();
        }
        let sidx = self.rng.below(self.structs.len() as u64) as usize;
        let n = self.fresh("s");
        let sname = self.structs[sidx].name.clone();
        self.line(&format!("struct {sname} {n};"));
        let cells = self.init_struct(&format!("{n}."), sidx);
        self.sobjs.push(StructObj {
            name: n,
            sidx,
            cells,
        });
    }

    fn decl_pointer(&mut self) {
        let r = self.rng.below(3);
        if r == 0 && !self.sobjs.is_empty() {
            let o = self.sobjs[self.rng.below(self.sobjs.len() as u64) as usize].clone();
            let st = self.structs[o.sidx].clone();
            let p = self.fresh("ps");
            self.line(&format!("struct {} *{p} = &{};", st.name, o.name));
            for ((f, _, len), c) in st.fields.iter().zip(&o.cells) {
                let kind = match len {
                    None => AccKind::Plain(format!("{p}->{f}")),
                    Some(l) => AccKind::Indexed(format!("{p}->{f}"), *l),
                };
                self.accs.push(Access {
                    kind,
                    cell: *c,
                    obj: Obj::None,
                });
            }
            return;
        }
        let targets: Vec<usize> = (0..self.accs.len())
            .filter(|&a| self.accs[a].obj != Obj::None)
            .collect();
        if targets.is_empty() {
            return self.decl_array();
        }
        let a = targets[self.rng.below(targets.len() as u64) as usize];
        let acc = self.accs[a].clone();
        let t = self.cells[acc.cell].ty;
        let p = self.fresh("p");
        match (&acc.kind, &acc.obj) {
            (AccKind::Plain(x), _) => {
                self.line(&format!("{} *{p} = &{x};", t.name()));
                self.accs.push(Access {
                    kind: AccKind::Plain(format!("(*{p})")),
                    cell: acc.cell,
                    obj: Obj::None,
                });
            }
            (AccKind::Indexed(b, len), _) => {
                if self.rng.chance(50) {
                    let k = self.rng.below(*len as u64);
                    self.line(&format!("{} *{p} = &{b}[{k}];", t.name()));
                    self.accs.push(Access {
                        kind: AccKind::Plain(format!("(*{p})")),
                        cell: acc.cell,
                        obj: Obj::None,
                    });
                } else {
                    self.line(&format!("{} *{p} = {b};", t.name()));
                    self.accs.push(Access {
                        kind: AccKind::Indexed(p, *len),
                        cell: acc.cell,
                        obj: Obj::None,
                    });
                }
            }
        }
    }

    fn fail_return(&self) -> &'static str {
        if self.void_fn {
            "return;"
        } else {
            "return 0;"
        }
    }

    fn heap_block(&mut self) {
        self.line("{");
        self.indent += 1;
        let sc = self.scope();
        if !self.structs.is_empty() && self.rng.chance(50) {
            let sidx = self.rng.below(self.structs.len() as u64) as usize;
            let sname = self.structs[sidx].name.clone();
            let h = self.fresh("h");
            self.line(&format!(
                "struct {sname} *{h} = (struct {sname} *)malloc(sizeof(struct {sname}));"
            ));
            let fr = self.fail_return();
            self.line(&format!("if ({h} == 0) {fr}"));
            self.init_struct(&format!("{h}->"), sidx);
            self.block(2);
            self.flow_out();
            self.line(&format!("free({h});"));
        } else {
            let t = self.any_ty();
            let len = self.rng.range(2, 5) as u32;
            let h = self.fresh("h");
            self.line(&format!(
                "{0} *{h} = ({0} *)malloc({len} * sizeof({0}));",
                t.name()
            ));
            let fr = self.fail_return();
            self.line(&format!("if (!{h}) {fr}"));
            let iv = self.init_elements(&h, len, t);
            let c = self.add_cell(t, iv, true);
            self.accs.push(Access {
                kind: AccKind::Indexed(h.clone(), len),
                cell: c,
                obj: Obj::None,
            });
            self.block(2);
            self.flow_out();
            self.line(&format!("free({h});"));
        }
        self.close(sc);
        self.indent -= 1;
        self.line("}");
    }

    /// An assignment to a cell declared before the current scope (so values leave a block).
    fn flow_out(&mut self) {
        self.assign();
    }

    fn enter_loop(&mut self) -> Vec<bool> {
        let saved: Vec<bool> = self.cells.iter().map(|c| c.writable).collect();
        for i in 0..self.cells.len() {
            if self.cells[i].writable {
                if self.rng.chance(45) {
                    let t = self.cells[i].ty;
                    self.cells[i].iv = t.full();
                } else {
                    self.cells[i].writable = false;
                }
            }
        }
        saved
    }

    fn leave_loop(&mut self, saved: Vec<bool>) {
        for (c, w) in self.cells.iter_mut().zip(saved) {
            c.writable = w;
        }
    }

    fn for_loop(&mut self) {
        let k = self.rng.range(1, 4);
        let i = self.fresh("i");
        self.line(&format!("for (int {i} = 0; {i} < {k}; {i}++) {{"));
        self.indent += 1;
        let saved = self.enter_loop();
        let sc = self.scope();
        self.read_only_cell(
            Ty::Int,
            Iv {
                lo: 0,
                hi: k as i128 - 1,
            },
            false,
            AccKind::Plain(i),
            Obj::Var,
        );
        self.loop_depth += 1;
        self.ctx.push(Ctx::For);
        let n = self.rng.range(1, 3) as usize;
        self.block(n);
        self.ctx.pop();
        self.loop_depth -= 1;
        self.close(sc);
        self.leave_loop(saved);
        self.indent -= 1;
        self.line("}");
    }

    fn while_loop(&mut self) {
        self.line("{");
        self.indent += 1;
        let sc = self.scope();
        let nb = self.fresh("nb");
        // The bound: an input-derived value in 0..=3 (or a small input itself).
        let small: Vec<usize> = (0..self.accs.len())
            .filter(|&a| {
                let c = &self.cells[self.accs[a].cell];
                matches!(self.accs[a].kind, AccKind::Plain(_))
                    && c.iv.hi <= 5
                    && c.iv.lo >= -100
                    && c.iv.lo < c.iv.hi
            })
            .collect();
        let (text, iv) = if !small.is_empty() && self.rng.chance(50) {
            let a = small[self.rng.below(small.len() as u64) as usize];
            let c = self.accs[a].cell;
            (self.access_text(a), self.cells[c].iv.convert(Ty::Int))
        } else {
            let e = self.expr(1);
            (format!("(int)(({}) & 3)", e.s), Iv { lo: 0, hi: 3 })
        };
        self.line(&format!("int {nb} = {text};"));
        let cn = self.fresh("c");
        self.line(&format!("int {cn} = 0;"));
        let do_while = self.rng.chance(30);
        if do_while {
            // At least one iteration.
            self.line("do {");
        } else {
            self.line(&format!("while ({cn} < {nb}) {{"));
        }
        self.indent += 1;
        let saved = self.enter_loop();
        let sc2 = self.scope();
        self.read_only_cell(
            Ty::Int,
            Iv {
                lo: 0,
                hi: (iv.hi - 1).max(0),
            },
            false,
            AccKind::Plain(cn.clone()),
            Obj::Var,
        );
        self.loop_depth += 1;
        self.ctx.push(Ctx::Counted);
        let n = self.rng.range(1, 3) as usize;
        self.block(n);
        self.ctx.pop();
        self.loop_depth -= 1;
        self.close(sc2);
        self.leave_loop(saved);
        self.line(&format!("{cn}++;"));
        self.indent -= 1;
        if do_while {
            self.line(&format!("}} while ({cn} < {nb});"));
        } else {
            self.line("}");
        }
        self.close(sc);
        self.indent -= 1;
        self.line("}");
    }

    fn if_stmt(&mut self) {
        let c = self.expr(self.depth);
        self.line(&format!("if ({}) {{", c.s));
        let before: Vec<Iv> = self.cells.iter().map(|c| c.iv).collect();
        self.indent += 1;
        let sc = self.scope();
        let n = self.rng.range(1, 2) as usize;
        self.block(n);
        self.close(sc);
        self.indent -= 1;
        let then: Vec<Iv> = self.cells.iter().map(|c| c.iv).collect();
        for (c, iv) in self.cells.iter_mut().zip(&before) {
            c.iv = *iv;
        }
        if self.rng.chance(50) {
            self.line("} else {");
            self.indent += 1;
            let sc = self.scope();
            let n = self.rng.range(1, 2) as usize;
            self.block(n);
            self.close(sc);
            self.indent -= 1;
        }
        self.line("}");
        for (c, iv) in self.cells.iter_mut().zip(&then) {
            c.iv = c.iv.join(*iv);
        }
    }

    /// `if (c) break;` / `if (c) continue;` where that is sound for the intervals.
    fn jump(&mut self) {
        let kind = match self.ctx.last() {
            Some(Ctx::For) if self.rng.chance(50) => "continue",
            Some(Ctx::For) | Some(Ctx::Counted) => "break",
            _ => return self.assign(),
        };
        let c = self.expr(1);
        self.line(&format!("if ({}) {kind};", c.s));
    }

    /// `switch` over a masked value: 2–4 cases (some falling through), maybe a default.
    fn switch_stmt(&mut self) {
        let n = self.rng.range(2, 4);
        let e = self.expr(1);
        self.line(&format!("switch ((unsigned)({}) % {n}u) {{", e.s));
        let entry: Vec<Iv> = self.cells.iter().map(|c| c.iv).collect();
        let mut outs: Vec<Vec<Iv>> = Vec::new();
        let mut fall: Option<Vec<Iv>> = None;
        let with_default = self.rng.chance(40);
        let labels: Vec<String> = (0..n - i64::from(with_default))
            .map(|k| format!("case {k}:"))
            .chain(with_default.then(|| "default:".to_string()))
            .collect();
        if !with_default {
            outs.push(entry.clone());
        }
        let last = labels.len() - 1;
        self.ctx.push(Ctx::Switch);
        for (k, label) in labels.iter().enumerate() {
            let start: Vec<Iv> = match &fall {
                Some(f) => entry.iter().zip(f).map(|(a, b)| a.join(*b)).collect(),
                None => entry.clone(),
            };
            for (c, iv) in self.cells.iter_mut().zip(&start) {
                c.iv = *iv;
            }
            self.line(&format!("{label} {{"));
            self.indent += 1;
            let sc = self.scope();
            let m = self.rng.range(1, 2) as usize;
            self.block(m);
            self.close(sc);
            self.indent -= 1;
            let end: Vec<Iv> = self.cells.iter().map(|c| c.iv).collect();
            if k == last || self.rng.chance(70) {
                self.line("} break;");
                outs.push(end);
                fall = None;
            } else {
                self.line("} /* fall through */");
                fall = Some(end);
            }
        }
        self.ctx.pop();
        self.line("}");
        for (i, c) in self.cells.iter_mut().enumerate() {
            let mut iv: Option<Iv> = None;
            for o in &outs {
                iv = Some(iv.map_or(o[i], |v| v.join(o[i])));
            }
            c.iv = iv.unwrap_or(entry[i]);
        }
    }

    /// A call of a helper that writes through its pointer parameter: `f(&x, ...);`.
    fn call_ptr(&mut self) {
        let cands: Vec<(usize, usize)> = (0..self.callable)
            .filter_map(|k| self.funcs[k].ptr.map(|t| (k, t)))
            .flat_map(|(k, t)| (0..self.accs.len()).map(move |a| (k, a, t)))
            .filter(|&(_, a, t)| {
                let acc = &self.accs[a];
                let c = &self.cells[acc.cell];
                c.writable && c.ty == t && acc.obj != Obj::None
            })
            .map(|(k, a, _)| (k, a))
            .collect();
        if cands.is_empty() {
            return self.assign();
        }
        let (k, a) = cands[self.rng.below(cands.len() as u64) as usize];
        let f = self.funcs[k].clone();
        let acc = self.accs[a].clone();
        let target = match &acc.kind {
            AccKind::Plain(x) => format!("&{x}"),
            AccKind::Indexed(b, len) => {
                let i = self.rng.below(*len as u64);
                format!("&{b}[{i}]")
            }
        };
        let mut args = vec![target];
        for (t, mask) in &f.params {
            self.nest += 1;
            let a = self.expr(1);
            self.nest -= 1;
            args.push(match mask {
                Some(m) => format!("({}) & {m}", a.s),
                None => format!("({}){}", t.name(), a.s),
            });
        }
        self.line(&format!("{}({});", f.name, args.join(", ")));
        let c = acc.cell;
        self.cells[c].iv = self.cells[c].ty.full();
    }

    /// A placeholder assertion over a computed value (filled after probing).
    fn slot(&mut self) {
        let e = self.expr(1);
        let (s, unsigned) = match e.ty.promote() {
            Ty::Int => (e.s, false),
            Ty::UInt => (e.s, true),
            _ if self.rng.chance(50) => (format!("((int){})", e.s), false),
            _ => (format!("((unsigned)({}))", e.s), true),
        };
        let k = self.slots.len();
        self.slots.push(Slot { expr: s, unsigned });
        self.line(&slot_marker(k));
    }

    /// An assertion the generator's intervals say holds.
    fn interval_assert(&mut self) {
        let cands: Vec<usize> = (0..self.accs.len())
            .filter(|&a| {
                let c = &self.cells[self.accs[a].cell];
                c.iv != c.ty.full() && c.iv.lo >= i32::MIN as i128 && c.iv.hi <= i32::MAX as i128
            })
            .collect();
        if cands.is_empty() {
            return;
        }
        let a = cands[self.rng.below(cands.len() as u64) as usize];
        let iv = self.cells[self.accs[a].cell].iv;
        let t = self.access_text(a);
        let text = match self.rng.below(3) {
            0 => format!("(long long)({t}) <= {}", lit(iv.hi, Ty::LLong)),
            1 => format!("(long long)({t}) >= {}", lit(iv.lo, Ty::LLong)),
            _ => format!(
                "(long long)({t}) >= {} && (long long)({t}) <= {}",
                lit(iv.lo, Ty::LLong),
                lit(iv.hi, Ty::LLong)
            ),
        };
        self.line(&format!("__VERIFIER_assert({text});"));
    }

    fn stmt(&mut self) {
        self.budget -= 1;
        let can_loop = self.loop_depth < 2 && self.budget > 2;
        let r = self.rng.below(100);
        match r {
            0..=19 => self.assign(),
            20..=29 => self.decl_scalar(),
            30..=36 => self.decl_array(),
            37..=41 => self.decl_struct(),
            42..=47 => self.decl_pointer(),
            48..=57 => self.if_stmt(),
            58..=69 if can_loop => self.for_loop(),
            70..=75 if can_loop => self.while_loop(),
            76..=80 if self.budget > 1 => self.heap_block(),
            81..=85 if self.slots.len() < self.max_slots => self.slot(),
            86..=89 => self.interval_assert(),
            90..=92 if !self.ctx.is_empty() => self.jump(),
            93..=95 if self.budget > 1 => self.switch_stmt(),
            96..=97 => self.call_ptr(),
            // Functions whose body yields no edge: each call must return.
            98 => {
                let f = self.rng.pick(&EMPTY_FUNCTIONS);
                self.line(&format!("{f}();"));
            }
            _ => self.assign(),
        }
    }

    fn block(&mut self, n: usize) {
        for _ in 0..n {
            if self.budget <= 0 {
                break;
            }
            self.stmt();
        }
    }

    // ---------------------------------------------------------------- top level

    fn gen_structs(&mut self, decls: &mut String) {
        let n = self.rng.below(3);
        for k in 0..n {
            let mut fields = Vec::new();
            let nf = self.rng.range(2, 3);
            for f in 0..nf {
                let t = self.any_ty();
                let len = self.rng.chance(25).then(|| self.rng.range(2, 4) as u32);
                fields.push((format!("f{f}"), t, len));
            }
            let name = format!("S{k}");
            let _ = writeln!(decls, "struct {name} {{");
            for (f, t, len) in &fields {
                match len {
                    Some(l) => {
                        let _ = writeln!(decls, "    {} {f}[{l}];", t.name());
                    }
                    None => {
                        let _ = writeln!(decls, "    {} {f};", t.name());
                    }
                }
            }
            let _ = writeln!(decls, "}};");
            self.structs.push(StructTy { name, fields });
        }
    }

    /// Globals: read-only ones (never written) and "wild" ones, written by `main` only (helpers
    /// see them at full range). Returns (cell, interval at program start) for the wild ones.
    fn gen_globals(&mut self, decls: &mut String) -> Vec<(usize, Iv)> {
        let mut wild = Vec::new();
        for _ in 0..self.rng.below(4) {
            let t = self.any_ty();
            let writable = self.rng.chance(60);
            if self.rng.chance(30) {
                let len = self.rng.range(2, 4) as u32;
                let n = self.fresh("ga");
                let vals: Vec<i128> = (0..len).map(|_| self.rng.range(0, 60) as i128).collect();
                let text: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(decls, "{} {n}[{len}] = {{{}}};", t.name(), text.join(", "));
                let iv = Iv {
                    lo: vals.iter().copied().min().unwrap_or(0),
                    hi: vals.iter().copied().max().unwrap_or(0),
                }
                .convert(t);
                let c = self.read_only_cell(
                    t,
                    if writable { t.full() } else { iv },
                    true,
                    AccKind::Indexed(n, len),
                    Obj::Array,
                );
                if writable {
                    wild.push((c, iv));
                }
            } else {
                let v = self.rng.range(0, 100) as i128;
                let n = self.fresh("g");
                let _ = writeln!(decls, "{} {n} = {v};", t.name());
                let iv = Iv::point(v).convert(t);
                let c = self.read_only_cell(
                    t,
                    if writable { t.full() } else { iv },
                    false,
                    AccKind::Plain(n),
                    Obj::Var,
                );
                if writable {
                    wild.push((c, iv));
                }
            }
        }
        wild
    }

    fn gen_helper(&mut self, decls: &mut String) {
        let sc = self.scope();
        let name = self.fresh("f");
        let ret = self.any_ty();
        let np = self.rng.range(1, 3);
        let mut params = Vec::new();
        let mut ptext = Vec::new();
        let ptr = self.rng.chance(35).then(|| self.any_ty());
        if let Some(t) = ptr {
            ptext.push(format!("{} *q", t.name()));
            // The caller's object: any value on entry; written with strong updates.
            let c = self.add_cell(t, t.full(), false);
            self.accs.push(Access {
                kind: AccKind::Plain("(*q)".into()),
                cell: c,
                obj: Obj::None,
            });
        }
        for k in 0..np {
            let t = self.any_ty();
            let mask = if self.rng.chance(50) {
                Some(self.rng.pick(&[3u32, 7, 15, 63, 127]))
            } else {
                None
            };
            let iv = match mask {
                Some(m) => Iv {
                    lo: 0,
                    hi: m as i128,
                },
                None => t.full(),
            };
            let pn = format!("arg{k}");
            ptext.push(format!("{} {pn}", t.name()));
            let c = self.add_cell(t, iv, false);
            self.accs.push(Access {
                kind: AccKind::Plain(pn),
                cell: c,
                obj: Obj::Var,
            });
            params.push((t, mask));
        }
        self.out.clear();
        self.indent = 1;
        self.void_fn = ptr.is_some();
        self.budget = self.rng.range(1, 4) as i32;
        let n = self.budget as usize;
        self.block(n);
        if ptr.is_some() {
            // Make sure the pointer is written at least on some path.
            let e = self.expr(self.depth);
            self.line(&format!("(*q) = {};", e.s));
        }
        let e = self.expr(self.depth);
        if ptr.is_some() {
            self.line("return;");
        } else {
            self.line(&format!("return {};", e.s));
        }
        let _ = writeln!(
            decls,
            "static {} {name}({}) {{\n{}}}",
            if ptr.is_some() { "void" } else { ret.name() },
            ptext.join(", "),
            self.out
        );
        self.out.clear();
        self.void_fn = false;
        self.close(sc);
        self.funcs.push(Func {
            name,
            ret,
            ret_iv: e.iv.convert(ret),
            params,
            ptr,
        });
        self.callable = self.funcs.len();
    }

    fn gen_recursive(&mut self, decls: &mut String) {
        let sc = self.scope();
        let name = self.fresh("rec");
        let ret = self.rng.pick(&[Ty::UInt, Ty::ULong, Ty::UShort, Ty::Int]);
        let at = self.any_ty();
        let depth_mask = self.rng.pick(&[3u32, 7]);
        self.out.clear();
        self.indent = 1;
        let nc = self.read_only_cell(
            Ty::UInt,
            Iv {
                lo: 0,
                hi: depth_mask as i128,
            },
            false,
            AccKind::Plain("n".into()),
            Obj::Var,
        );
        let ac = self.add_cell(at, at.full(), false);
        self.accs.push(Access {
            kind: AccKind::Plain("acc".into()),
            cell: ac,
            obj: Obj::Var,
        });
        let base = self.expr(1);
        let limit = self.rng.pick(&["n == 0u", "n <= 1u"]);
        self.line(&format!("if ({limit}) return {};", base.s));
        self.cells[nc].iv = Iv {
            lo: 1,
            hi: depth_mask as i128,
        };
        let step = self.expr(self.depth);
        let r = self.fresh("r");
        self.line(&format!("{} {r} = {name}(n - 1u, {});", ret.name(), step.s));
        let rc = self.add_cell(ret, ret.full(), false);
        self.accs.push(Access {
            kind: AccKind::Plain(r),
            cell: rc,
            obj: Obj::Var,
        });
        let comb = self.expr(self.depth);
        self.line(&format!("return {};", comb.s));
        let _ = writeln!(
            decls,
            "static {} {name}(unsigned int n, {} acc) {{\n{}}}",
            ret.name(),
            at.name(),
            self.out
        );
        self.out.clear();
        self.close(sc);
        self.funcs.push(Func {
            name,
            ret,
            ret_iv: ret.full(),
            params: vec![(Ty::UInt, Some(depth_mask)), (at, None)],
            ptr: None,
        });
        self.callable = self.funcs.len();
    }

    fn gen_inputs(&mut self) -> Vec<Input> {
        let n = self.rng.range(1, 3) as usize;
        let per = match n {
            1 => 120,
            2 => 18,
            _ => 7,
        };
        let mut inputs = Vec::new();
        for _ in 0..n {
            let ty = self.rng.pick(&[
                Ty::Int,
                Ty::Int,
                Ty::Int,
                Ty::UInt,
                Ty::Char,
                Ty::UChar,
                Ty::Short,
                Ty::UShort,
                Ty::Long,
                Ty::ULong,
            ]);
            let size = self.rng.range(2, per) as i128;
            let center: i128 = match self.rng.below(10) {
                0..=5 => self.rng.range(0, 10) as i128,
                6 | 7 if ty.signed() => -(self.rng.range(0, 10) as i128),
                8 => ty.max() - size,
                9 if ty.signed() => ty.min() + size,
                _ => self.rng.range(10, 200) as i128,
            };
            let top = ty.max().min(i64::MAX as i128);
            let lo = (center - size / 2).max(ty.min()).min(top - size + 1);
            let hi = lo + size - 1;
            let name = self.fresh("x");
            inputs.push(Input {
                name,
                ty,
                lo: lo as i64,
                hi: hi as i64,
            });
        }
        inputs
    }
}

/// Generates the skeleton of the program of `seed`.
/// `void` functions whose body lowers to no edge (each is declared in every program).
const EMPTY_FUNCTIONS: [&str; 4] = ["empty_body", "empty_stmt", "bare_return", "dead_if"];

pub fn generate(seed: u64, profile: Profile) -> Skeleton {
    // Its own stream, so that the LP64 programs are the ones earlier campaigns generated.
    let ilp32 = Rng::new(seed ^ 0x1b32_0000_0000_0001).chance(ILP32_PERCENT);
    LONG_BITS.with(|b| b.set(if ilp32 { 32 } else { 64 }));
    let mut g = Gen {
        rng: Rng::new(seed),
        out: String::new(),
        indent: 1,
        cells: Vec::new(),
        accs: Vec::new(),
        sobjs: Vec::new(),
        structs: Vec::new(),
        funcs: Vec::new(),
        callable: 0,
        slots: Vec::new(),
        max_slots: 0,
        names: 0,
        loop_depth: 0,
        masked: false,
        budget: 0,
        nest: 0,
        depth: profile.expr_depth,
        ctx: Vec::new(),
        void_fn: false,
    };
    let mut decls = String::new();
    for f in EMPTY_FUNCTIONS {
        let body = match f {
            "empty_body" => "",
            "empty_stmt" => ";",
            "bare_return" => "return;",
            _ => "if (0) { }",
        };
        decls.push_str(&format!("static void {f}(void) {{ {body} }}\n"));
    }
    g.gen_structs(&mut decls);
    let wild = g.gen_globals(&mut decls);
    g.max_slots = 1;
    for _ in 0..g.rng.below(profile.helpers) {
        g.gen_helper(&mut decls);
    }
    if g.rng.chance(35) {
        g.gen_recursive(&mut decls);
    }
    // main: wild globals start at their initial values and main may write them.
    for (c, iv) in wild {
        g.cells[c].iv = iv;
        g.cells[c].writable = true;
    }
    g.out.clear();
    g.indent = 1;
    let inputs = g.gen_inputs();
    let mut nondets = Vec::new();
    for inp in &inputs {
        let suf = inp.ty.nondet_suffix().unwrap_or("int");
        if !nondets.contains(&suf) {
            nondets.push(suf);
        }
        let line = format!(
            "{} {} = __VERIFIER_nondet_{suf}();",
            inp.ty.name(),
            inp.name
        );
        g.line(&line);
        let line = format!(
            "__VERIFIER_assume({0} <= {1} && {1} <= {2});",
            lit(inp.lo as i128, inp.ty.promote()),
            inp.name,
            lit(inp.hi as i128, inp.ty.promote())
        );
        g.line(&line);
        let c = g.add_cell(
            inp.ty,
            Iv {
                lo: inp.lo as i128,
                hi: inp.hi as i128,
            },
            false,
        );
        g.accs.push(Access {
            kind: AccKind::Plain(inp.name.clone()),
            cell: c,
            obj: Obj::Var,
        });
    }
    let main_after_inputs = g.out.len();
    let helper_slots = g.slots.len();
    g.max_slots = helper_slots + g.rng.range(1, 3) as usize;
    g.budget = g.rng.range(profile.statements.0, profile.statements.1) as i32;
    while g.budget > 0 {
        g.stmt();
    }
    while g.slots.len() == helper_slots || (g.slots.len() < g.max_slots && g.rng.chance(50)) {
        g.slot();
    }
    g.line("return 0;");
    Skeleton {
        seed,
        inputs,
        slots: g.slots,
        decls,
        main_body: g.out,
        main_after_inputs,
        nondets,
        ilp32,
    }
}
