//! GCC's builtins (`__builtin_*`): the one list of those qicc models, and how.
//!
//! A builtin is never an implicitly declared body-less function (an arbitrary `int` result
//! gives wrong verdicts both ways: `__builtin_bswap64` typed `int`, `__builtin_ctz` of a
//! constant left open). It is one of:
//! - a `__builtin_` spelling of a C library function: `clib` (its model, its rejection, or an
//!   output function) and the intrinsics of `call.rs` (`__builtin_malloc`, `__builtin_memcpy`,
//!   `__builtin_expect`, `__builtin_abort`, …), and the `<math.h>` builtins of `float`;
//! - a bit operation modelled in C ([`BIT_MODELS`]: `clz`, `ctz`, `clrsb`, `ffs`, `popcount`,
//!   `parity` with their `l`/`ll` forms, `bswap16/32/64`), loop-free functions
//!   `__qicc_builtin_NAME` in `clib_models.c`; `clz`/`ctz` of 0 is undefined in gcc's
//!   documentation, so their argument is checked first (`builtin-undefined`);
//! - lowered here: `__builtin_unreachable` (reaching it is undefined: a `builtin-undefined`
//!   check that always fails), `__builtin_trap` (the program stops, as `abort`),
//!   `__builtin_constant_p` (1 for an integer constant expression; for any other argument
//!   the compiler's choice, 0 or 1: gcc answers 0 at `-O0` and 1 where its optimiser folds
//!   the value; the argument is not evaluated), `__builtin_object_size` (the documented
//!   "unknown" answer: `(size_t)-1` for types 0 and 1, 0 for types 2 and 3; not evaluated), `__builtin_choose_expr`, and
//!   the checked arithmetic `__builtin_{add,sub,mul}_overflow` (generic, `_p` and the typed
//!   `s`/`u` forms): the mathematical result, its truncation stored, whether it fits;
//! - rejected: every other `__builtin_*` (`unsupported: builtin NAME`, at the call).
//!
//! `__builtin_offsetof` is syntax (lang-c parses it) and lowered with `sizeof`.
//! `__builtin_types_compatible_p` takes type names, which lang-c does not parse as call
//! arguments: such a program is rejected as GNU syntax the parser cannot read.

use super::expr::{LVal, Place, RVal, Val};
use super::{fold, Ctx, R};
use crate::types::{CType, IntKind};
use lang_c::ast::Expression;
use lang_c::span::Node;
use qicc_ir::{BinOp, Expr, Ty, UbKind};

/// The bit operations modelled in `clib_models.c` as `__qicc_builtin_NAME`, and whether their
/// argument must be non-zero (gcc: "if x is 0, the result is undefined").
pub const BIT_MODELS: &[(&str, bool)] = &[
    ("clz", true),
    ("clzl", true),
    ("clzll", true),
    ("ctz", true),
    ("ctzl", true),
    ("ctzll", true),
    ("clrsb", false),
    ("clrsbl", false),
    ("clrsbll", false),
    ("ffs", false),
    ("ffsl", false),
    ("ffsll", false),
    ("popcount", false),
    ("popcountl", false),
    ("popcountll", false),
    ("parity", false),
    ("parityl", false),
    ("parityll", false),
    ("bswap16", false),
    ("bswap32", false),
    ("bswap64", false),
];

/// The C model of builtin `name` (`__builtin_popcount` → `__qicc_builtin_popcount`) and
/// whether its argument must be non-zero.
/// POSIX's `ffs`, `ffsl` and `ffsll` (`<strings.h>`) are the same models.
pub fn bit_model(name: &str) -> Option<(String, bool)> {
    let base = match name {
        "ffs" | "ffsl" | "ffsll" => name,
        _ => name.strip_prefix("__builtin_")?,
    };
    BIT_MODELS
        .iter()
        .find(|(n, _)| *n == base)
        .map(|(n, nonzero)| {
            (
                format!("{}builtin_{n}", qicc_ir::LIBRARY_MODEL_PREFIX),
                *nonzero,
            )
        })
}

