//! Term → Z3 AST, memoised per term and iterative (unrolled programs give DAGs far deeper
//! than the thread stack). See the parent module for the reference-counting invariants.

use super::{Shape, Z3Solver};
use crate::store::TermStore;
use crate::term::{BvBinOp, BvCmpOp, BvUnOp, Node, Sort, TermId};
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
        let a = mk_ast(z, store, t)?;
        // SAFETY: a fresh AST of this context; kept in the memo until `Drop`.
        unsafe { Z3_inc_ref(z.ctx, a) };
        z.memo[t.index()] = Some(a);
        let node = store.node(t);
        let mut shape = match node {
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
