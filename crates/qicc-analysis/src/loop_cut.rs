//! Loops cut at their heads by invariants: the program transformation behind every proof of
//! an unbounded loop (Houdini's checks and the proof that uses what it found).
//!
//! Two passes. [`add_ghosts`] prepares the program: on every edge that enters a natural
//! loop's head from outside, it copies each integer variable the loop may change into a
//! *ghost* local (`ghost.L<h>.<name>`) that nothing else writes, so a candidate invariant can
//! speak of the values the loop started with (`x - x0 == 2 * (y - y0)`). Ghosts only add
//! deterministic assignments: the program makes the same nondeterministic requests in the
//! same order, and every run ends as before, so a proof about the prepared program is a proof
//! about the input (assertion ids are kept).
//!
//! [`cut_loops`] then replaces each natural loop's head `h` (of the prepared program) by:
//! - every edge entering `h` from outside the loop goes to a new location `in`, and every
//!   edge closing an iteration (from inside the loop into `h`) to a new location `back`;
//! - with `check`, both `in` and `back` branch to one `error` edge per candidate `I_j` (a new
//!   assertion, `assume ¬I_j`), independently of the others;
//! - `in` goes on to the *havoc chain*: `havoc` of every local and global the loop may change
//!   (through its calls too: their mod-sets), `havoc_contents` if it may write memory
//!   (`havoc_memory` if it may also allocate or free), then
//!   `assume I_1 ∧ … ∧ I_n`, then `h`; `back` goes nowhere (the run blocks);
//! - an edge leaving the loop from `h` under `y <= x`, where some `I_j` is `x <= y`, is
//!   followed by `assume x == y` (implied: see `exit_equalities`), and where one of the two
//!   is a variable the loop does not change, by its assignment from the other (a no-op:
//!   see `exit_replacement`).
//!
//! The result has no natural loop left. Why it is sound (Houdini, Flanagan & Leino): suppose
//! no check assertion of a `check` cut can fail. Then every candidate holds at every visit of
//! its head in every run of the prepared program, by induction on the visits: the path from
//! the previous head visit (or the program's start) to this one is a path of the cut program
//! from the havoc chain that matches the previous visit's state (the havocs can pick its
//! values, and by induction it satisfies the assumed candidates; what the loop cannot change
//! keeps its value), and it ends in `in` or `back`, whose checks cannot fail. So the cut
//! program covers every run of the prepared program up to each head visit and from it on;
//! if an original assertion cannot fail in it, it cannot fail in the program. The same holds
//! for a cut without checks whose invariants were proven this way (assume-only).
//!
//! Not cut: a loop whose head is the function's entry (no edge enters it), and cycles that
//! are not natural loops (irreducible control flow); they stay and are unwound as before.

use crate::graph::FunctionGraph;
use crate::modset::{mod_sets, ModSet};
use qicc_ir::expr_str;
use qicc_ir::{
    AssertKind, Assertion, AssertionId, BinOp, Edge, Expr, FuncId, Function, Global, GlobalId,
    HavocKind, Loc, LocalId, Op, Program, Span, Ty, UnOp, VarRef,
};
use std::collections::BTreeSet;

/// A natural loop of the prepared program, as the cut sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInfo {
    pub func: FuncId,
    pub head: Loc,
    /// Where the loop is in the source (the span of an edge leaving the head).
    pub span: Span,
    /// Locals and globals some edge of the loop (or a call on it) may change.
    pub locals: Vec<LocalId>,
    pub globals: Vec<GlobalId>,
    /// Whether the loop (or a call on it) may change memory contents, and the object table
    /// (allocate or free): the cut havocs the contents, or all of memory.
    pub memory: bool,
    pub objects: bool,
    /// The ghost of each integer variable the loop may change: (variable, ghost local).
    pub ghosts: Vec<(VarRef, LocalId)>,
    /// Locations of the loop, ascending.
    pub locs: Vec<Loc>,
}

