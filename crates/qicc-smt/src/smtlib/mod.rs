//! SMT-LIB 2.6 text of terms and queries (for `--dump-smt`, debugging, and any solver that
//! reads SMT-LIB on a pipe).
//!
//! A script declares every free symbol, names every closed compound term once with
//! `define-fun` (so its size is linear in the DAG, not in the tree), then asserts and checks.
//! Terms under a lambda that mention its variable are written inline inside the lambda.

mod read;

pub use read::read;

use crate::store::{Free, TermStore};
use crate::term::{Node, Sort, TermId};
use qicc_ir::{FpOp, RoundingMode};
use std::collections::HashMap;
use std::fmt::Write;

/// A complete script: declarations, definitions, `(assert a)` for each of `assertions`, and
/// `(check-sat)`.
pub fn script(store: &TermStore, assertions: &[TermId]) -> String {
    let mut out = String::new();
    out.push_str("(set-option :produce-models true)\n");
    let mut names: HashMap<TermId, String> = HashMap::new();
    store.postorder(assertions, |t| {
        let node = store.node(t);
        match node {
            Node::Symbol { .. } => {
                let name = quote(store.symbol_name(t).unwrap_or("?"));
                let _ = writeln!(out, "(declare-const {name} {})", store.sort(t));
                names.insert(t, name);
            }
            Node::BoolConst(_) | Node::BvConst { .. } | Node::Bound { .. } => {}
            _ if store.free_vars(t) != Free::None => {}
            _ => {
                let body = node_text(store, node, &names);
                let name = format!("t{}", t.index());
                let _ = writeln!(out, "(define-fun {name} () {} {body})", store.sort(t));
                names.insert(t, name);
            }
        }
    });
    for &a in assertions {
        let _ = writeln!(out, "(assert {})", term_text(store, a, &names));
    }
    out.push_str("(check-sat)\n");
    out
}

fn term_text(store: &TermStore, t: TermId, names: &HashMap<TermId, String>) -> String {
    if let Some(n) = names.get(&t) {
        return n.clone();
    }
    match store.node(t) {
        Node::Symbol { .. } => quote(store.symbol_name(t).unwrap_or("?")),
        node => node_text(store, node, names),
    }
}

fn node_text(store: &TermStore, node: &Node, names: &HashMap<TermId, String>) -> String {
    let s = |t: TermId| term_text(store, t, names);
    match *node {
        Node::BoolConst(b) => b.to_string(),
        Node::BvConst { width, value } => format!("(_ bv{value} {width})"),
        Node::Symbol { name, .. } => format!("|sym{name}|"),
        Node::Bound { index, .. } => bound_name(index),
        Node::Not(a) => format!("(not {})", s(a)),
        Node::And(a, b) => format!("(and {} {})", s(a), s(b)),
        Node::Or(a, b) => format!("(or {} {})", s(a), s(b)),
        Node::Xor(a, b) => format!("(xor {} {})", s(a), s(b)),
        Node::Eq(a, b) => format!("(= {} {})", s(a), s(b)),
        Node::Ite(c, a, b) => format!("(ite {} {} {})", s(c), s(a), s(b)),
        Node::BvUn(op, a) => {
            let f = match op {
                crate::BvUnOp::Neg => "bvneg",
                crate::BvUnOp::Not => "bvnot",
            };
            format!("({f} {})", s(a))
        }
        Node::BvBin(op, a, b) => format!("({} {} {})", op.smt_name(), s(a), s(b)),
        Node::BvCmp(op, a, b) => format!("({} {} {})", op.smt_name(), s(a), s(b)),
        Node::Extract { hi, lo, arg } => format!("((_ extract {hi} {lo}) {})", s(arg)),
        Node::Concat(a, b) => format!("(concat {} {})", s(a), s(b)),
        Node::ZeroExt { by, arg } => format!("((_ zero_extend {by}) {})", s(arg)),
        Node::SignExt { by, arg } => format!("((_ sign_extend {by}) {})", s(arg)),
        Node::Select(a, i) => format!("(select {} {})", s(a), s(i)),
        Node::Store(a, i, v) => format!("(store {} {} {})", s(a), s(i), s(v)),
        Node::ConstArray { index, value } => {
            let elem = store.width(value);
            let sort = Sort::Array { index, elem };
            format!("((as const {sort}) {})", s(value))
        }
        Node::Lambda { var, body } => {
            let name = s(var);
            format!("(lambda (({name} {})) {})", store.sort(var), s(body))
        }
        Node::Fp1(op, a) => fp_text(store, op, &[a], names),
        Node::Fp2(op, a, b) => fp_text(store, op, &[a, b], names),
        Node::Fp3(op, a, b, c) => fp_text(store, op, &[a, b, c], names),
    }
}

/// A float node in SMT-LIB's floating-point theory, the same formula the Z3 back-end builds
/// (`z3::translate`), so that a printed query means what the checked one means. The operands
/// are bound by a `let` to `|!a0|`, `|!a1|`, `|!a2|` (the body names nothing else, so no
/// symbol of the query can be captured); results are converted back to bits with Z3's
/// `fp.to_ieee_bv`, a NaN to the IR's default NaN.
fn fp_text(
    store: &TermStore,
    op: FpOp,
    args: &[TermId],
    names: &HashMap<TermId, String>,
) -> String {
    let binds: Vec<String> = args
        .iter()
        .enumerate()
        .map(|(i, &a)| format!("(|!a{i}| {})", term_text(store, a, names)))
        .collect();
    format!(
        "(let ({}) {})",
        binds.join(" "),
        fp_body(op, store.width(args[0]))
    )
}

