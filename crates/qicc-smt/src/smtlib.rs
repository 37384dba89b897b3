//! SMT-LIB 2.6 text of terms and queries (for `--dump-smt`, debugging, and any solver that
//! reads SMT-LIB on a pipe).
//!
//! A script declares every free symbol, names every closed compound term once with
//! `define-fun` (so its size is linear in the DAG, not in the tree), then asserts and checks.
//! Terms under a lambda that mention its variable are written inline inside the lambda.

use crate::store::{Free, TermStore};
use crate::term::{Node, Sort, TermId};
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
    }
}

fn bound_name(index: u32) -> String {
    format!("|!b{index}|")
}

fn quote(name: &str) -> String {
    format!("|{name}|")
}