/// The checked arithmetic builtins: the operation, whether the result is stored (`_p`: only
/// its type counts), and the fixed type of the typed forms (`__builtin_sadd_overflow`:
/// `int`, `saddl`: `long`, `uaddll`: `unsigned long long`, …).
fn overflow_builtin(name: &str) -> Option<(BinOp, bool, Option<IntKind>)> {
    let base = name.strip_prefix("__builtin_")?;
    let (base, store) = match base.strip_suffix("_overflow_p") {
        Some(b) => (b, false),
        None => (base.strip_suffix("_overflow")?, true),
    };
    let op_of = |s: &str| match s {
        "add" => Some(BinOp::Add),
        "sub" => Some(BinOp::Sub),
        "mul" => Some(BinOp::Mul),
        _ => None,
    };
    if let Some(op) = op_of(base) {
        return Some((op, store, None));
    }
    if !store {
        return None;
    }
    let (signed, rest) = match base.as_bytes().first() {
        Some(b's') => (true, &base[1..]),
        Some(b'u') => (false, &base[1..]),
        _ => return None,
    };
    let (op, len) = ["add", "sub", "mul"]
        .iter()
        .find(|o| rest.starts_with(**o))
        .and_then(|o| Some((op_of(o)?, o.len())))?;
    use IntKind::*;
    let kind = match (&rest[len..], signed) {
        ("", true) => Int,
        ("", false) => UInt,
        ("l", true) => Long,
        ("l", false) => ULong,
        ("ll", true) => LongLong,
        ("ll", false) => ULongLong,
        _ => return None,
    };
    Some((op, true, Some(kind)))
}

/// The result type of a builtin lowered here (for typing without evaluation), or the name
/// of its C model (whose declaration has the type); `None` for any other name.
pub enum ResultType {
    Fixed(CType),
    OfModel(String),
}

pub fn result_type(name: &str, size_t: CType) -> Option<ResultType> {
    if let Some((model, _)) = bit_model(name) {
        return Some(ResultType::OfModel(model));
    }
    fixed_result_type(name, size_t).map(ResultType::Fixed)
}

fn fixed_result_type(name: &str, size_t: CType) -> Option<CType> {
    if overflow_builtin(name).is_some() {
        return Some(CType::Int(IntKind::Bool));
    }
    match name {
        "__builtin_constant_p" => Some(CType::INT),
        "__builtin_object_size" => Some(size_t),
        "__builtin_unreachable" | "__builtin_trap" => Some(CType::Void),
        _ => None,
    }
}

impl<'a> Ctx<'a> {
    /// A call of builtin `name` that this module lowers, or `None` when `name` is no builtin
    /// of this module (the caller goes on with the C library and, for any other
    /// `__builtin_*`, rejects the call).
    /// `*p` as a place, for a builtin that reads or writes through its pointer argument.
    fn pointee(&mut self, p: &'a Node<Expression>, at: usize) -> R<LVal> {
        let pv = self.rvalue(p)?;
        match &pv.ty {
            CType::Pointer(t) => Ok(LVal {
                place: Place::Mem(pv.e),
                ty: (**t).clone(),
            }),
            _ => Err(self.type_err(at, "a pointer argument is needed")),
        }
    }

