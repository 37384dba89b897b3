//! Properties other than `unreach-call`, made property assertions of the IR, so that every
//! engine decides them as it decides a `reach_error()` call: one pass per property, run on the
//! lowered program before any engine sees it.
//!
//! `no-overflow` ([`check_overflow`]): every [`Op::NoWrap`] edge (the front-end puts one
//! before each signed `+`, `-`, `*`, `++`, `--` and unary minus) becomes a branch on its
//! condition whose false side reaches a new [`AssertKind::Overflow`] assertion, and the
//! signed division overflow check (`INT_MIN / -1`, `INT_MIN % -1`: undefined behaviour
//! [`UbKind::DivOverflow`]) becomes one too.
//!
//! Invariant: the pass adds assertions and splits edges, nothing else: every run of the
//! result that reaches no new assertion is a run of the input, step for step, and a run that
//! reaches one stopped exactly where the input's interpreter would report the signed overflow
//! (the state before the arithmetic). The caller removes the `unreach-call` assertions first
//! (the front-end lowers `reach_error()` as a call when another property is checked).

use crate::{AssertKind, Assertion, Edge, Expr, Loc, Op, Program, UbKind};

/// `p` with every signed overflow a property assertion ([`AssertKind::Overflow`]); the text
/// of each names the operation's place.
pub fn check_overflow(p: &Program) -> Program {
    let mut out = p.clone();
    for a in out.assertions.iter_mut() {
        if a.kind == AssertKind::Ub(UbKind::DivOverflow) {
            a.kind = AssertKind::Overflow;
            a.text = Some("signed division overflow (INT_MIN / -1)".into());
        }
    }
    for fi in 0..out.functions.len() {
        let edges = std::mem::take(&mut out.functions[fi].edges);
        let mut kept = Vec::with_capacity(edges.len());
        for e in edges {
            let Op::NoWrap(ok) = &e.op else {
                kept.push(e);
                continue;
            };
            let id = out.add_assertion(Assertion {
                kind: AssertKind::Overflow,
                func: crate::FuncId(fi as u32),
                span: e.span,
                text: Some("signed integer overflow".into()),
            });
            let f = &mut out.functions[fi];
            let bad: Loc = f.new_loc();
            let err = f.err;
            kept.push(Edge {
                op: Op::Assume(ok.clone()),
                ..e.clone()
            });
            kept.push(Edge {
                from: e.from,
                to: bad,
                op: Op::Assume(Expr::not(ok.clone())),
                span: e.span,
            });
            kept.push(Edge {
                from: bad,
                to: err,
                op: Op::Error(id),
                span: e.span,
            });
        }
        out.functions[fi].edges = kept;
    }
    out
}
