//! Term → Z3 AST, memoised per term and iterative (unrolled programs give DAGs far deeper
//! than the thread stack). See the parent module for the reference-counting invariants.

use super::{Shape, Z3Solver};
use crate::fp_encode::{self, Fp, FpTheory, From};
use crate::store::TermStore;
use crate::term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
use qicc_ir::types::mask;
use qicc_ir::{FpOp, RoundingMode};
use std::ffi::CString;
use z3_sys::*;

/// The error a translation stopped by an interrupt reports.
pub(super) const INTERRUPTED: &str = "interrupted";

/// The AST of `root`, translating every term below it that has no translation yet.
pub(super) fn translate(
    z: &mut Z3Solver,
    store: &TermStore,
    root: TermId,
) -> Result<Z3_ast, String> {
    if z.memo.len() < store.len() {
        z.memo.resize(store.len(), None);
        z.shape_below.resize(store.len(), 0);
    }
    if let Some(a) = z.memo[root.index()] {
        return Ok(a);
    }
    let mut stack: Vec<(TermId, bool)> = vec![(root, false)];
    let mut done = 0u32;
    while let Some((t, ready)) = stack.pop() {
        if z.memo[t.index()].is_some() {
            continue;
        }
        if !ready {
            stack.push((t, true));
            store.node(t).for_each_child(|c| {
                if z.memo[c.index()].is_none() {
                    stack.push((c, false));
                }
            });
            continue;
        }
        // Translating a deep unwinding takes seconds: honour interrupts meanwhile.
        done += 1;
        if done & 1023 == 0 && z.interrupt.is_interrupted() {
            return Err(INTERRUPTED.to_string());
        }
        let node = store.node(t);
        let a = match *node {
            // Owned already (inc_ref'ed by `fp_ast`).
            Node::Fp1(op, ..) | Node::Fp2(op, ..) | Node::Fp3(op, ..) => fp_ast(z, store, t, op)?,
            _ => {
                let a = mk_ast(z, store, t)?;
                // SAFETY: a fresh AST of this context; kept in the memo until `Drop`.
                unsafe { Z3_inc_ref(z.ctx, a) };
                a
            }
        };
        z.memo[t.index()] = Some(a);
        let mut shape = match node {
            Node::Fp1(..) | Node::Fp2(..) | Node::Fp3(..) => Shape::FLOAT,
            Node::Lambda { .. } => Shape::LAMBDA | Shape::BUILT,
            Node::Store(..) | Node::ConstArray { .. } => Shape::BUILT,
            Node::Ite(..) if matches!(store.sort(t), Sort::Array { .. }) => Shape::BUILT,
            Node::Select(..) => {
                z.selects += 1;
                Shape::SELECT
            }
            _ => 0,
        };
        node.for_each_child(|c| shape |= z.shape_below[c.index()]);
        z.shape_below[t.index()] = shape;
    }
    z.memo[root.index()].ok_or_else(|| "internal error: translation missing".to_string())
}

fn sort_of(z: &mut Z3Solver, s: Sort) -> Result<Z3_sort, String> {
    if let Some(&x) = z.sorts.get(&s) {
        return Ok(x);
    }
    let failed = |z: &mut Z3Solver| z.take_error().unwrap_or_else(|| "z3 made no sort".into());
    let ctx = z.ctx;
    // SAFETY: sorts are ASTs; a sort kept beyond this call is inc_ref'ed (as an AST) while
    // cached; the bit-vector sorts of an array sort are owned by it.
    let x = unsafe {
        match s {
            Sort::Bool => Z3_mk_bool_sort(ctx),
            Sort::BitVec(w) => Z3_mk_bv_sort(ctx, w as u32),
            Sort::Array { index, elem } => {
                match (
                    Z3_mk_bv_sort(ctx, index as u32),
                    Z3_mk_bv_sort(ctx, elem as u32),
                ) {
                    (Some(i), Some(e)) => Z3_mk_array_sort(ctx, i, e),
                    _ => None,
                }
            }
        }
    };
    // SAFETY: as above.
    let Some(ast) = x.and_then(|x| unsafe { Z3_sort_to_ast(ctx, x) }) else {
        return Err(failed(z));
    };
    // SAFETY: a live AST of this context; dec_ref'ed when the cache is dropped.
    unsafe { Z3_inc_ref(ctx, ast) };
    let x = x.expect("checked above");
    z.sorts.insert(s, x);
    Ok(x)
}

fn named_const(z: &mut Z3Solver, name: &str, sort: Sort) -> Result<Z3_ast, String> {
    let s = sort_of(z, sort)?;
    let cname = CString::new(name).map_err(|_| format!("symbol name with NUL: {name:?}"))?;
    // SAFETY: the symbol is interned by Z3; the sort is alive.
    let a = unsafe {
        Z3_mk_string_symbol(z.ctx, cname.as_ptr()).and_then(|sym| Z3_mk_const(z.ctx, sym, s))
    };
    finish(z, a)
}