impl LoopInfo {
    /// The ghost holding `v`'s value when the loop was entered.
    pub fn ghost_of(&self, v: VarRef) -> Option<LocalId> {
        self.ghosts.iter().find(|(x, _)| *x == v).map(|(_, g)| *g)
    }

    /// Whether the loop may change `v`.
    pub fn modifies(&self, v: VarRef) -> bool {
        match v {
            VarRef::Local(l) => self.locals.contains(&l),
            VarRef::Global(g) => self.globals.contains(&g),
        }
    }

    /// The locals of `f` (the prepared function of this loop) live at the head: read on some
    /// path from it before any write, not counting the ghosts' copies. Those copy every
    /// variable a loop changes where it is entered, and so would make `j` live at the head
    /// of `for (i..) for (j = 0..)`, where every iteration writes `j` before it reads it. A
    /// condition over a local that is not live says nothing any later step can use.
    pub fn live_locals(&self, f: &Function) -> Vec<LocalId> {
        let mut real = f.clone();
        for e in &mut real.edges {
            if matches!(&e.op, Op::Assign(VarRef::Local(g), _) if is_ghost(f, *g)) {
                e.op = Op::Skip;
            }
        }
        crate::liveness::live_locals_at(&real, self.head)
    }
}

/// Whether `l` is a ghost [`add_ghosts`] added.
pub fn is_ghost(f: &Function, l: LocalId) -> bool {
    f.local(l).name.starts_with(GHOST_PREFIX)
}

/// The name prefix of the ghosts (`ghost.L<h>.<name>`).
const GHOST_PREFIX: &str = "ghost.";

/// The program with ghosts (see the module docs) and its loops that can be cut.
#[derive(Clone, Debug)]
pub struct Prepared {
    pub program: Program,
    pub loops: Vec<LoopInfo>,
}

/// Adds the ghosts of every natural loop whose head is not its function's entry.
pub fn add_ghosts(p: &Program) -> Prepared {
    let mods = mod_sets(p);
    let mut out = p.clone();
    let mut loops = Vec::new();
    for fi in 0..p.functions.len() {
        let fid = FuncId(fi as u32);
        let graph = FunctionGraph::new(p.function(fid));
        for l in &graph.natural_loops {
            if l.head == p.function(fid).entry {
                continue;
            }
            let mut info = shape(p, &mods, fid, l.head, &l.locs);
            let f = &mut out.functions[fi];
            add_loop_ghosts(p, f, &mut info);
            loops.push(info);
        }
    }
    Prepared {
        program: out,
        loops,
    }
}

/// What loop `head` of `fid` (locations `locs`) may change.
fn shape(p: &Program, mods: &[ModSet], fid: FuncId, head: Loc, locs: &[Loc]) -> LoopInfo {
    let f = p.function(fid);
    let inside = |x: Loc| locs.binary_search(&x).is_ok();
    let mut locals = BTreeSet::new();
    let mut globals = BTreeSet::new();
    let mut memory = false;
    let mut objects = false;
    for e in f.edges.iter().filter(|e| inside(e.from)) {
        match e.op.def() {
            Some(VarRef::Local(x)) => {
                locals.insert(x);
            }
            Some(VarRef::Global(g)) => {
                globals.insert(g);
            }
            None => {}
        }
        memory |= e.op.writes_memory();
        objects |= matches!(e.op, Op::Alloc { .. } | Op::Free(_) | Op::HavocMemory);
        if let Op::Call { callee, .. } = &e.op {
            let m = &mods[callee.index()];
            globals.extend(m.globals.iter().copied());
            memory |= m.memory || m.objects;
            objects |= m.objects;
        }
    }
    let span = f
        .edges
        .iter()
        .find(|e| e.from == head && e.span.is_known())
        .map_or(f.span, |e| e.span);
    LoopInfo {
        func: fid,
        head,
        span,
        locals: locals.into_iter().collect(),
        globals: globals.into_iter().collect(),
        memory,
        objects,
        ghosts: Vec::new(),
        locs: locs.to_vec(),
    }
}