    pub fn builtin_call(
        &mut self,
        name: &str,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        if let Some((model, nonzero)) = bit_model(name) {
            return Some(self.bit_builtin(name, &model, nonzero, args, at));
        }
        if let Some((op, store, typed)) = overflow_builtin(name) {
            return Some(self.overflow_builtin(name, op, store, typed, args, at));
        }
        Some(match name {
            "__builtin_unreachable" => self
                .check(Expr::bool(false), UbKind::BuiltinUndefined, at)
                .map(|()| Val::R(RVal::void())),
            "__builtin_trap" => self.halt(None, at),
            // The C library models' way of saying "a case this model does not cover"
            // (clib_models.c): reachable, it makes a TRUE impossible, as UB does.
            "__qicc_unmodelled" => self
                .check(Expr::bool(false), UbKind::Unmodelled, at)
                .map(|()| Val::R(RVal::void())),
            // Clang's non-temporal accesses: a cache hint on an ordinary load and store.
            "__builtin_nontemporal_load" => match args {
                [p] => self.pointee(p, at).and_then(|lv| {
                    let v = self.to_rvalue(Val::L(lv), at)?;
                    Ok(Val::R(v))
                }),
                _ => Err(self.type_err(at, format!("{name} takes one argument"))),
            },
            "__builtin_nontemporal_store" => match args {
                [v, p] => (|| {
                    let val = self.rvalue(v)?;
                    let lv = self.pointee(p, at)?;
                    let e = self.convert(val, &lv.ty, v.span.start)?;
                    self.write(&lv, e, at)?;
                    Ok(Val::R(RVal::void()))
                })(),
                _ => Err(self.type_err(at, format!("{name} takes two arguments"))),
            },
            // 1 for an integer constant expression. For any other argument gcc answers 0 at
            // -O0 and may answer 1 where its optimiser folds the value (a `const` global at
            // -O1): the compiler's choice, so 0 or 1, chosen per call (never evaluated).
            "__builtin_constant_p" => match args {
                [a] if self.const_int(a).is_ok() => Ok(Val::R(RVal {
                    e: Expr::int(32, 1),
                    ty: CType::INT,
                })),
                [_] => {
                    let span = self.span(at);
                    self.fs(at).map(|fs| {
                        fs.b.span = span;
                        let t = fs.b.new_tmp(Ty::I8);
                        fs.b.havoc(
                            qicc_ir::VarRef::Local(t),
                            qicc_ir::HavocKind::Platform(name.to_string()),
                        );
                        let bit = fold::to_bool(Expr::local(t), Ty::I8);
                        Val::R(RVal {
                            e: fold::from_bool(bit, Ty::I32),
                            ty: CType::INT,
                        })
                    })
                }
                _ => Err(self.type_err(at, "__builtin_constant_p takes one argument")),
            },
            "__builtin_object_size" => match args {
                [_, t] => self.const_int(t).and_then(|(t, _)| {
                    let st = self.types.size_t();
                    let ty = self.irty(&st, at)?;
                    let v = if t & 2 == 0 { ty.mask() } else { 0 };
                    Ok(Val::R(RVal {
                        e: Expr::konst(ty, v),
                        ty: st,
                    }))
                }),
                _ => Err(self.type_err(at, "__builtin_object_size takes two arguments")),
            },
            "__builtin_choose_expr" => match args {
                [c, a, b] => self
                    .const_int(c)
                    .and_then(|(c, _)| self.lower(if c != 0 { a } else { b })),
                _ => Err(self.type_err(at, "__builtin_choose_expr takes three arguments")),
            },
            _ => return None,
        })
    }

    /// A bit operation: its one argument converted to the model's parameter type, checked
    /// to be non-zero where gcc leaves the result undefined, then the model called.
    fn bit_builtin(
        &mut self,
        name: &str,
        model: &str,
        nonzero: bool,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let [a] = args else {
            return Err(self.type_err(at, format!("{name} takes one argument")));
        };
        let Some(&idx) = self.func_by_name.get(model) else {
            return Err(self.internal(at, format!("the model of {name} is missing")));
        };
        let ft = self.funcs[idx].ty.clone()?;
        let pt = ft.params.first().cloned().unwrap_or(CType::INT);
        let v = self.rvalue(a)?;
        let v = self.convert_rv(v, &pt, a.span.start)?;
        let v = self.stab(v, at)?;
        if nonzero {
            let ty = self.irty(&pt, at)?;
            let ok = fold::bin(BinOp::Ne, v.e.clone(), Expr::konst(ty, 0));
            self.check(ok, UbKind::BuiltinUndefined, at)?;
        }
        self.call_with_values(idx, vec![v], &[a.span.start], at)
    }