/// The AST of one node whose children are all translated.
fn mk_ast(z: &mut Z3Solver, store: &TermStore, t: TermId) -> Result<Z3_ast, String> {
    let node = *store.node(t);
    let mut k: Vec<Z3_ast> = Vec::with_capacity(3);
    let mut missing = false;
    node.for_each_child(|x| match z.memo[x.index()] {
        Some(a) => k.push(a),
        None => missing = true,
    });
    if missing {
        return Err("internal error: child translated after its parent".to_string());
    }
    // Leaves and sorts first (they need `z` mutably for the sort cache).
    let leaf = match node {
        Node::BvConst { width, .. } => Some(sort_of(z, Sort::BitVec(width))?),
        Node::ConstArray { index, .. } => Some(sort_of(z, Sort::BitVec(index))?),
        Node::Symbol { sort, .. } => {
            let name = store.symbol_name(t).unwrap_or("?").to_string();
            return named_const(z, &name, sort);
        }
        Node::Bound { index, sort } => {
            return named_const(z, &format!("!b{index}"), sort);
        }
        _ => None,
    };
    let c = z.ctx;
    // SAFETY (whole match): every argument is a live AST of this context (children are
    // memoised and inc_ref'ed; `leaf` sorts are cached and inc_ref'ed), and array
    // arguments point into live locals.
    let a = unsafe {
        match node {
            Node::BoolConst(true) => Z3_mk_true(c),
            Node::BoolConst(false) => Z3_mk_false(c),
            Node::BvConst { value, .. } => {
                Z3_mk_unsigned_int64(c, value, leaf.expect("sort made above"))
            }
            Node::Symbol { .. } | Node::Bound { .. } => unreachable!("returned above"),
            Node::Not(_) => Z3_mk_not(c, k[0]),
            Node::And(..) => Z3_mk_and(c, 2, k.as_ptr()),
            Node::Or(..) => Z3_mk_or(c, 2, k.as_ptr()),
            Node::Xor(..) => Z3_mk_xor(c, k[0], k[1]),
            Node::Eq(..) => Z3_mk_eq(c, k[0], k[1]),
            Node::Ite(..) => Z3_mk_ite(c, k[0], k[1], k[2]),
            Node::BvUn(BvUnOp::Neg, _) => Z3_mk_bvneg(c, k[0]),
            Node::BvUn(BvUnOp::Not, _) => Z3_mk_bvnot(c, k[0]),
            Node::BvBin(op, ..) => {
                let f = match op {
                    BvBinOp::Add => Z3_mk_bvadd,
                    BvBinOp::Sub => Z3_mk_bvsub,
                    BvBinOp::Mul => Z3_mk_bvmul,
                    BvBinOp::UDiv => Z3_mk_bvudiv,
                    BvBinOp::SDiv => Z3_mk_bvsdiv,
                    BvBinOp::URem => Z3_mk_bvurem,
                    BvBinOp::SRem => Z3_mk_bvsrem,
                    BvBinOp::Shl => Z3_mk_bvshl,
                    BvBinOp::LShr => Z3_mk_bvlshr,
                    BvBinOp::AShr => Z3_mk_bvashr,
                    BvBinOp::And => Z3_mk_bvand,
                    BvBinOp::Or => Z3_mk_bvor,
                    BvBinOp::Xor => Z3_mk_bvxor,
                };
                f(c, k[0], k[1])
            }
            Node::BvCmp(op, ..) => {
                let f = match op {
                    BvCmpOp::Ult => Z3_mk_bvult,
                    BvCmpOp::Ule => Z3_mk_bvule,
                    BvCmpOp::Slt => Z3_mk_bvslt,
                    BvCmpOp::Sle => Z3_mk_bvsle,
                };
                f(c, k[0], k[1])
            }
            Node::Extract { hi, lo, .. } => Z3_mk_extract(c, hi as u32, lo as u32, k[0]),
            Node::Concat(..) => Z3_mk_concat(c, k[0], k[1]),
            Node::ZeroExt { by, .. } => Z3_mk_zero_ext(c, by as u32, k[0]),
            Node::SignExt { by, .. } => Z3_mk_sign_ext(c, by as u32, k[0]),
            Node::Select(..) => Z3_mk_select(c, k[0], k[1]),
            Node::Store(..) => Z3_mk_store(c, k[0], k[1], k[2]),
            Node::ConstArray { .. } => Z3_mk_const_array(c, leaf.expect("sort made above"), k[0]),
            Node::Lambda { .. } => match Z3_to_app(c, k[0]) {
                Some(app) => Z3_mk_lambda_const(c, 1, [app].as_ptr(), k[1]),
                None => None,
            },
            Node::Fp1(..) | Node::Fp2(..) | Node::Fp3(..) => {
                return Err("internal error: a float node outside `fp_ast`".to_string())
            }
        }
    };
    finish(z, a)
}