/// Adds `info`'s ghosts to `f` (a copy of `p`'s function): new locals, assigned on every
/// edge that enters the head from outside the loop.
fn add_loop_ghosts(p: &Program, f: &mut Function, info: &mut LoopInfo) {
    let mut vars: Vec<(VarRef, Ty, String)> = Vec::new();
    for &l in &info.locals {
        let local = f.local(l);
        vars.push((VarRef::Local(l), local.ty, local.name.clone()));
    }
    for &g in &info.globals {
        let global = &p.globals[g.index()];
        vars.push((VarRef::Global(g), global.ty, global.name.clone()));
    }
    vars.retain(|(_, ty, _)| matches!(ty, Ty::Int(_)));
    if vars.is_empty() {
        return;
    }
    for (v, ty, name) in &vars {
        let g = f.add_local(format!("{GHOST_PREFIX}L{}.{name}", info.head.0), *ty);
        info.ghosts.push((*v, g));
    }
    let inside = |x: Loc| info.locs.binary_search(&x).is_ok();
    let entering: Vec<usize> = (0..f.edges.len())
        .filter(|&i| f.edges[i].to == info.head && !inside(f.edges[i].from))
        .collect();
    let ghosts = info.ghosts.clone();
    for i in entering {
        let span = f.edges[i].span;
        let mut at = f.new_loc();
        f.edges[i].to = at;
        for (k, (v, g)) in ghosts.iter().enumerate() {
            let next = if k + 1 == ghosts.len() {
                info.head
            } else {
                f.new_loc()
            };
            f.add_edge(at, next, Op::Assign(VarRef::Local(*g), Expr::Var(*v)), span);
            at = next;
        }
    }
}

/// A cut program, and which check assertion (and literal) stands for which candidate.
#[derive(Clone, Debug)]
pub struct Cut {
    pub program: Program,
    /// Per check assertion: (its id, the loop's index in `Prepared::loops`, the candidate's
    /// index in that loop's list).
    pub checks: Vec<(AssertionId, usize, usize)>,
    /// With [`CutMode::Literals`], per candidate: (the Bool global that switches its
    /// assumption on, loop index, candidate index).
    pub literals: Vec<(GlobalId, usize, usize)>,
}

/// What a cut does with the conditions it is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutMode {
    /// Candidates: checked on entry and after each iteration, all assumed after the havocs.
    Check,
    /// Checked as with `Check`, but each assumed only under its own Bool global without
    /// initialiser (`assume !lit || I`): one program for every subset of the candidates, the
    /// subset chosen by the values of the literals (Houdini on one VC).
    Literals,
    /// Proven invariants: assumed after the havocs, not checked.
    Assume,
}

/// Cuts every loop of `prep` (see the module docs): `invariants[i]` are the candidates (or,
/// with [`CutMode::Assume`], the proven invariants) of `prep.loops[i]`.
pub fn cut_loops(prep: &Prepared, invariants: &[Vec<Expr>], mode: CutMode) -> Cut {
    let mut out = prep.program.clone();
    let mut checks = Vec::new();
    let mut literals = Vec::new();
    for (i, l) in prep.loops.iter().enumerate() {
        let none = Vec::new();
        let invs = invariants.get(i).unwrap_or(&none);
        let ids: Vec<AssertionId> = if mode != CutMode::Assume {
            check_assertions(&mut out, prep, i, invs, &mut checks)
        } else {
            Vec::new()
        };
        let assumed: Vec<Expr> = if mode == CutMode::Literals {
            invs.iter()
                .enumerate()
                .map(|(j, inv)| {
                    let name = format!("inv.lit.{}.L{}.{j}", l.func.0, l.head.0);
                    let g = bool_global(&mut out, name, None, l.span);
                    literals.push((g, i, j));
                    let off = Expr::unary(UnOp::Not, Expr::Var(VarRef::Global(g)));
                    Expr::binary(BinOp::Or, off, inv.clone())
                })
                .collect()
        } else {
            invs.clone()
        };
        let f = &mut out.functions[l.func.index()];
        cut_one(f, l, invs, &assumed, &ids);
    }
    Cut {
        program: out,
        checks,
        literals,
    }
}