/// The body of a float node's `let` (see [`fp_text`]) for operands of width `w`: it names the
/// operands only as `|!a0|`, `|!a1|`, `|!a2|`, so `read` finds the node again by its text.
fn fp_body(op: FpOp, w: u16) -> String {
    let fmt = |w: u16| if w == 32 { (8, 24) } else { (11, 53) };
    let to_fp = |w: u16, bits: &str| {
        let (e, p) = fmt(w);
        format!("((_ to_fp {e} {p}) {bits})")
    };
    let x = to_fp(w, "|!a0|");
    let y = to_fp(w, "|!a1|");
    let z = to_fp(w, "|!a2|");
    let wrap = |w: u16, r: String| {
        let nan = qicc_ir::semantics::float::default_nan(w);
        format!("(let ((|!r| {r})) (ite (fp.isNaN |!r|) (_ bv{nan} {w}) (fp.to_ieee_bv |!r|)))")
    };
    let rm = |m: RoundingMode| match m {
        RoundingMode::Rne => "RNE",
        RoundingMode::Rna => "RNA",
        RoundingMode::Rtp => "RTP",
        RoundingMode::Rtn => "RTN",
        RoundingMode::Rtz => "RTZ",
    };
    let pow2 = |k: u16| {
        to_fp(
            w,
            &format!("(_ bv{} {w})", crate::build_fp::pow2_bits(w, k)),
        )
    };
    let body = match op {
        FpOp::Add(m) => wrap(w, format!("(fp.add {} {x} {y})", rm(m))),
        FpOp::Sub(m) => wrap(w, format!("(fp.sub {} {x} {y})", rm(m))),
        FpOp::Mul(m) => wrap(w, format!("(fp.mul {} {x} {y})", rm(m))),
        FpOp::Div(m) => wrap(w, format!("(fp.div {} {x} {y})", rm(m))),
        FpOp::Sqrt(m) => wrap(w, format!("(fp.sqrt {} {x})", rm(m))),
        FpOp::Fma(m) => wrap(w, format!("(fp.fma {} {x} {y} {z})", rm(m))),
        FpOp::RoundToIntegral(m) => wrap(w, format!("(fp.roundToIntegral {} {x})", rm(m))),
        // C's fmod from IEEE's remainder: see `z3::translate`.
        FpOp::Fmod => wrap(
            w,
            format!(
                "(let ((|!x| {x}) (|!y| {y})) (let ((|!m| (fp.rem |!x| |!y|))) \
                 (ite (and (not (fp.isZero |!m|)) (xor (fp.isNegative |!m|) (fp.isNegative |!x|))) \
                 (fp.add RNE |!m| (ite (fp.isNegative |!x|) (fp.neg (fp.abs |!y|)) (fp.abs |!y|))) \
                 |!m|)))"
            ),
        ),
        FpOp::Min | FpOp::Max => {
            let nan = qicc_ir::semantics::float::default_nan(w);
            let (neg_zero_pick, lt_pick) = if op == FpOp::Min {
                ("|!a0| |!a1|", "|!a0| |!a1|")
            } else {
                ("|!a1| |!a0|", "|!a1| |!a0|")
            };
            format!(
                "(let ((|!x| {x}) (|!y| {y})) (ite (fp.isNaN |!x|) (ite (fp.isNaN |!y|) (_ bv{nan} {w}) |!a1|) \
                 (ite (fp.isNaN |!y|) |!a0| (ite (and (fp.isZero |!x|) (fp.isZero |!y|)) \
                 (ite (fp.isNegative |!x|) {neg_zero_pick}) (ite (fp.lt |!x| |!y|) {lt_pick})))))"
            )
        }
        FpOp::Eq => format!("(fp.eq {x} {y})"),
        FpOp::Lt => format!("(fp.lt {x} {y})"),
        FpOp::Le => format!("(fp.leq {x} {y})"),
        FpOp::Convert { to, rm: m } => {
            let (e, p) = fmt(to);
            wrap(to, format!("((_ to_fp {e} {p}) {} {x})", rm(m)))
        }
        FpOp::FromSInt { to, rm: m } | FpOp::FromUInt { to, rm: m } => {
            let (e, p) = fmt(to);
            let f = if matches!(op, FpOp::FromSInt { .. }) {
                "to_fp"
            } else {
                "to_fp_unsigned"
            };
            wrap(to, format!("((_ {f} {e} {p}) {} |!a0|)", rm(m)))
        }
        FpOp::ToSInt { to } => {
            let lim = pow2(to - 1);
            let min = 1u64 << (to - 1);
            let max = qicc_ir::types::mask(to) >> 1;
            format!(
                "(let ((|!x| {x})) (ite (fp.isNaN |!x|) (_ bv0 {to}) (ite (fp.lt |!x| (fp.neg {lim})) (_ bv{min} {to}) \
                 (ite (fp.geq |!x| {lim}) (_ bv{max} {to}) ((_ fp.to_sbv {to}) RTZ |!x|)))))"
            )
        }
        FpOp::ToUInt { to } => {
            let lim = pow2(to);
            let max = qicc_ir::types::mask(to);
            let zero = to_fp(w, &format!("(_ bv0 {w})"));
            format!(
                "(let ((|!x| {x})) (ite (fp.isNaN |!x|) (_ bv0 {to}) (ite (fp.lt |!x| {zero}) (_ bv0 {to}) \
                 (ite (fp.geq |!x| {lim}) (_ bv{max} {to}) ((_ fp.to_ubv {to}) RTZ |!x|)))))"
            )
        }
        // The store never makes these nodes: `TermStore::fp` builds them from bit-vector
        // operators (and `fne` as `not feq`).
        _ => unreachable!("{} is not a float node", op.name()),
    };
    body
}

fn bound_name(index: u32) -> String {
    format!("|!b{index}|")
}

fn quote(name: &str) -> String {
    format!("|{name}|")
}