    /// `__builtin_OP_overflow(a, b, &r)`: computes `a OP b` in infinite precision, stores it
    /// truncated to `r`'s type, and returns whether it did not fit (`_p`: only the type of
    /// the third argument counts; nothing is stored). Exact when the three types are one
    /// (the typed forms always), or all at most 32 bits wide (computed in 64 bits); other
    /// mixes are rejected rather than approximated.
    fn overflow_builtin(
        &mut self,
        name: &str,
        op: BinOp,
        store: bool,
        typed: Option<IntKind>,
        args: &'a [Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let [a, b, r] = args else {
            return Err(self.type_err(at, format!("{name} takes three arguments")));
        };
        let va = self.rvalue(a)?;
        let va = self.stab_before(va, b, at)?;
        let va = self.stab_before(va, r, at)?;
        let vb = self.rvalue(b)?;
        let vb = self.stab_before(vb, r, at)?;
        let vr = self.rvalue(r)?;
        let (ka, kb, kr) = match typed {
            Some(k) => (k, k, k),
            None => {
                let kr = match (&vr.ty, store) {
                    (CType::Pointer(t), true) => match &**t {
                        CType::Int(k) if *k != IntKind::Bool => *k,
                        _ => {
                            return Err(self.type_err(
                                at,
                                format!("{name}: the third argument must point to an integer"),
                            ))
                        }
                    },
                    (CType::Int(k), false) if *k != IntKind::Bool => *k,
                    _ => return Err(self.type_err(at, format!("{name}: bad third argument"))),
                };
                let kind = |v: &RVal| match &v.ty {
                    CType::Int(k) if *k != IntKind::Bool => Some(*k),
                    _ => None,
                };
                match (kind(&va), kind(&vb)) {
                    (Some(ka), Some(kb)) => (ka, kb, kr),
                    _ => return Err(self.type_err(at, format!("{name} takes integer operands"))),
                }
            }
        };
        let tya = self.irty(&CType::Int(ka), at)?;
        let tyb = self.irty(&CType::Int(kb), at)?;
        let tyr = self.irty(&CType::Int(kr), at)?;
        let ea = self.convert(va, &CType::Int(ka), a.span.start)?;
        let eb = self.convert(vb, &CType::Int(kb), b.span.start)?;
        let (sa, sb, sr) = (ka.is_signed(), kb.is_signed(), kr.is_signed());
        let (value, overflow) = if ka == kb && kb == kr {
            let value = fold::bin(op, ea.clone(), eb.clone());
            let overflow = if sr {
                let ok = fold::no_signed_overflow(op, tyr, &ea, &eb).unwrap_or(Expr::bool(true));
                fold::not(ok)
            } else {
                match op {
                    BinOp::Add => fold::bin(BinOp::Ult, value.clone(), ea.clone()),
                    BinOp::Sub => fold::bin(BinOp::Ult, ea.clone(), eb.clone()),
                    _ => fold::bin(
                        BinOp::And,
                        fold::bin(BinOp::Ne, ea.clone(), Expr::konst(tyr, 0)),
                        fold::bin(
                            BinOp::Ne,
                            fold::bin(BinOp::UDiv, value.clone(), ea.clone()),
                            eb.clone(),
                        ),
                    ),
                }
            };
            (value, overflow)
        } else if tya.bits() <= 32 && tyb.bits() <= 32 && tyr.bits() <= 64 {
            // Exact in 64 bits: sums and differences of 33-bit values, and products of two
            // 32-bit values (unsigned × unsigned below 2^64, every other one within i64).
            let wide = Ty::I64;
            let xa = fold::resize(ea, tya, wide, sa);
            let xb = fold::resize(eb, tyb, wide, sb);
            let exact = fold::bin(op, xa, xb);
            let low = fold::resize(exact.clone(), wide, tyr, false);
            let back = fold::resize(low.clone(), tyr, wide, sr);
            let fits = fold::bin(BinOp::Eq, back, exact.clone());
            // `exact` is signed, except the product of two unsigned values, which may pass
            // 2^63 and is unsigned. The sign bit must be clear when exactly one of `exact`
            // and the result type is signed: a negative value fits no unsigned type, and an
            // unsigned one of 2^63 or more no signed one.
            let huge_unsigned = op == BinOp::Mul && !sa && !sb;
            let fits = if huge_unsigned == sr {
                fold::bin(
                    BinOp::And,
                    fits,
                    fold::bin(BinOp::Sle, Expr::konst(wide, 0), exact),
                )
            } else {
                fits
            };
            (low, fold::not(fits))
        } else {
            return Err(self.unsupported(
                at,
                format!(
                    "builtin {name} with operands of types '{}' and '{}' and a result of type '{}'",
                    self.types.show(&CType::Int(ka)),
                    self.types.show(&CType::Int(kb)),
                    self.types.show(&CType::Int(kr))
                ),
            ));
        };
        if store {
            let dst = self.convert(vr, &CType::ptr(CType::Int(kr)), r.span.start)?;
            let lv = LVal {
                place: Place::Mem(dst),
                ty: CType::Int(kr),
            };
            self.write(&lv, value, at)?;
        }
        Ok(Val::R(RVal {
            e: fold::from_bool(overflow, Ty::I8),
            ty: CType::Int(IntKind::Bool),
        }))
    }
}