/// Cuts loop `l` of `f`: `ids[j]` is the check assertion of `invs[j]` (none: no checks), and
/// `assumed` what the havoc chain assumes.
fn cut_one(f: &mut Function, l: &LoopInfo, invs: &[Expr], assumed: &[Expr], ids: &[AssertionId]) {
    let inside = |x: Loc| l.locs.binary_search(&x).is_ok();
    let into_head: Vec<usize> = (0..f.edges.len())
        .filter(|&i| f.edges[i].to == l.head)
        .collect();
    let enter = f.new_loc();
    let back = f.new_loc();
    for i in into_head {
        f.edges[i].to = if inside(f.edges[i].from) { back } else { enter };
    }
    for (inv, &a) in invs.iter().zip(ids) {
        for from in [enter, back] {
            check_edge(f, from, inv, a, l.span);
        }
    }
    // A run back at the cut head stops (the havoc chain stands for every later visit), and
    // says so as every block in the IR does: with an `assume false` (`verify_program`
    // rejects a location a run can reach and not leave).
    let exit = f.exit;
    f.add_edge(back, exit, Op::Assume(Expr::bool(false)), l.span);
    // The havoc chain.
    let mut ops: Vec<Op> = Vec::new();
    ops.extend(
        l.locals
            .iter()
            .map(|&x| Op::Havoc(VarRef::Local(x), HavocKind::Region)),
    );
    ops.extend(
        l.globals
            .iter()
            .map(|&g| Op::Havoc(VarRef::Global(g), HavocKind::Region)),
    );
    if l.objects {
        ops.push(Op::HavocMemory);
    } else if l.memory {
        ops.push(Op::HavocContents);
    }
    if let Some(all) = assumed
        .iter()
        .cloned()
        .reduce(|a, b| Expr::binary(BinOp::And, a, b))
    {
        ops.push(Op::Assume(all));
    }
    let mut at = enter;
    for op in ops {
        let next = f.new_loc();
        f.add_edge(at, next, op, l.span);
        at = next;
    }
    f.add_edge(at, l.head, Op::Skip, l.span);
    exit_equalities(f, l, invs, assumed);
}

/// After each edge that leaves the loop from its head under `y <= x`, where a candidate says
/// `x <= y` (the same comparison), the cut also assumes `x == y` (under the candidate's
/// literal): the two inequalities imply it, but the solver does not derive an equality from
/// them before bit-blasting, and with it stated, equation solving makes `x*x*x` and `y*y*y`
/// one term (`x == i*i*i` at the head and `i == n` at the exit prove `x == n*n*n` at once;
/// without it, 7.8 s). Sound: the head is reached only from the havoc chain, which assumes
/// every candidate (`assumed`, parallel to `invs`), so the equality holds on that edge.
fn exit_equalities(f: &mut Function, l: &LoopInfo, invs: &[Expr], assumed: &[Expr]) {
    let inside = |x: Loc| l.locs.binary_search(&x).is_ok();
    let exits: Vec<usize> = (0..f.edges.len())
        .filter(|&i| f.edges[i].from == l.head && !inside(f.edges[i].to))
        .collect();
    for i in exits {
        let Op::Assume(Expr::Binary(op, y, x)) = &f.edges[i].op else {
            continue;
        };
        if !matches!(op, BinOp::Sle | BinOp::Ule) {
            continue;
        }
        // (the equality, the literal's `!lit` where the candidate has one)
        let facts: Vec<(Expr, Option<Expr>)> = (invs.iter().zip(assumed))
            .filter(|(inv, _)| matches!(inv, Expr::Binary(o, a, b) if o == op && a == x && b == y))
            .filter_map(|(inv, a)| {
                let eq = Expr::binary(BinOp::Eq, (**x).clone(), (**y).clone());
                if a == inv {
                    Some((eq, None))
                } else {
                    // `!lit || inv` under literals: the equality under the same literal.
                    match a {
                        Expr::Binary(BinOp::Or, off, rest) if **rest == *inv => Some((
                            Expr::binary(BinOp::Or, (**off).clone(), eq),
                            Some((**off).clone()),
                        )),
                        _ => None,
                    }
                }
            })
            .collect();
        let replace = facts
            .first()
            .and_then(|(_, off)| exit_replacement(l, x, y, off.as_ref()));
        let Some(all) = facts
            .into_iter()
            .map(|(e, _)| e)
            .reduce(|a, b| Expr::binary(BinOp::And, a, b))
        else {
            continue;
        };
        let (to, span) = (f.edges[i].to, f.edges[i].span);
        let mut at = f.new_loc();
        f.edges[i].to = at;
        let mut ops = vec![Op::Assume(all)];
        ops.extend(replace);
        for op in ops {
            let next = f.new_loc();
            f.add_edge(at, next, op, span);
            at = next;
        }
        f.add_edge(at, to, Op::Skip, span);
    }
}

