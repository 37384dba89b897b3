//! The memory effect of `π^n` (paper, Sec. 3.2 and Lemma 3), in terms of the IR's memory
//! operations (`qicc_ir::memory`: `memset`, `memcpy` with `memmove`'s meaning, stores).
//!
//! Each store of the path is accelerated on its own (several stores must write pairwise
//! disjoint byte ranges, see [`plan`]). With the address linear in the iteration,
//! `a(j) = a0 + s·j`:
//! - `s = 0` (the same address every time): only the last iteration's value survives —
//!   one store of the value at `j = n − 1` ([`MemEffect::Last`]);
//! - `|s|` equal to the store's width `W` (a *dense* index, Lemma 3's third case): the
//!   iterations write the disjoint, adjacent elements of `[lo, lo + n·W)` with `lo = a0`
//!   (increasing) or `a(n − 1)` (decreasing), so the membership test of eq. (6) is the
//!   quantifier-free `lo ≤ p < lo + n·W`. When every element gets the same bytes (a byte
//!   store of an invariant value, or a constant with equal bytes) this is a `memset`
//!   ([`MemEffect::Fill`]); otherwise the element at `lo + W·k` holds the value polynomial at
//!   iteration `k` (or `n − 1 − k`), which the IR has no operation for, so it becomes an
//!   *overlay* ([`MemEffect::Overlay`], applied lazily by [`crate::dismiss`]). An invariant
//!   but symbolic value wider than a byte gets a second accelerated path (see [`plan`]): a
//!   `memset` assuming its bytes are equal (`0`, `-1`, ...) — an under-approximation that
//!   keeps the memory real, so later code may copy it, store into it, pass it to calls.
//!   (Replicating an arbitrary element by doubling `memcpy`s would be exact, but every read
//!   of the result through `log n` nested copies doubles at each level in the BMC's terms.)
//! - a store of a load, `a(j) := *b(j)`, with `b` dense in the same direction and its range
//!   disjoint from every range the path writes: the loop copies memory that does not change
//!   while it runs, a `memcpy` ([`MemEffect::Copy`]);
//! - anything else (strided or quadratic addresses): not accelerated.
//!
//! Guards: the address must not wrap (unsigned) on `[0, n − 1]`, nor within an element at
//! either end, so that the written bytes are exactly the range above.

use crate::build::{self, and, bin, int, mul, resize};
use crate::overflow::in_range;
use crate::poly::{Interp, Lin, Poly, J_TY};
use crate::summary::StoreEffect;
use qicc_ir::semantics::to_signed;
use qicc_ir::{BinOp, Expr, Ty};

#[derive(Clone, Debug)]
pub(crate) enum MemEffect {
    Last {
        ty: Ty,
        addr: Expr,
        value: Expr,
    },
    Fill {
        dst: Expr,
        byte: Expr,
        len: Expr,
    },
    /// `a[i] = b[i]` with both addresses dense in the same direction and the source range
    /// disjoint from everything the path writes: a `memcpy` (no overlap, so `memmove`'s
    /// semantics are the loop's).
    Copy {
        dst: Expr,
        src: Expr,
        len: Expr,
    },
    Overlay {
        lo: Expr,
        /// Element width in bytes.
        width: u32,
        /// Value of the element written in iteration `j`.
        value: Poly,
        decreasing: bool,
    },
}

pub(crate) struct MemPlan {
    /// One effect per store of the path, in path order.
    pub effects: Vec<MemEffect>,
    pub guards: Vec<Expr>,
    /// What distinguishes this variant from the others ("" when there is one).
    pub desc: String,
}

