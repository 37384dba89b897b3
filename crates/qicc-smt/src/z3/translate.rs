//! Term → Z3 AST, memoised per term and iterative (unrolled programs give DAGs far deeper
//! than the thread stack). See the parent module for the reference-counting invariants.

use super::{Shape, Z3Solver};
use crate::store::TermStore;
use crate::term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
use qicc_ir::semantics::float::default_nan;
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

    /// The bit-vector constant `v` of width `w`.
    fn bv(&mut self, w: u16, v: u64) -> Result<Z3_ast, String> {
        let s = sort_of(self.z, Sort::BitVec(w))?;
        // SAFETY: the sort is cached (alive).
        let a = unsafe { Z3_mk_unsigned_int64(self.z.ctx, v & mask(w), s) };
        self.keep(a)
    }

    /// The float whose IEEE bits (width `w`) are `bits`.
    fn float_of_bits(&mut self, w: u16, bits: Z3_ast) -> Result<Z3_ast, String> {
        let s = self.sort(w)?;
        // SAFETY: live AST and sort.
        let a = unsafe { Z3_mk_fpa_to_fp_bv(self.z.ctx, bits, s) };
        self.keep(a)
    }

    /// The float constant with IEEE bits `v`.
    fn float_const(&mut self, w: u16, v: u64) -> Result<Z3_ast, String> {
        let b = self.bv(w, v)?;
        self.float_of_bits(w, b)
    }

    /// The IEEE bits of the float `r` of width `w`, a NaN as the IR's default NaN (SMT-LIB
    /// leaves the bits of a NaN unspecified; `qicc_ir::semantics::float` fixes them).
    fn bits_of_float(&mut self, w: u16, r: Z3_ast) -> Result<Z3_ast, String> {
        let c = self.z.ctx;
        let nan = self.bv(w, default_nan(w))?;
        // SAFETY: live ASTs of this context.
        let is_nan = unsafe { Z3_mk_fpa_is_nan(c, r) };
        let is_nan = self.keep(is_nan)?;
        // SAFETY: as above.
        let bits = unsafe { Z3_mk_fpa_to_ieee_bv(c, r) };
        let bits = self.keep(bits)?;
        self.ite(is_nan, nan, bits)
    }

    fn ite(&mut self, c: Z3_ast, a: Z3_ast, b: Z3_ast) -> Result<Z3_ast, String> {
        // SAFETY: live ASTs of this context.
        let r = unsafe { Z3_mk_ite(self.z.ctx, c, a, b) };
        self.keep(r)
    }

    /// A one-argument Z3 function of the context.
    fn un(
        &mut self,
        f: unsafe extern "C" fn(Z3_context, Z3_ast) -> Option<Z3_ast>,
        a: Z3_ast,
    ) -> Result<Z3_ast, String> {
        // SAFETY: `f` is a Z3 constructor; `a` is alive.
        let r = unsafe { f(self.z.ctx, a) };
        self.keep(r)
    }

    fn bin(
        &mut self,
        f: unsafe extern "C" fn(Z3_context, Z3_ast, Z3_ast) -> Option<Z3_ast>,
        a: Z3_ast,
        b: Z3_ast,
    ) -> Result<Z3_ast, String> {
        // SAFETY: `f` is a Z3 constructor; `a` and `b` are alive.
        let r = unsafe { f(self.z.ctx, a, b) };
        self.keep(r)
    }

    fn and(&mut self, a: Z3_ast, b: Z3_ast) -> Result<Z3_ast, String> {
        // SAFETY: live ASTs; the array is a live local.
        let r = unsafe { Z3_mk_and(self.z.ctx, 2, [a, b].as_ptr()) };
        self.keep(r)
    }
}