/// After `assume x == y` at a loop's exit (under `!lit` = `off`, if given), the variable of
/// the two the loop does not change is given the other's value: `n := i` (`n := ite(off, n,
/// i)` under a literal). A no-op on every run (the two are equal there, or `off` holds and
/// the value is kept), but in the symbolic execution every later read of `n` is then the same
/// term as `i`, so an assertion `x == n*n*n` after the loop is `x == i*i*i` and the
/// invariant's term itself; stated only as an equality, the solver must show two multipliers
/// of equal inputs equal, which bit-blasting does slowly (Cohen's cube: 8 s). `None`: neither
/// or both are variables the loop changes.
fn exit_replacement(l: &LoopInfo, x: &Expr, y: &Expr, off: Option<&Expr>) -> Option<Op> {
    let (Expr::Var(vx), Expr::Var(vy)) = (x, y) else {
        return None;
    };
    let (kept, replaced) = match (l.modifies(*vx), l.modifies(*vy)) {
        (true, false) => (x, *vy),
        (false, true) => (y, *vx),
        _ => return None,
    };
    let value = match off {
        None => kept.clone(),
        Some(off) => Expr::Ite(
            Box::new(off.clone()),
            Box::new(Expr::Var(replaced)),
            Box::new(kept.clone()),
        ),
    };
    Some(Op::Assign(replaced, value))
}

/// `prep`'s program with each of `invariants[i]` asserted at every visit of
/// `prep.loops[i]`'s head, loops left as they are: every edge into the head first checks the
/// conditions one after the other (exclusive `assume` pairs: no choice is added, so random
/// runs explore as before). A run reaches one of the new assertions exactly when a condition
/// fails at some visit: how tests hold proven invariants to the interpreter.
pub fn assert_at_heads(prep: &Prepared, invariants: &[Vec<Expr>]) -> Cut {
    let mut out = prep.program.clone();
    let mut checks = Vec::new();
    for (i, l) in prep.loops.iter().enumerate() {
        let Some(invs) = invariants.get(i).filter(|v| !v.is_empty()) else {
            continue;
        };
        let ids = check_assertions(&mut out, prep, i, invs, &mut checks);
        let f = &mut out.functions[l.func.index()];
        let mut at = before_head(f, l.head);
        for (inv, a) in invs.iter().zip(ids) {
            check_edge(f, at, inv, a, l.span);
            let next = f.new_loc();
            f.add_edge(at, next, Op::Assume(inv.clone()), l.span);
            at = next;
        }
        f.add_edge(at, l.head, Op::Skip, l.span);
    }
    Cut {
        program: out,
        checks,
        literals: Vec::new(),
    }
}