/// Plans the memory effect of the path's stores; `reads` are the loads of the path (type
/// and address over the pre-state) other than copy sources. `last` rewrites a pre-state
/// expression to its value at the start of the last iteration; `n` is the iteration count.
///
/// Several stores are accelerated independently when the byte ranges they write over all
/// iterations are pairwise disjoint (a guard): then no store overwrites another's bytes, and
/// the order of the writes does not matter. Loads must read ranges the path does not write
/// (a guard), so that each reads what was there before the loop.
///
/// Returns one plan, or two when some store writes an invariant symbolic value wider than a
/// byte: every store's exact effect (overlays), and every such store as a `memset` under the
/// assumption that the value's bytes are equal. Each becomes its own accelerated path.
pub(crate) fn plan(
    stores: &[StoreEffect],
    reads: &[(Ty, Expr)],
    lin: &mut Lin,
    n: &Expr,
    last: &dyn Fn(&Expr) -> Expr,
) -> Result<Vec<MemPlan>, String> {
    let mut guards = Vec::new();
    let mut ranges: Vec<(Expr, Expr)> = Vec::new();
    let mut read_ranges: Vec<(Expr, Expr)> = Vec::new();
    let mut planned = Vec::new();
    for st in stores {
        let p = plan_one(st, lin, n, last)?;
        for (lo, len) in &ranges {
            guards.push(disjoint(&p.range.0, &p.range.1, lo, len));
        }
        guards.extend(p.guards.iter().cloned());
        ranges.push(p.range.clone());
        read_ranges.extend(p.read.clone());
        planned.push(p);
    }
    if !stores.is_empty() {
        for (ty, addr) in reads {
            let (range, g) = read_range(*ty, addr, lin, n, last)?;
            guards.extend(g);
            read_ranges.push(range);
        }
    }
    // What the path reads must not be written by the path at all (then every iteration
    // reads what was there before the loop, as `memcpy` does).
    for (p, lp) in &read_ranges {
        for (q, lq) in &ranges {
            guards.push(disjoint(p, lp, q, lq));
        }
    }
    let guard = guards.into_iter().fold(Expr::bool(true), and);
    let exact = MemPlan {
        effects: planned.iter().map(|p| p.effect.clone()).collect(),
        guards: vec![guard.clone()],
        desc: String::new(),
    };
    if planned.iter().all(|p| p.equal_bytes.is_none()) {
        return Ok(vec![exact]);
    }
    let mut filled = MemPlan {
        effects: Vec::new(),
        guards: vec![guard],
        desc: "memset assuming equal bytes".to_string(),
    };
    for p in planned {
        match p.equal_bytes {
            Some((effect, assumption)) => {
                filled.effects.push(effect);
                filled.guards.push(assumption);
            }
            None => filled.effects.push(p.effect),
        }
    }
    Ok(vec![
        filled,
        MemPlan {
            desc: "overlay".to_string(),
            ..exact
        },
    ])
}

/// The bytes a load `ty` at a linear `addr(j)` reads over `n` iterations, and its guards.
fn read_range(
    ty: Ty,
    addr: &Expr,
    lin: &mut Lin,
    n: &Expr,
    last: &dyn Fn(&Expr) -> Expr,
) -> Result<((Expr, Expr), Vec<Expr>), String> {
    let ptr = lin.env.pointer_ty();
    let bytes = (ty.bits() / 8) as u64;
    let pa = lin.lin(addr)?;
    let stride = match (pa.degree(), pa.c1.as_const()) {
        (0, _) => 0,
        (1, Some(s)) => to_signed(s, ptr.bits()),
        _ => return Err("a load whose address does not move by a constant stride".into()),
    };
    let m = crate::overflow::minus_one(n);
    let a0 = addr.clone();
    let am = last(addr);
    let lo = if stride < 0 { am.clone() } else { a0.clone() };
    let span = mul(
        resize(false, J_TY, ptr, m.clone()),
        int(ptr, stride.unsigned_abs()),
    );
    let len = build::add(span, int(ptr, bytes));
    let mut guards = vec![in_range(&pa, Interp::Unsigned, &m)];
    for a in [&a0, &am] {
        let end = build::add(a.clone(), int(ptr, bytes - 1));
        guards.push(bin(BinOp::Ule, a.clone(), end));
    }
    Ok(((lo, len), guards))
}

/// One store planned: its effect, the bytes it writes, the bytes it copies from, its
/// guards, and the `memset` alternative with its assumption (see [`plan`]).
struct Planned {
    effect: MemEffect,
    equal_bytes: Option<(MemEffect, Expr)>,
    range: (Expr, Expr),
    read: Option<(Expr, Expr)>,
    guards: Vec<Expr>,
}

/// `[p, p + lp)` and `[q, q + lq)` (non-wrapping) do not meet: neither contains the other's
/// start.
pub(crate) fn disjoint(p: &Expr, lp: &Expr, q: &Expr, lq: &Expr) -> Expr {
    and(
        bin(BinOp::Ule, lp.clone(), build::sub(q.clone(), p.clone())),
        bin(BinOp::Ule, lq.clone(), build::sub(p.clone(), q.clone())),
    )
}