/// The AST Z3 made, or the error it raised (it answers no AST then).
fn finish(z: &mut Z3Solver, a: Option<Z3_ast>) -> Result<Z3_ast, String> {
    if let Some(e) = z.take_error() {
        return Err(e);
    }
    a.ok_or_else(|| "z3 returned no AST".to_string())
}

/// Builds the Z3 terms of one float node: every intermediate AST is held (inc_ref'ed) while
/// the formula is built — in a reference-counted context a fresh AST with no reference may be
/// freed by the next call — and released when the builder is dropped.
struct FpBuilder<'a> {
    z: &'a mut Z3Solver,
    held: Vec<Z3_ast>,
}

impl Drop for FpBuilder<'_> {
    fn drop(&mut self) {
        for a in self.held.drain(..) {
            // SAFETY: each was inc_ref'ed once by `keep`; the context is alive.
            unsafe { Z3_dec_ref(self.z.ctx, a) };
        }
    }
}

impl FpBuilder<'_> {
    /// Holds the AST Z3 made, or reports the error it raised.
    fn keep(&mut self, a: Option<Z3_ast>) -> Result<Z3_ast, String> {
        let a = finish(self.z, a)?;
        // SAFETY: a live AST of this context, released in `drop`.
        unsafe { Z3_inc_ref(self.z.ctx, a) };
        self.held.push(a);
        Ok(a)
    }

    /// The FP sort of the IEEE format of width `w` (32: binary32; anything else, which the
    /// IR's verifier rejects, binary64 as `qicc_ir::semantics::float::Format::of` reads it),
    /// cached in the solver like the other sorts.
    fn sort(&mut self, w: u16) -> Result<Z3_sort, String> {
        let w = if w == 32 { 32 } else { 64 };
        if let Some(&s) = self.z.fp_sorts.get(&w) {
            return Ok(s);
        }
        let ctx = self.z.ctx;
        // SAFETY: a sort is an AST; the cached one is inc_ref'ed once and dec_ref'ed when the
        // solver is dropped (as `sort_of`'s).
        let s = unsafe {
            if w == 32 {
                Z3_mk_fpa_sort_32(ctx)
            } else {
                Z3_mk_fpa_sort_64(ctx)
            }
        };
        let Some(ast) = s.and_then(|s| unsafe { Z3_sort_to_ast(ctx, s) }) else {
            return Err(self
                .z
                .take_error()
                .unwrap_or_else(|| "z3 made no FP sort".into()));
        };
        // SAFETY: as above.
        unsafe { Z3_inc_ref(ctx, ast) };
        let s = s.ok_or_else(|| "z3 made no FP sort".to_string())?;
        self.z.fp_sorts.insert(w, s);
        Ok(s)
    }
}