/// `prep`'s program, loops left as they are, with one Bool global per condition of
/// `invariants[i]` (initially false) that a visit of `prep.loops[i]`'s head sets when the
/// condition is false there: runs of the result observe which conditions a run refutes,
/// without stopping it (the assignments are deterministic). Returns the program and, per
/// global, (global, loop index, condition index).
///
/// `sample`: `None` records every visit. `Some(k)` records only the first `k` visits of each
/// head (counted over the whole run) and every visit that leaves the loop by an edge from the
/// head that changes nothing (`assume`, `skip`: the state at its target is the head's), so
/// that a long run pays little per iteration and still sees the visit where the loop exits.
pub fn record_at_heads(
    prep: &Prepared,
    invariants: &[Vec<Expr>],
    sample: Option<u32>,
) -> (Program, Vec<(GlobalId, usize, usize)>) {
    let mut out = prep.program.clone();
    let mut flags = Vec::new();
    for (i, l) in prep.loops.iter().enumerate() {
        let Some(invs) = invariants.get(i).filter(|v| !v.is_empty()) else {
            continue;
        };
        let gs: Vec<GlobalId> = (0..invs.len())
            .map(|j| {
                let name = format!("inv.refuted.{}.L{}.{j}", l.func.0, l.head.0);
                let g = bool_global(&mut out, name, Some(Expr::bool(false)), l.span);
                flags.push((g, i, j));
                g
            })
            .collect();
        let counter = sample.map(|k| {
            let g = out.add_global(Global {
                name: format!("inv.visits.{}.L{}", l.func.0, l.head.0),
                ty: Ty::I32,
                unsigned: true,
                init: Some(Expr::int(32, 0)),
                span: l.span,
            });
            (g, k)
        });
        let f = &mut out.functions[l.func.index()];
        let at = before_head(f, l.head);
        let Some((c, k)) = counter else {
            let end = record_chain(f, at, invs, &gs, l.span);
            f.add_edge(end, l.head, Op::Skip, l.span);
            continue;
        };
        // The first `k` visits: record, count.
        let count = Expr::global(c);
        let first = f.new_loc();
        let below = Expr::binary(BinOp::Ult, count.clone(), Expr::int(32, k as u64));
        f.add_edge(at, first, Op::Assume(below.clone()), l.span);
        f.add_edge(at, l.head, Op::Assume(Expr::not(below)), l.span);
        let end = record_chain(f, first, invs, &gs, l.span);
        let plus = Expr::binary(BinOp::Add, count, Expr::int(32, 1));
        f.add_edge(end, l.head, Op::Assign(VarRef::Global(c), plus), l.span);
        // Exits from the head that change nothing: record on the way out.
        let exits: Vec<usize> = (0..f.edges.len())
            .filter(|&e| {
                let e = &f.edges[e];
                e.from == l.head
                    && l.locs.binary_search(&e.to).is_err()
                    && matches!(e.op, Op::Assume(_) | Op::Skip)
            })
            .collect();
        for e in exits {
            let to = f.edges[e].to;
            let mid = f.new_loc();
            f.edges[e].to = mid;
            let end = record_chain(f, mid, invs, &gs, l.span);
            f.add_edge(end, to, Op::Skip, l.span);
        }
    }
    (out, flags)
}

/// From `at`, one assignment per condition setting its flag when the condition is false;
/// the last location of the chain.
fn record_chain(f: &mut Function, mut at: Loc, invs: &[Expr], gs: &[GlobalId], span: Span) -> Loc {
    for (inv, &g) in invs.iter().zip(gs) {
        let next = f.new_loc();
        let v = VarRef::Global(g);
        let refuted = Expr::unary(UnOp::Not, inv.clone());
        let set = Expr::binary(BinOp::Or, Expr::Var(v), refuted);
        f.add_edge(at, next, Op::Assign(v, set), span);
        at = next;
    }
    at
}

/// A new location that every edge into `head` now enters instead (what runs from there to
/// `head` is the caller's to add).
fn before_head(f: &mut Function, head: Loc) -> Loc {
    let at = f.new_loc();
    for e in f.edges.iter_mut().filter(|e| e.to == head) {
        e.to = at;
    }
    at
}