/// The effect of one store over all iterations.
fn plan_one(
    st: &StoreEffect,
    lin: &mut Lin,
    n: &Expr,
    last: &dyn Fn(&Expr) -> Expr,
) -> Result<Planned, String> {
    let ptr = lin.env.pointer_ty();
    let width = (st.ty.bits() / 8) as u64;
    let pa = lin.lin(&st.addr)?;
    if let Expr::Load(ty, src) = &st.value {
        if *ty == st.ty {
            return plan_copy(st, src, &pa, lin, n, last);
        }
    }
    let pv = lin.lin(&st.value)?;
    if pa.degree() == 0 {
        let effect = MemEffect::Last {
            ty: st.ty,
            addr: st.addr.clone(),
            value: last(&st.value),
        };
        let end = build::add(st.addr.clone(), int(ptr, width - 1));
        let no_wrap = bin(BinOp::Ule, st.addr.clone(), end);
        return Ok(Planned {
            effect,
            equal_bytes: None,
            range: (st.addr.clone(), int(ptr, width)),
            read: None,
            guards: vec![no_wrap],
        });
    }
    let (lo, len, decreasing, guards) = dense_range(&st.addr, &pa, width, lin, n, last)?;
    let equal_bytes = |v: u64| (0..width).all(|i| (v >> (8 * i)) & 0xff == v & 0xff);
    let fill = |byte: Expr| MemEffect::Fill {
        dst: lo.clone(),
        byte,
        len: len.clone(),
    };
    let overlay = MemEffect::Overlay {
        lo: lo.clone(),
        width: width as u32,
        value: pv.clone(),
        decreasing,
    };
    let (effect, equal_bytes) = match (pv.degree(), &pv.c0) {
        (0, v) if width == 1 => (fill(v.clone()), None),
        (0, Expr::Const { value, .. }) if equal_bytes(*value) => {
            (fill(int(Ty::I8, value & 0xff)), None)
        }
        (0, Expr::Const { .. }) => (overlay, None),
        (0, v) => {
            // v equals its low byte replicated: a memset of that byte.
            let byte = resize(false, st.ty, Ty::I8, v.clone());
            let wide = resize(false, Ty::I8, st.ty, byte.clone());
            let ones = (0..width).fold(0u64, |acc, i| acc | (1 << (8 * i)));
            let same = bin(BinOp::Eq, v.clone(), mul(wide, int(st.ty, ones)));
            (overlay, Some((fill(byte), same)))
        }
        _ => (overlay, None),
    };
    Ok(Planned {
        effect,
        equal_bytes,
        range: (lo, len),
        read: None,
        guards,
    })
}

/// The bytes a dense address `a(j)` (stride ±`width`) covers over `n` iterations: lowest
/// address, length, direction, and the guards that it does not wrap.
fn dense_range(
    addr: &Expr,
    pa: &Poly,
    width: u64,
    lin: &Lin,
    n: &Expr,
    last: &dyn Fn(&Expr) -> Expr,
) -> Result<(Expr, Expr, bool, Vec<Expr>), String> {
    let ptr = lin.env.pointer_ty();
    let stride = match (pa.degree(), pa.c1.as_const()) {
        (1, Some(s)) => to_signed(s, ptr.bits()),
        _ => return Err("the store address does not move by a constant stride".into()),
    };
    if stride.unsigned_abs() != width {
        return Err(format!(
            "the store address moves by {stride} bytes, the stored element has {width}"
        ));
    }
    let m = crate::overflow::minus_one(n);
    let a0 = addr.clone();
    let am = last(addr);
    let mut guards = vec![in_range(pa, Interp::Unsigned, &m)];
    if width > 1 {
        for a in [&a0, &am] {
            let end = build::add(a.clone(), int(ptr, width - 1));
            guards.push(bin(BinOp::Ule, a.clone(), end));
        }
    }
    let decreasing = stride < 0;
    let lo = if decreasing { am } else { a0 };
    let len = mul(resize(false, J_TY, ptr, n.clone()), int(ptr, width));
    Ok((lo, len, decreasing, guards))
}

/// `*dst(j) = *src(j)`: both dense with the same stride.
fn plan_copy(
    st: &StoreEffect,
    src: &Expr,
    pa: &Poly,
    lin: &mut Lin,
    n: &Expr,
    last: &dyn Fn(&Expr) -> Expr,
) -> Result<Planned, String> {
    let width = (st.ty.bits() / 8) as u64;
    if src.reads_memory() {
        return Err("a copy from an address that is itself loaded".into());
    }
    let ps = lin.lin(src)?;
    if ps.c1 != pa.c1 || ps.degree() != 1 {
        return Err("a copy whose source and destination move differently".into());
    }
    let (dst_lo, len, _, mut guards) = dense_range(&st.addr, pa, width, lin, n, last)?;
    let (src_lo, _, _, g) = dense_range(src, &ps, width, lin, n, last)?;
    guards.extend(g);
    let effect = MemEffect::Copy {
        dst: dst_lo.clone(),
        src: src_lo.clone(),
        len: len.clone(),
    };
    Ok(Planned {
        effect,
        equal_bytes: None,
        range: (dst_lo, len.clone()),
        read: Some((src_lo, len)),
        guards,
    })
}
