//! Properties other than `unreach-call`, made property assertions of the IR, so that every
//! engine decides them as it decides a `reach_error()` call: one pass per property, run on the
//! lowered program before any engine sees it.
//!
//! `no-overflow` ([`check_overflow`]): every [`Op::NoWrap`] edge (the front-end puts one
//! before each signed `+`, `-`, `*`, `++`, `--` and unary minus, and each signed `<<` when the
//! property is not unreach-call) becomes a branch on its
//! condition whose false side reaches a new [`AssertKind::Overflow`] assertion, and the
//! signed division overflow check (`INT_MIN / -1`, `INT_MIN % -1`: undefined behaviour
//! [`UbKind::DivOverflow`]) becomes one too.
//!
//! `valid-memsafety` and `valid-memcleanup` ([`check_memsafety`]): the invalid read and
//! write checks become [`MemProp::Deref`] assertions and the invalid free checks
//! [`MemProp::Free`] ones; a ghost global counts the live heap objects (one more after each
//! heap `alloc`, one fewer before each `free` of a live heap object: `free` also ends frame
//! objects), and where the program ends — the entry function's exit and every
//! `halt` — a count other than 0 reaches a [`MemProp::Memtrack`] (or
//! [`MemProp::MemtrackAtHalt`]) or a [`MemProp::Memcleanup`] assertion.
//!
//! Invariant: the passes add assertions, ghost updates and split edges, nothing else: every
//! run of the result that reaches no new assertion is a run of the input, step for step, and
//! a run that reaches one stopped exactly where the input's interpreter would report the
//! violation (for overflow, the state before the arithmetic). The caller removes the
//! `unreach-call` assertions first (the front-end lowers `reach_error()` as a call when
//! another property is checked).

use crate::{
    AllocKind, AssertKind, Assertion, BinOp, Edge, Expr, FuncId, Global, Loc, MemProp, Op, Program,
    Span, UbKind, VarRef,
};

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

/// Which end-of-program sub-property [`check_memsafety`] adds: `valid-memsafety`'s
/// `valid-memtrack` or `valid-memcleanup`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemEnd {
    Memtrack,
    Memcleanup,
}

/// The name of the ghost global that counts live heap objects (a temporary's name: traces
/// show its updates only in full).
pub const HEAP_LIVE: &str = "tmp.heap.live";

/// `p` with its memory-safety checks property assertions (module docs).
pub fn check_memsafety(p: &Program, end: MemEnd) -> Program {
    let mut out = p.clone();
    for a in out.assertions.iter_mut() {
        a.kind = match a.kind {
            AssertKind::Ub(UbKind::InvalidRead | UbKind::InvalidWrite) => {
                AssertKind::Memory(MemProp::Deref)
            }
            AssertKind::Ub(UbKind::InvalidFree) => AssertKind::Memory(MemProp::Free),
            k => k,
        };
    }
    let ty = out.layout.pointer_ty();
    let live = out.add_global(Global {
        name: HEAP_LIVE.into(),
        ty,
        unsigned: true,
        init: Some(Expr::konst(ty, 0)),
        span: Span::default(),
    });
    let count = Expr::global(live);
    // `count := count op by`.
    let step =
        |op: BinOp, by: Expr| Op::Assign(VarRef::Global(live), Expr::binary(op, count.clone(), by));
    let none_live = Expr::binary(BinOp::Eq, count.clone(), Expr::konst(ty, 0));
    for fi in 0..out.functions.len() {
        let f = &mut out.functions[fi];
        let edges = std::mem::take(&mut f.edges);
        for e in edges {
            match &e.op {
                Op::Alloc {
                    kind: AllocKind::Heap,
                    ..
                } => {
                    let mid = f.new_loc();
                    f.edges.push(Edge {
                        to: mid,
                        ..e.clone()
                    });
                    f.edges.push(Edge {
                        from: mid,
                        op: step(BinOp::Add, Expr::konst(ty, 1)),
                        ..e
                    });
                }
                // `free` also ends frame objects (a returned function's, an ended block's):
                // only a heap object counts, told before it ends.
                Op::Free(addr) => {
                    let heap = Expr::ite(
                        Expr::freeable(0, addr.clone()),
                        Expr::konst(ty, 1),
                        Expr::konst(ty, 0),
                    );
                    let mid = f.new_loc();
                    f.edges.push(Edge {
                        to: mid,
                        op: step(BinOp::Sub, heap),
                        ..e.clone()
                    });
                    f.edges.push(Edge { from: mid, ..e });
                }
                _ => f.edges.push(e),
            }
        }
    }
    for fi in 0..out.functions.len() {
        let entry = FuncId(fi as u32) == out.entry;
        let edges = std::mem::take(&mut out.functions[fi].edges);
        let mut kept = Vec::with_capacity(edges.len());
        for e in edges {
            let halt = matches!(e.op, Op::Halt(_));
            if !halt && !(entry && e.to == out.functions[fi].exit) {
                kept.push(e);
                continue;
            }
            // The program ends here: a live heap object is a candidate violation.
            let prop = match (end, halt) {
                (MemEnd::Memcleanup, _) => MemProp::Memcleanup,
                (MemEnd::Memtrack, false) => MemProp::Memtrack,
                (MemEnd::Memtrack, true) => MemProp::MemtrackAtHalt,
            };
            let text = match end {
                MemEnd::Memtrack => "every heap object still allocated is reachable",
                MemEnd::Memcleanup => "every heap object is freed",
            };
            // A return from the entry ends the program where its frame ends: the body's
            // closing brace (where peers' leak checks, and their witnesses, stand).
            let span = match out.functions[fi].end {
                end if !halt && end.line != 0 => end,
                _ => e.span,
            };
            let id = out.add_assertion(Assertion {
                kind: AssertKind::Memory(prop),
                func: FuncId(fi as u32),
                span,
                text: Some(text.into()),
            });
            let f = &mut out.functions[fi];
            let (at, ok, bad) = (f.new_loc(), f.new_loc(), f.new_loc());
            let err = f.err;
            // A return's last step (the return value) comes before the check; an `exit`'s
            // code is evaluated by the `halt` after it (the check reads no local).
            let (first, last) = if halt {
                (Op::Skip, e.op.clone())
            } else {
                (e.op.clone(), Op::Skip)
            };
            kept.push(Edge {
                from: e.from,
                to: at,
                op: first,
                span: e.span,
            });
            kept.push(Edge {
                from: at,
                to: ok,
                op: Op::Assume(none_live.clone()),
                span,
            });
            kept.push(Edge {
                from: at,
                to: bad,
                op: Op::Assume(Expr::not(none_live.clone())),
                span,
            });
            kept.push(Edge {
                from: bad,
                to: err,
                op: Op::Error(id),
                span,
            });
            kept.push(Edge {
                from: ok,
                to: e.to,
                op: last,
                span: e.span,
            });
        }
        out.functions[fi].edges = kept;
    }
    out
}