/// The owned (inc_ref'ed) AST of the float node `t`, whose operands are translated: Z3's
/// floating-point theory between conversions from and to IEEE bits, with every choice
/// SMT-LIB leaves open fixed as `qicc_ir::semantics::float` fixes it.
fn fp_ast(z: &mut Z3Solver, store: &TermStore, t: TermId, op: FpOp) -> Result<Z3_ast, String> {
    let mut args: Vec<TermId> = Vec::with_capacity(3);
    store.node(t).for_each_child(|c| args.push(c));
    let mut k: Vec<Z3_ast> = Vec::with_capacity(3);
    for &a in &args {
        match z.memo[a.index()] {
            Some(x) => k.push(x),
            None => return Err("internal error: child translated after its parent".to_string()),
        }
    }
    if k.len() != op.arity() {
        return Err(format!(
            "internal error: {} with {} operands",
            op.name(),
            k.len()
        ));
    }
    let w = store.width(args[0]);
    let mut b = FpBuilder {
        z,
        held: Vec::new(),
    };
    let c = b.z.ctx;
    // The operands as floats (not for the int-to-float conversions, whose operand is an int).
    let mut f: Vec<Z3_ast> = Vec::with_capacity(3);
    if !matches!(op, FpOp::FromSInt { .. } | FpOp::FromUInt { .. }) {
        for &x in &k {
            f.push(b.float_of_bits(w, x)?);
        }
    }
    let r = match op {
        FpOp::Add(m) | FpOp::Sub(m) | FpOp::Mul(m) | FpOp::Div(m) => {
            let rm = b.rm(m)?;
            let g = match op {
                FpOp::Add(_) => Z3_mk_fpa_add,
                FpOp::Sub(_) => Z3_mk_fpa_sub,
                FpOp::Mul(_) => Z3_mk_fpa_mul,
                _ => Z3_mk_fpa_div,
            };
            // SAFETY: live ASTs of this context.
            let r = unsafe { g(c, rm, f[0], f[1]) };
            let r = b.keep(r)?;
            b.bits_of_float(w, r)?
        }
        FpOp::Sqrt(m) | FpOp::RoundToIntegral(m) => {
            let rm = b.rm(m)?;
            let g = if matches!(op, FpOp::Sqrt(_)) {
                Z3_mk_fpa_sqrt
            } else {
                Z3_mk_fpa_round_to_integral
            };
            // SAFETY: live ASTs of this context.
            let r = unsafe { g(c, rm, f[0]) };
            let r = b.keep(r)?;
            b.bits_of_float(w, r)?
        }
        FpOp::Fma(m) => {
            let rm = b.rm(m)?;
            // SAFETY: live ASTs of this context.
            let r = unsafe { Z3_mk_fpa_fma(c, rm, f[0], f[1], f[2]) };
            let r = b.keep(r)?;
            b.bits_of_float(w, r)?
        }
        FpOp::Fmod => {
            // C's fmod is x - n*y with n = x/y truncated; IEEE's remainder (fp.rem) rounds
            // n to nearest instead, so its result m lies in [-|y|/2, |y|/2] and may have the
            // sign opposite to x. Then fmod = m + |y| (x positive) or m - |y| (x negative):
            // the two differ by exactly |y|, and fmod's result is representable (fmod is
            // always exact), so the addition rounds nothing. A zero m already has x's sign
            // (IEEE), as fmod's zero has; NaN, infinite x and zero y give NaN either way,
            // and infinite y gives m = x, as fmod does.
            let (x, y) = (f[0], f[1]);
            let m = b.bin(Z3_mk_fpa_rem, x, y)?;
            let m_zero = b.un(Z3_mk_fpa_is_zero, m)?;
            let m_nonzero = b.un(Z3_mk_not, m_zero)?;
            let m_neg = b.un(Z3_mk_fpa_is_negative, m)?;
            let x_neg = b.un(Z3_mk_fpa_is_negative, x)?;
            let differ = b.bin(Z3_mk_xor, m_neg, x_neg)?;
            let fix = b.and(m_nonzero, differ)?;
            let ay = b.un(Z3_mk_fpa_abs, y)?;
            let nay = b.un(Z3_mk_fpa_neg, ay)?;
            let step = b.ite(x_neg, nay, ay)?;
            let rne = b.rm(RoundingMode::Rne)?;
            // SAFETY: live ASTs of this context.
            let fixed = unsafe { Z3_mk_fpa_add(c, rne, m, step) };
            let fixed = b.keep(fixed)?;
            let r = b.ite(fix, fixed, m)?;
            b.bits_of_float(w, r)?
        }
        FpOp::Min | FpOp::Max => {
            // C's fmin/fmax on the bits (SMT-LIB's fp.min/fp.max leave min(-0, +0) open):
            // a NaN operand is ignored (two give the default NaN), -0 < +0, and otherwise
            // min picks x iff x < y, max picks x iff not x < y (`semantics::float::min_max`).
            let (x, y) = (f[0], f[1]);
            let (xb, yb) = (k[0], k[1]);
            let nan = b.bv(w, default_nan(w))?;
            let x_nan = b.un(Z3_mk_fpa_is_nan, x)?;
            let y_nan = b.un(Z3_mk_fpa_is_nan, y)?;
            let x_zero = b.un(Z3_mk_fpa_is_zero, x)?;
            let y_zero = b.un(Z3_mk_fpa_is_zero, y)?;
            let zeros = b.and(x_zero, y_zero)?;
            let x_neg = b.un(Z3_mk_fpa_is_negative, x)?;
            let lt = b.bin(Z3_mk_fpa_lt, x, y)?;
            let (on_zeros, on_lt) = if op == FpOp::Min {
                (b.ite(x_neg, xb, yb)?, b.ite(lt, xb, yb)?)
            } else {
                (b.ite(x_neg, yb, xb)?, b.ite(lt, yb, xb)?)
            };
            let numbers = b.ite(zeros, on_zeros, on_lt)?;
            let x_num = b.ite(y_nan, xb, numbers)?;
            let x_is_nan = b.ite(y_nan, nan, yb)?;
            b.ite(x_nan, x_is_nan, x_num)?
        }
        FpOp::Eq => b.bin(Z3_mk_fpa_eq, f[0], f[1])?,
        FpOp::Lt => b.bin(Z3_mk_fpa_lt, f[0], f[1])?,
        FpOp::Le => b.bin(Z3_mk_fpa_leq, f[0], f[1])?,
        FpOp::Convert { to, rm: m } => {
            let rm = b.rm(m)?;
            let s = b.sort(to)?;
            // SAFETY: live ASTs and sort of this context.
            let r = unsafe { Z3_mk_fpa_to_fp_float(c, rm, f[0], s) };
            let r = b.keep(r)?;
            b.bits_of_float(to, r)?
        }
        FpOp::FromSInt { to, rm: m } | FpOp::FromUInt { to, rm: m } => {
            let rm = b.rm(m)?;
            let s = b.sort(to)?;
            let g = if matches!(op, FpOp::FromSInt { .. }) {
                Z3_mk_fpa_to_fp_signed
            } else {
                Z3_mk_fpa_to_fp_unsigned
            };
            // SAFETY: live ASTs and sort of this context.
            let r = unsafe { g(c, rm, k[0], s) };
            let r = b.keep(r)?;
            b.bits_of_float(to, r)?
        }
        FpOp::ToSInt { to } | FpOp::ToUInt { to } => {
            // Truncation toward zero (RTZ), with SMT-LIB's unspecified cases fixed as the IR
            // fixes them: NaN gives 0, values below / at or above the range saturate.
            let x = f[0];
            let signed = matches!(op, FpOp::ToSInt { .. });
            let to32 = u32::from(to);
            let (low, min, high, max) = if signed {
                let lim = crate::build_fp::pow2_bits(w, to - 1);
                let hi = b.float_const(w, lim)?;
                let lo = b.un(Z3_mk_fpa_neg, hi)?;
                (lo, 1u64 << (to - 1), hi, mask(to) >> 1)
            } else {
                // Below 0 is (-1, 0), which truncates to 0, or less, which saturates to 0.
                let lo = b.float_const(w, 0)?;
                let hi = b.float_const(w, crate::build_fp::pow2_bits(w, to))?;
                (lo, 0, hi, mask(to))
            };
            let rtz = b.rm(RoundingMode::Rtz)?;
            // SAFETY: live ASTs of this context.
            let conv = unsafe {
                if signed {
                    Z3_mk_fpa_to_sbv(c, rtz, x, to32)
                } else {
                    Z3_mk_fpa_to_ubv(c, rtz, x, to32)
                }
            };
            let conv = b.keep(conv)?;
            let zero = b.bv(to, 0)?;
            let min = b.bv(to, min)?;
            let max = b.bv(to, max)?;
            let is_nan = b.un(Z3_mk_fpa_is_nan, x)?;
            let below = b.bin(Z3_mk_fpa_lt, x, low)?;
            let above = b.bin(Z3_mk_fpa_geq, x, high)?;
            let r = b.ite(above, max, conv)?;
            let r = b.ite(below, min, r)?;
            b.ite(is_nan, zero, r)?
        }
        // `TermStore::fp` builds these from bit-vector operators: never nodes.
        _ => return Err(format!("internal error: {} as a float node", op.name())),
    };
    // SAFETY: handed to the caller, which keeps it in the memo (the builder's own reference
    // is released when it is dropped).
    unsafe { Z3_inc_ref(c, r) };
    Ok(r)
}