/// One new assertion per condition of loop `i` (`checks` records which), named after the
/// condition.
fn check_assertions(
    out: &mut Program,
    prep: &Prepared,
    i: usize,
    invs: &[Expr],
    checks: &mut Vec<(AssertionId, usize, usize)>,
) -> Vec<AssertionId> {
    let l = &prep.loops[i];
    let f = prep.program.function(l.func);
    invs.iter()
        .enumerate()
        .map(|(j, inv)| {
            let text = format!(
                "invariant at L{} of @{}: {}",
                l.head.0,
                f.name,
                expr_str(&prep.program, Some(f), inv)
            );
            let a = out.add_assertion(Assertion {
                kind: AssertKind::VerifierAssert,
                func: l.func,
                span: l.span,
                text: Some(text),
            });
            checks.push((a, i, j));
            a
        })
        .collect()
}

/// `from --assume !inv--> t --error #a--> err`: assertion `a` fails where `inv` does not hold.
fn check_edge(f: &mut Function, from: Loc, inv: &Expr, a: AssertionId, span: Span) {
    let t = f.new_loc();
    let err = f.err;
    f.add_edge(
        from,
        t,
        Op::Assume(Expr::unary(UnOp::Not, inv.clone())),
        span,
    );
    f.add_edge(t, err, Op::Error(a), span);
}

/// A new Bool global of the transformation (`init`: `None` for an arbitrary start value).
fn bool_global(out: &mut Program, name: String, init: Option<Expr>, span: Span) -> GlobalId {
    out.add_global(Global {
        name,
        ty: Ty::Bool,
        unsigned: false,
        init,
        span,
    })
}