impl FpTheory for FpBuilder<'_> {
    type T = Z3_ast;

    fn rm(&mut self, m: RoundingMode) -> Result<Z3_ast, String> {
        let c = self.z.ctx;
        // SAFETY: plain constructors of this context.
        let a = unsafe {
            match m {
                RoundingMode::Rne => Z3_mk_fpa_rne(c),
                RoundingMode::Rna => Z3_mk_fpa_rna(c),
                RoundingMode::Rtp => Z3_mk_fpa_rtp(c),
                RoundingMode::Rtn => Z3_mk_fpa_rtn(c),
                RoundingMode::Rtz => Z3_mk_fpa_rtz(c),
            }
        };
        self.keep(a)
    }

    fn bv(&mut self, w: u16, v: u64) -> Result<Z3_ast, String> {
        let s = sort_of(self.z, Sort::BitVec(w))?;
        // SAFETY: the sort is cached (alive).
        let a = unsafe { Z3_mk_unsigned_int64(self.z.ctx, v & mask(w), s) };
        self.keep(a)
    }

    fn float_of_bits(&mut self, w: u16, bits: Z3_ast) -> Result<Z3_ast, String> {
        let s = self.sort(w)?;
        // SAFETY: live AST and sort.
        let a = unsafe { Z3_mk_fpa_to_fp_bv(self.z.ctx, bits, s) };
        self.keep(a)
    }

    fn ieee_bits(&mut self, _w: u16, r: Z3_ast) -> Result<Z3_ast, String> {
        // SAFETY: a live AST of this context.
        let bits = unsafe { Z3_mk_fpa_to_ieee_bv(self.z.ctx, r) };
        self.keep(bits)
    }

    fn op(&mut self, op: Fp, a: &[Z3_ast]) -> Result<Z3_ast, String> {
        let c = self.z.ctx;
        let n = match op {
            Fp::Sqrt | Fp::RoundToIntegral => 2,
            Fp::Add | Fp::Sub | Fp::Mul | Fp::Div | Fp::Ite => 3,
            Fp::Fma => 4,
            Fp::IsNan | Fp::IsZero | Fp::IsNegative | Fp::Abs | Fp::Neg | Fp::Not => 1,
            Fp::Rem | Fp::Lt | Fp::Leq | Fp::Geq | Fp::Eq | Fp::And | Fp::Xor => 2,
        };
        if a.len() != n {
            return Err(format!("internal error: {op:?} with {} operands", a.len()));
        }
        // SAFETY: `a` holds live ASTs of this context (checked count above); the array of
        // `Z3_mk_and` is a live local.
        let r = unsafe {
            match op {
                Fp::Add => Z3_mk_fpa_add(c, a[0], a[1], a[2]),
                Fp::Sub => Z3_mk_fpa_sub(c, a[0], a[1], a[2]),
                Fp::Mul => Z3_mk_fpa_mul(c, a[0], a[1], a[2]),
                Fp::Div => Z3_mk_fpa_div(c, a[0], a[1], a[2]),
                Fp::Sqrt => Z3_mk_fpa_sqrt(c, a[0], a[1]),
                Fp::RoundToIntegral => Z3_mk_fpa_round_to_integral(c, a[0], a[1]),
                Fp::Fma => Z3_mk_fpa_fma(c, a[0], a[1], a[2], a[3]),
                Fp::Rem => Z3_mk_fpa_rem(c, a[0], a[1]),
                Fp::IsNan => Z3_mk_fpa_is_nan(c, a[0]),
                Fp::IsZero => Z3_mk_fpa_is_zero(c, a[0]),
                Fp::IsNegative => Z3_mk_fpa_is_negative(c, a[0]),
                Fp::Abs => Z3_mk_fpa_abs(c, a[0]),
                Fp::Neg => Z3_mk_fpa_neg(c, a[0]),
                Fp::Lt => Z3_mk_fpa_lt(c, a[0], a[1]),
                Fp::Leq => Z3_mk_fpa_leq(c, a[0], a[1]),
                Fp::Geq => Z3_mk_fpa_geq(c, a[0], a[1]),
                Fp::Eq => Z3_mk_fpa_eq(c, a[0], a[1]),
                Fp::Ite => Z3_mk_ite(c, a[0], a[1], a[2]),
                Fp::And => Z3_mk_and(c, 2, [a[0], a[1]].as_ptr()),
                Fp::Not => Z3_mk_not(c, a[0]),
                Fp::Xor => Z3_mk_xor(c, a[0], a[1]),
            }
        };
        self.keep(r)
    }

    fn to_float(&mut self, from: From, rm: Z3_ast, x: Z3_ast, to: u16) -> Result<Z3_ast, String> {
        let s = self.sort(to)?;
        let c = self.z.ctx;
        // SAFETY: live ASTs and sort of this context.
        let r = unsafe {
            match from {
                From::Float => Z3_mk_fpa_to_fp_float(c, rm, x, s),
                From::SInt => Z3_mk_fpa_to_fp_signed(c, rm, x, s),
                From::UInt => Z3_mk_fpa_to_fp_unsigned(c, rm, x, s),
            }
        };
        self.keep(r)
    }

    fn to_int(&mut self, signed: bool, rm: Z3_ast, x: Z3_ast, to: u16) -> Result<Z3_ast, String> {
        let c = self.z.ctx;
        // SAFETY: live ASTs of this context.
        let r = unsafe {
            if signed {
                Z3_mk_fpa_to_sbv(c, rm, x, u32::from(to))
            } else {
                Z3_mk_fpa_to_ubv(c, rm, x, u32::from(to))
            }
        };
        self.keep(r)
    }
}

/// The owned (inc_ref'ed) AST of the float node `t`, whose operands are translated: the
/// shared encoding (`crate::fp_encode`) over Z3's floating-point theory.
fn fp_ast(z: &mut Z3Solver, store: &TermStore, t: TermId, op: FpOp) -> Result<Z3_ast, String> {
    let (w, k, known) = fp_encode::operands(store, t, op, &z.memo, &z.float_value)?;
    let mut b = FpBuilder {
        z,
        held: Vec::new(),
    };
    let (r, value) = fp_encode::encode(&mut b, op, w, &k, &known)?;
    // SAFETY: handed to the caller, which keeps it in the memo, and the float value kept in
    // `float_value`, each with a reference of its own (the builder's are released when it
    // is dropped); both are released in the solver's `Drop`.
    unsafe { Z3_inc_ref(b.z.ctx, r) };
    if let Some(v) = value {
        unsafe { Z3_inc_ref(b.z.ctx, v) };
        b.z.float_value.insert(t.index(), v);
    }
    Ok(r)
}