/// The program prepared for a `k`-induction step on the loops `which` (indices into
/// `prep.loops`, each with no other loop inside): each of them is unrolled so that, once cut
/// (`cut_loops` in [`CutMode::Assume`] with proven invariants), the cut program checks what
/// `k`-induction checks.
///
/// For a loop with head `h`:
/// - **peeled**: `k - 1` copies of the loop body come first, entered where the loop was
///   entered (after the ghosts' assignments), each with its assertions as they are; each
///   copy's back edges go to the next copy's head, the last one's to `h`;
/// - **unrolled**: the loop itself becomes `k` copies of its body in a row (`h`, the body, the
///   second copy's head, ..., back to `h`); in the first `k - 1` copies every assertion whose
///   failure edge leaves the loop for a location that only fails (`assume ¬C → t → error`)
///   is *assumed* instead (the failing branch is blocked); the last copy checks them.
///
/// Why a proof of the cut result is a proof of the program: take a run whose first assertion
/// violation happens in iteration `n` of the loop (or after it exits at visit `n` of `h`).
/// If `n < k`, the peeled copies replay the run from the loop's entry with every assertion
/// checked. Otherwise the cut's havoc chain can start from the state of head visit
/// `n - k + 1` (the invariants hold at every visit, and the havocs can pick any state), the
/// first `k - 1` copies replay iterations `n - k + 1 .. n - 1`, whose assertions hold (the
/// violation is the first), and the last copy reaches the violation, where it is checked.
/// The head is visited in the result at a subset of its visits in the program, so the
/// invariants proven there still hold. With `k = 1` nothing changes.
pub fn unroll_for_induction(prep: &Prepared, which: &[usize], k: usize) -> Prepared {
    let mut out = prep.clone();
    if k <= 1 {
        return out;
    }
    for &li in which {
        let Some(l) = prep.loops.get(li).cloned() else {
            continue;
        };
        let f = &mut out.program.functions[l.func.index()];
        let inside = |x: Loc| l.locs.binary_search(&x).is_ok();
        // Locations outside the loop whose every edge is an `error` edge (where an
        // assertion's failing branch goes), computed once.
        let mut fails_only: BTreeSet<Loc> = BTreeSet::new();
        let mut other: BTreeSet<Loc> = BTreeSet::new();
        for e in &f.edges {
            if matches!(e.op, Op::Error(_)) {
                fails_only.insert(e.from);
            } else {
                other.insert(e.from);
            }
        }
        fails_only.retain(|x| !other.contains(x) && !inside(*x));
        let body: Vec<usize> = (0..f.edges.len())
            .filter(|&i| inside(f.edges[i].from))
            .collect();
        // Copies of the loop's locations: `maps[c]` for copy `c`.
        let new_copy = |f: &mut Function| -> Vec<(Loc, Loc)> {
            l.locs.iter().map(|&x| (x, f.new_loc())).collect()
        };
        let at = |m: &[(Loc, Loc)], x: Loc| m.iter().find(|(a, _)| *a == x).map_or(x, |(_, b)| *b);
        let mut added: Vec<Loc> = Vec::new();
        // The unrolled loop: copies 2..k of the body; the original edges are copy 1.
        let unrolled: Vec<Vec<(Loc, Loc)>> = (1..k).map(|_| new_copy(f)).collect();
        for m in &unrolled {
            added.extend(m.iter().map(|(_, b)| *b));
        }
        let heads: Vec<Loc> = unrolled.iter().map(|m| at(m, l.head)).collect();
        // Copy `c` (0-based, 0 = the original edges) goes back to the head of copy `c + 1`,
        // the last to `h`; all but the last assume their assertions.
        let next_head = |c: usize| if c + 1 < k { heads[c] } else { l.head };
        let originals: Vec<Edge> = body.iter().map(|&i| f.edges[i].clone()).collect();
        for c in 0..k {
            let assumed = c + 1 < k;
            for (n, e) in originals.iter().enumerate() {
                let to = if e.to == l.head {
                    next_head(c)
                } else if inside(e.to) {
                    if c == 0 {
                        e.to
                    } else {
                        at(&unrolled[c - 1], e.to)
                    }
                } else {
                    e.to
                };
                let blocked = assumed && fails_only.contains(&e.to);
                let op = if blocked {
                    Op::Assume(Expr::bool(false))
                } else {
                    e.op.clone()
                };
                if c == 0 {
                    let i = body[n];
                    f.edges[i].to = to;
                    f.edges[i].op = op;
                } else {
                    let from = at(&unrolled[c - 1], e.from);
                    f.add_edge(from, to, op, e.span);
                }
            }
        }
        // The peeled copies, checked, in front of the loop.
        let peeled: Vec<Vec<(Loc, Loc)>> = (1..k).map(|_| new_copy(f)).collect();
        let mut outer_added: Vec<Loc> = added.clone();
        for m in &peeled {
            outer_added.extend(m.iter().map(|(_, b)| *b));
        }
        let entering: Vec<usize> = (0..f.edges.len())
            .filter(|&i| f.edges[i].to == l.head && !inside(f.edges[i].from))
            .filter(|&i| !added.contains(&f.edges[i].from))
            .collect();
        let first = at(&peeled[0], l.head);
        for i in entering {
            f.edges[i].to = first;
        }
        for (c, m) in peeled.iter().enumerate() {
            let back = if c + 1 < peeled.len() {
                at(&peeled[c + 1], l.head)
            } else {
                l.head
            };
            for e in &originals {
                let to = if e.to == l.head {
                    back
                } else if inside(e.to) {
                    at(m, e.to)
                } else {
                    e.to
                };
                f.add_edge(at(m, e.from), to, e.op.clone(), e.span);
            }
        }
        // The loop now holds the unrolled copies; the loops around it hold everything new.
        for (oi, o) in out.loops.iter_mut().enumerate() {
            if o.func != l.func {
                continue;
            }
            if oi == li {
                o.locs.extend(&added);
            } else if o.locs.binary_search(&l.head).is_ok() {
                o.locs.extend(&outer_added);
            } else {
                continue;
            }
            o.locs.sort();
            o.locs.dedup();
        }
    }
    out
}
