//! Array cells: invariants about every element of an array, stated without quantifiers.
//!
//! A loop that walks an array (`a[i] = e` with `i` stepping by a constant) keeps a property
//! of every element it has passed: `∀k ∈ [i0, i): P(a[k])`. qicc states it over one *cell
//! ghost* per function, the local `ghost.cell`, havocked once at the function's entry and
//! never written again: the candidate `¬(i0 ≤ k < i) ∨ P(a[k])`. Houdini proves such a
//! condition like any other; nothing constrains the ghost, so it is proven for every value
//! of it, which is the quantified invariant. (Monniaux and Gonnord's "cell morphing" uses
//! the same distinguished index.)
//!
//! Such an invariant speaks of element `k` only, so the assertions that read array elements
//! at an index `I` are **restricted** to the ghost: the condition of the edge into the
//! assertion's `error` edge, `¬C`, becomes `I == k ∧ ¬C`. Why a proof of the restricted
//! program is a proof of the program: take a run of the program that violates the
//! assertion, with `I = v` at the violation. The run of the prepared program that picks
//! `k = v` at the function's entry (the havoc adds a choice and nothing else: no other edge
//! reads or writes the ghost) makes the same steps and violates the restricted assertion.
//! So if no restricted assertion can fail, no original one can. This holds for any
//! expression `I`; which one is chosen only decides what can be proven.
//!
//! This module owns the ghost, the restriction, the candidates over cells ([`add_cells`]),
//! and their instances at the elements a loop reads ([`instances`]). The ghost goes to the
//! functions with an assertion that reads an element ([`Ghosted::ByAssertions`], the first
//! stage) or, in the elements stage, to those whose loops store at an indexed address
//! ([`Ghosted::ByStores`]: no assertion is restricted; the facts serve the loops that read
//! the elements later, `s += a[i]`). The families, each from what the function itself does:
//! - **ranges** of `k`: the part of the array a loop has passed (`[I(i0), I(i))` for a loop
//!   whose index `i` steps up, `(I(i), I(i0)]` when it steps down, with the step's residue
//!   when the step is not 1), and each whole walk of an array loop, `[I(c), I(n))` for a
//!   loop `for (i = c; i < n; ...)` with constant `c` and a bound `n` no loop changes;
//! - **values**: for each store `a[I] = e` in a loop, `a[k] == e(k)`, also under each branch
//!   condition of the loop (`c(k) ⇒ a[k] == e(k)`); each restricted assertion's condition at
//!   `k`; and `a[k] == b[k]` for the arrays of the same element type the function reads or
//!   writes with an index; and what a loop tests of the element it stores (its branch and
//!   assume conditions over `a[i]`, and their negations, at `k`: `0 <= a[k]`);
//! - every range implies every value. A loop's walk and stores count at the heads of the
//!   loops after it: those it reaches and that do not reach it, within one iteration of the
//!   innermost loop around both (two loops in a loop body run one after the other).

use crate::candidates::{is_unsigned, negate, residue, steps};
use qicc_analysis::{FunctionGraph, LoopInfo, Prepared};
use qicc_ir::{
    AssertKind, BinOp, CastOp, Expr, FuncId, Function, HavocKind, Loc, LocalId, Op, Program, Ty,
    TypeEnv, UnOp, VarRef,
};
use std::collections::{BTreeMap, BTreeSet};

/// At most this many cell candidates per loop head.
pub const MAX_CELL_CANDIDATES: usize = 96;

/// An array element whose index is the cell ghost: `load.ty(base + k * stride + offset)`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Cell {
    ty: Ty,
    base: Expr,
    stride: u64,
    offset: u64,
}

impl Cell {
    fn at(&self, k: &Expr, w: u16) -> Expr {
        let mut addr = Expr::binary(
            BinOp::Add,
            self.base.clone(),
            Expr::binary(BinOp::Mul, k.clone(), Expr::int(w, self.stride)),
        );
        if self.offset != 0 {
            addr = Expr::binary(BinOp::Add, addr, Expr::int(w, self.offset));
        }
        Expr::load(self.ty, addr)
    }
}

/// The name of the cell ghost local.
const GHOST: &str = "ghost.cell";

/// Whether `e` (a condition in `f`) speaks of the cell ghost.
pub fn over_cell(f: &Function, e: &Expr) -> bool {
    ghost_of(f).is_some_and(|g| e.vars().contains(&VarRef::Local(g)))
}

/// An address `base + index * stride (+ offset)`, split.
fn split_address(addr: &Expr) -> Option<(Expr, Expr, u64, u64)> {
    let (inner, offset) = match addr {
        Expr::Binary(BinOp::Add, a, b) if b.as_const().is_some() && is_indexed(a) => {
            (&**a, b.as_const()?)
        }
        _ => (addr, 0),
    };
    let Expr::Binary(BinOp::Add, base, scaled) = inner else {
        return None;
    };
    let Expr::Binary(BinOp::Mul, index, stride) = &**scaled else {
        return None;
    };
    let stride = stride.as_const()?;
    if index.as_const().is_some() || stride == 0 {
        return None;
    }
    Some(((**base).clone(), (**index).clone(), stride, offset))
}

fn is_indexed(e: &Expr) -> bool {
    matches!(e, Expr::Binary(BinOp::Add, _, s) if matches!(**s, Expr::Binary(BinOp::Mul, ..)))
}

/// The bases `f` indexes, each with its stride (stores and loads at `base + i * stride`).
fn strides(f: &Function) -> Vec<(Expr, u64)> {
    let mut strides: Vec<(Expr, u64)> = Vec::new();
    for edge in &f.edges {
        let mut found: Vec<(Expr, u64)> = Vec::new();
        if let Op::Store { addr, .. } = &edge.op {
            found.extend(split_address(addr).map(|(base, _, stride, _)| (base, stride)));
        }
        edge.op.exprs(&mut |x| {
            found.extend(
                indexed_loads(x)
                    .into_iter()
                    .map(|(c, _)| (c.base, c.stride)),
            )
        });
        for bs in found {
            if !strides.contains(&bs) {
                strides.push(bs);
            }
        }
    }
    strides
}

/// The loads of `e` at constant offsets `base + c` from a base with a known stride `s`
/// (`strides`): (the load, its cell, the constant index `c / s`).
fn fixed_loads(strides: &[(Expr, u64)], e: &Expr) -> Vec<(Expr, Cell, Expr)> {
    let mut out = Vec::new();
    e.visit(&mut |x| {
        let Expr::Load(ty, addr) = x else { return };
        let Expr::Binary(BinOp::Add, base, off) = &**addr else {
            return;
        };
        let (Some(off), Expr::Const { ty: Ty::Int(w), .. }) = (off.as_const(), &**off) else {
            return;
        };
        let Some((_, stride)) = strides.iter().find(|(b, _)| b == &**base) else {
            return;
        };
        out.push((
            x.clone(),
            Cell {
                ty: *ty,
                base: (**base).clone(),
                stride: *stride,
                offset: off % stride,
            },
            Expr::int(*w, off / stride),
        ));
    });
    out
}

/// The loads of `e` at indexed addresses: (cell, index).
fn indexed_loads(e: &Expr) -> Vec<(Cell, Expr)> {
    let mut out = Vec::new();
    e.visit(&mut |x| {
        if let Expr::Load(ty, addr) = x {
            if let Some((base, index, stride, offset)) = split_address(addr) {
                out.push((
                    Cell {
                        ty: *ty,
                        base,
                        stride,
                        offset,
                    },
                    index,
                ));
            }
        }
    });
    out
}

/// Replaces every occurrence of `index` in `e` by `k`, then the variable `v` (what the
/// index is made of) by `k` at `v`'s width.
fn at_cell(e: &Expr, index: &Expr, v: Option<(VarRef, u16)>, k: &Expr, kw: u16) -> Expr {
    let e = e.rewrite(&mut |x| if x == *index { k.clone() } else { x });
    match v {
        Some((v, w)) => e.substitute(&mut |u| {
            (u == v).then(|| {
                if w == kw {
                    k.clone()
                } else {
                    Expr::cast(CastOp::Trunc, Ty::Int(w), k.clone())
                }
            })
        }),
        None => e,
    }
}

/// The variable an index is made of: `v`, `sext(v)` or `zext(v)`, and whether comparisons
/// of the index are signed.
fn index_var(p: &Program, f: &Function, index: &Expr) -> Option<(VarRef, bool)> {
    match index {
        Expr::Var(v) => Some((*v, !is_unsigned(p, f, *v))),
        Expr::Cast(CastOp::Sext, _, a) => match &**a {
            Expr::Var(v) => Some((*v, true)),
            _ => None,
        },
        Expr::Cast(CastOp::Zext, _, a) => match &**a {
            Expr::Var(v) => Some((*v, false)),
            _ => None,
        },
        _ => None,
    }
}

/// What one function contributes: its ghost and the candidate pieces.
struct FnCells {
    ghost: LocalId,
    width: u16,
    /// The values, each with the loop whose stores it comes from (`None`: the assertions and
    /// the element equalities).
    values: Vec<(Option<Loc>, Expr)>,
    /// Whole walks of an array, as conditions on the ghost, with the loop that walks.
    walks: Vec<(Loc, Expr)>,
}

/// Adds the cell ghost to each function of the prepared program with an assertion that
/// reads an array element inside a function with loops, restricts those assertions (see
/// the module docs), and returns the cell candidates of every loop (parallel to
/// `prep.loops`).
pub fn add_cells(prep: &mut Prepared) -> Vec<Vec<Expr>> {
    add_cells_with(prep, Ghosted::ByAssertions)
}

/// Which functions [`add_cells_with`] gives the cell ghost.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ghosted {
    /// Those with an assertion that reads an array element (restricted to the ghost).
    ByAssertions,
    /// Those without the ghost yet whose loops store at an indexed address: facts about
    /// every element, for the loops that read the elements later ([`instances`]); no
    /// assertion is restricted.
    ByStores,
}

/// [`add_cells`] for the functions `which` names; the cell candidates of every loop
/// (parallel to `prep.loops`, empty for the loops of the other functions).
pub fn add_cells_with(prep: &mut Prepared, which: Ghosted) -> Vec<Vec<Expr>> {
    let mut out = vec![Vec::new(); prep.loops.len()];
    for fi in 0..prep.program.functions.len() {
        let fid = FuncId(fi as u32);
        let loops: Vec<usize> = (0..prep.loops.len())
            .filter(|&i| prep.loops[i].func == fid)
            .collect();
        if loops.is_empty() {
            continue;
        }
        let fc = match which {
            Ghosted::ByAssertions => restrict(prep, fid),
            Ghosted::ByStores if ghost_of(prep.program.function(fid)).is_none() => {
                stored_width(prep, fid).map(|w| ghost_and_values(prep, fid, w, &[], Vec::new()))
            }
            Ghosted::ByStores => None,
        };
        let Some(fc) = fc else {
            continue;
        };
        let p = &prep.program;
        let f = p.function(fid);
        let graph = FunctionGraph::new(f);
        let k = Expr::local(fc.ghost);
        // What each loop head reaches, once for the function; and within each loop around
        // it, without passing that loop's head (one iteration of the loop around).
        let succ = f.successors();
        let reach: BTreeMap<(Loc, Option<Loc>), BTreeSet<Loc>> = loops
            .iter()
            .flat_map(|&li| {
                let h = prep.loops[li].head;
                let around = loops
                    .iter()
                    .map(|&o| &prep.loops[o])
                    .filter(move |o| o.head != h && o.locs.binary_search(&h).is_ok())
                    .map(|o| Some(o.head));
                std::iter::once(None)
                    .chain(around)
                    .map(move |avoid| (h, avoid))
            })
            .map(|(h, avoid)| ((h, avoid), reachable(f, &succ, h, avoid)))
            .collect();
        let reaches_in = |a: Loc, b: Loc, avoid: Option<Loc>| {
            reach.get(&(a, avoid)).is_some_and(|r| r.contains(&b))
        };
        // The innermost loop around both heads.
        let around_both = |a: Loc, b: Loc| {
            loops
                .iter()
                .map(|&o| &prep.loops[o])
                .filter(|o| {
                    o.head != a
                        && o.head != b
                        && o.locs.binary_search(&a).is_ok()
                        && o.locs.binary_search(&b).is_ok()
                })
                .min_by_key(|o| o.locs.len())
                .map(|o| o.head)
        };
        // `a` comes before `b`: it reaches `b`, which does not reach it (within one
        // iteration of the innermost loop around both, if any).
        let reaches = |a: Loc, b: Loc| {
            let avoid = around_both(a, b);
            reaches_in(a, b, avoid) && !reaches_in(b, a, avoid)
        };
        for &li in &loops {
            let l = &prep.loops[li];
            let mut ranges = Vec::new();
            if let Some(nl) = graph.natural_loops.iter().find(|n| n.head == l.head) {
                let st = steps(p, f, &prep.loops, l, nl);
                ranges.extend(passed(p, f, l, &st, &k, fc.width));
            }
            // A loop's walk or stores say something at this head only if that loop comes
            // first (it reaches this head, which does not reach it) or is this one.
            let before = |m: Loc| m == l.head || reaches(m, l.head);
            ranges.extend(
                fc.walks
                    .iter()
                    .filter(|(m, _)| *m != l.head && before(*m))
                    .map(|(_, w)| w.clone()),
            );
            let values: Vec<&Expr> = fc
                .values
                .iter()
                .filter(|(m, _)| m.is_none_or(before))
                .map(|(_, v)| v)
                .collect();
            let mut seen = BTreeSet::new();
            let list = &mut out[li];
            'all: for r in &ranges {
                for &v in &values {
                    let c = Expr::binary(BinOp::Or, Expr::unary(UnOp::Not, r.clone()), v.clone());
                    if seen.insert(format!("{c:?}")) {
                        list.push(c);
                        if list.len() >= MAX_CELL_CANDIDATES {
                            break 'all;
                        }
                    }
                }
            }
        }
    }
    out
}

/// The ghost and restriction for `fid` (see the module docs); `None` when no assertion of
/// the function reads an array element.
fn restrict(prep: &mut Prepared, fid: FuncId) -> Option<FnCells> {
    let p = &prep.program;
    let f = p.function(fid);
    let env = p.env(f);
    // The assertions' failure edges, with the index their loads share.
    // The failure edges, the index of the elements they read, and the loads at constant
    // addresses with the cells they are.
    let mut restricted: Vec<(usize, Expr, Vec<(Expr, Cell)>)> = Vec::new();
    let mut asserted: Vec<Cell> = Vec::new();
    let mut width = None;
    // The locations with an `error` edge of a property assertion (not a UB check).
    let failing: BTreeSet<Loc> = f
        .edges
        .iter()
        .filter(|x| {
            matches!(x.op, Op::Error(a)
                if !matches!(p.assertions[a.index()].kind, AssertKind::Ub(_)))
        })
        .map(|x| x.from)
        .collect();
    let strides = strides(f);
    for (i, e) in f.edges.iter().enumerate() {
        let Op::Assume(c) = &e.op else { continue };
        if !failing.contains(&e.to) {
            continue;
        }
        let mut loads = indexed_loads(c);
        let mut fixed = Vec::new();
        if loads.is_empty() {
            // Elements at constant addresses (`a[1024]`): indexed like the loops index `a`.
            fixed = fixed_loads(&strides, c);
            loads = fixed
                .iter()
                .map(|(_, cell, index)| (cell.clone(), index.clone()))
                .collect();
        }
        let Some((_, index)) = loads.first() else {
            continue;
        };
        if loads.iter().any(|(_, i)| i != index) {
            continue;
        }
        let Ty::Int(w) = index.ty(&env) else { continue };
        if *width.get_or_insert(w) != w {
            continue;
        }
        restricted.push((
            i,
            index.clone(),
            fixed.into_iter().map(|(l, c, _)| (l, c)).collect(),
        ));
        asserted.extend(loads.into_iter().map(|(c, _)| c));
    }
    // Set exactly when an assertion was restricted.
    let width = width?;
    Some(ghost_and_values(prep, fid, width, &restricted, asserted))
}

/// The width of the first index of a store at an indexed address in a loop of `fid` (made
/// of one variable): the cell ghost's width where no assertion sets it.
fn stored_width(prep: &Prepared, fid: FuncId) -> Option<u16> {
    let p = &prep.program;
    let f = p.function(fid);
    let env = p.env(f);
    prep.loops
        .iter()
        .filter(|l| l.func == fid)
        .flat_map(|l| {
            f.edges
                .iter()
                .filter(|e| l.locs.binary_search(&e.from).is_ok())
        })
        .find_map(|e| match &e.op {
            Op::Store { addr, .. } => {
                let (_, index, ..) = split_address(addr)?;
                index_var(p, f, &index)?;
                match index.ty(&env) {
                    Ty::Int(w) => Some(w),
                    _ => None,
                }
            }
            _ => None,
        })
}

/// The cell ghost of `f`, if it has one.
fn ghost_of(f: &Function) -> Option<LocalId> {
    (0..f.locals.len())
        .map(|i| LocalId(i as u32))
        .find(|l| f.local(*l).name == GHOST)
}

/// Adds the ghost (of width `width`) to `fid`, restricts the assertions of `restricted`
/// (edge, index, loads at fixed addresses), and collects the values and walks.
fn ghost_and_values(
    prep: &mut Prepared,
    fid: FuncId,
    width: u16,
    restricted: &[(usize, Expr, Vec<(Expr, Cell)>)],
    asserted: Vec<Cell>,
) -> FnCells {
    let stable = |x: &Expr| {
        x.vars()
            .iter()
            .all(|v| !prep.loops.iter().any(|l| l.func == fid && l.modifies(*v)))
    };
    let mut cells: Vec<Cell> = Vec::new();
    let mut values: Vec<(Option<Loc>, Expr)> = Vec::new();
    let mut tested: Vec<(Option<Loc>, Expr)> = Vec::new();
    let mut walks: Vec<(Loc, Expr)> = Vec::new();
    let f_mut = &mut prep.program.functions[fid.index()];
    let ghost = f_mut.add_local(GHOST, Ty::Int(width));
    let k = Expr::local(ghost);
    let old_entry = f_mut.entry;
    let entry = f_mut.new_loc();
    let span = f_mut.span;
    f_mut.add_edge(
        entry,
        old_entry,
        Op::Havoc(VarRef::Local(ghost), HavocKind::Uninit),
        span,
    );
    f_mut.entry = entry;
    for (i, index, fixed) in restricted {
        let Op::Assume(c) = &f_mut.edges[*i].op else {
            continue;
        };
        let c = c.clone();
        // The assertion's condition at k (the edge holds its negation).
        let holds = negate(&c);
        values.push((
            None,
            if fixed.is_empty() {
                at_cell(&holds, index, None, &k, width)
            } else {
                holds.rewrite(&mut |x| match fixed.iter().find(|(l, _)| *l == x) {
                    Some((_, cell)) => cell.at(&k, width),
                    None => x,
                })
            },
        ));
        let restricted = Expr::binary(
            BinOp::And,
            Expr::binary(BinOp::Eq, index.clone(), k.clone()),
            c,
        );
        f_mut.edges[*i].op = Op::Assume(restricted);
    }
    let p = &prep.program;
    let f = p.function(fid);
    let env = p.env(f);
    for cell in asserted {
        if stable(&cell.base) && !cells.contains(&cell) {
            cells.push(cell);
        }
    }
    // Stores and loads of the loops, at an index made of one variable.
    for l in prep.loops.iter().filter(|l| l.func == fid) {
        let inside = |x| l.locs.binary_search(&x).is_ok();
        let branches: Vec<&Expr> = f
            .edges
            .iter()
            .filter(|e| e.from != l.head && inside(e.from) && inside(e.to))
            .filter_map(|e| match &e.op {
                Op::Assume(c) if c.ty(&env) == Ty::Bool && !has_valid(c) => Some(c),
                _ => None,
            })
            .collect();
        for e in f.edges.iter().filter(|e| inside(e.from)) {
            let mut accessed = Vec::new();
            e.op.exprs(&mut |x| accessed.extend(indexed_loads(x)));
            if let Op::Store { ty, addr, value } = &e.op {
                if let Some((base, index, stride, offset)) = split_address(addr) {
                    let cell = Cell {
                        ty: *ty,
                        base,
                        stride,
                        offset,
                    };
                    if let (Some((v, _)), true) = (index_var(p, f, &index), stable(&cell.base)) {
                        if index.ty(&env) == Ty::Int(width) {
                            let vw = match env.var_ty(v) {
                                Ty::Int(w) => w,
                                _ => width,
                            };
                            let var = Some((v, vw));
                            let here = cell.at(&k, width);
                            let val = at_cell(value, &index, var, &k, width);
                            if val
                                .vars()
                                .iter()
                                .all(|u| *u == VarRef::Local(ghost) || stable(&Expr::Var(*u)))
                            {
                                let eq = Expr::binary(BinOp::Eq, here, val);
                                for b in &branches {
                                    let b = at_cell(b, &index, var, &k, width);
                                    if b.vars().iter().all(|u| {
                                        *u == VarRef::Local(ghost) || stable(&Expr::Var(*u))
                                    }) {
                                        values.push((
                                            Some(l.head),
                                            Expr::binary(
                                                BinOp::Or,
                                                Expr::unary(UnOp::Not, b),
                                                eq.clone(),
                                            ),
                                        ));
                                    }
                                }
                                values.push((Some(l.head), eq));
                            }
                            // What the loop tests of the element it stores (`a[i] < 0 ||
                            // a[i] > 10` around `a[i] = 0`): each such condition and its
                            // negation at k. After an iteration the element meets one of
                            // them, often the same one on every path (`0 <= a[k]`).
                            for b in &branches {
                                let loads = indexed_loads(b);
                                if loads.is_empty()
                                    || loads.iter().any(|(c, i)| *c != cell || *i != index)
                                {
                                    continue;
                                }
                                for c in [(*b).clone(), negate(b)] {
                                    let c = at_cell(&c, &index, var, &k, width);
                                    if c.vars().iter().all(|u| {
                                        *u == VarRef::Local(ghost) || stable(&Expr::Var(*u))
                                    }) {
                                        tested.push((Some(l.head), c));
                                    }
                                }
                            }
                        }
                    }
                    accessed.push((cell, index));
                }
            }
            for (cell, index) in accessed {
                if index.ty(&env) == Ty::Int(width) && stable(&cell.base) && !cells.contains(&cell)
                {
                    cells.push(cell);
                }
            }
        }
        // The whole walk of this loop, when it starts at a constant and stops at a bound
        // no loop changes.
        walks.extend(
            walk(p, f, l, &prep.loops, &k, width)
                .into_iter()
                .map(|w| (l.head, w)),
        );
    }
    // Arrays of the same element type, element by element.
    for (i, a) in cells.iter().enumerate() {
        for b in &cells[i + 1..] {
            if a.ty == b.ty && a.base != b.base {
                values.push((
                    None,
                    Expr::binary(BinOp::Eq, a.at(&k, width), b.at(&k, width)),
                ));
            }
        }
    }
    let mut seen = BTreeSet::new();
    values.retain(|v| seen.insert(format!("{v:?}")));
    values.truncate(24);
    // Cut on their own: the loops around a store see it too, each with its branches, and
    // the families above fill the cut before the tests of an inner loop's store.
    tested.retain(|v| seen.insert(format!("{v:?}")));
    tested.truncate(24);
    values.extend(tested);
    let mut seen = BTreeSet::new();
    walks.retain(|v| seen.insert(format!("{v:?}")));
    FnCells {
        ghost,
        width,
        values,
        walks,
    }
}

/// The part of the array loop `l` has passed, for each index variable with a constant step.
fn passed(
    p: &Program,
    f: &Function,
    l: &LoopInfo,
    st: &std::collections::BTreeMap<VarRef, BTreeSet<i128>>,
    k: &Expr,
    w: u16,
) -> Vec<Expr> {
    let env = p.env(f);
    let mut out = Vec::new();
    for index in loop_indices(p, f, l, w) {
        let Some((v, signed)) = index_var(p, f, &index) else {
            continue;
        };
        let Some(s) = st.get(&v) else { continue };
        if s.len() != 1 {
            continue;
        }
        let d = *s.iter().next().unwrap_or(&0);
        let Some(g) = l.ghost_of(v) else { continue };
        if d == 0 || !matches!(env.var_ty(v), Ty::Int(_)) {
            continue;
        }
        let lo = index.substitute(&mut |u| (u == v).then(|| Expr::local(g)));
        let (le, lt) = if signed {
            (BinOp::Sle, BinOp::Slt)
        } else {
            (BinOp::Ule, BinOp::Ult)
        };
        let (range, diff) = if d > 0 {
            (
                Expr::binary(
                    BinOp::And,
                    Expr::binary(le, lo.clone(), k.clone()),
                    Expr::binary(lt, k.clone(), index.clone()),
                ),
                Expr::binary(BinOp::Sub, k.clone(), lo),
            )
        } else {
            (
                Expr::binary(
                    BinOp::And,
                    Expr::binary(lt, index.clone(), k.clone()),
                    Expr::binary(le, k.clone(), lo.clone()),
                ),
                Expr::binary(BinOp::Sub, lo, k.clone()),
            )
        };
        let step = d.unsigned_abs() as u64;
        if step > 1 {
            let on_step = Expr::binary(BinOp::Eq, residue(diff, step, w), Expr::int(w, 0));
            out.push(Expr::binary(BinOp::And, range, on_step));
        } else {
            out.push(range);
        }
    }
    out
}

/// The index expressions of `l`'s stores at indexed addresses (of width `w`).
fn loop_indices(p: &Program, f: &Function, l: &LoopInfo, w: u16) -> Vec<Expr> {
    let env = p.env(f);
    let mut out: Vec<Expr> = Vec::new();
    for e in f
        .edges
        .iter()
        .filter(|e| l.locs.binary_search(&e.from).is_ok())
    {
        let mut found = Vec::new();
        if let Op::Store { addr, .. } = &e.op {
            if let Some((_, index, ..)) = split_address(addr) {
                found.push(index);
            }
        }
        e.op.exprs(&mut |x| found.extend(indexed_loads(x).into_iter().map(|(_, i)| i)));
        for i in found {
            if i.ty(&env) == Ty::Int(w) && index_var(p, f, &i).is_some() && !out.contains(&i) {
                out.push(i);
            }
        }
    }
    out
}

/// `[I(c), I(n))` for loop `l` walking its index `i` up from the constant `c` while
/// `i < n`, with `n` a constant or a variable no loop changes.
fn walk(
    p: &Program,
    f: &Function,
    l: &LoopInfo,
    loops: &[LoopInfo],
    k: &Expr,
    w: u16,
) -> Vec<Expr> {
    let mut out = Vec::new();
    let inside = |x| l.locs.binary_search(&x).is_ok();
    for index in loop_indices(p, f, l, w) {
        let Some((v, signed)) = index_var(p, f, &index) else {
            continue;
        };
        let (le, lt) = if signed {
            (BinOp::Sle, BinOp::Slt)
        } else {
            (BinOp::Ule, BinOp::Ult)
        };
        let starts: Vec<Expr> = f
            .edges
            .iter()
            .filter(|e| !inside(e.from))
            .filter_map(|e| match &e.op {
                Op::Assign(x, c @ Expr::Const { .. }) if *x == v => Some(c.clone()),
                _ => None,
            })
            .collect();
        let bounds: Vec<Expr> = f
            .edges
            .iter()
            .filter(|e| e.from == l.head)
            .filter_map(|e| match &e.op {
                Op::Assume(Expr::Binary(op, a, b))
                    if matches!(op, BinOp::Slt | BinOp::Ult) && **a == Expr::Var(v) =>
                {
                    Some((**b).clone())
                }
                _ => None,
            })
            .filter(|n| {
                n.vars()
                    .iter()
                    .all(|u| !loops.iter().any(|o| o.func == l.func && o.modifies(*u)))
            })
            .collect();
        for c in &starts {
            for n in &bounds {
                let lo = index.substitute(&mut |u| (u == v).then(|| c.clone()));
                let hi = index.substitute(&mut |u| (u == v).then(|| n.clone()));
                out.push(Expr::binary(
                    BinOp::And,
                    Expr::binary(le, lo, k.clone()),
                    Expr::binary(lt, k.clone(), hi),
                ));
            }
        }
    }
    out
}

/// Whether `e` tests validity (the UB checks' conditions: no use as a phase of a cell).
fn has_valid(e: &Expr) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x, Expr::Valid(..)));
    found
}

/// The locations some path of `f` leads to from `from` (`succ`: `f.successors()`), not
/// passing `avoid` (which is reached but not left).
fn reachable(
    f: &Function,
    succ: &[Vec<qicc_ir::EdgeId>],
    from: Loc,
    avoid: Option<Loc>,
) -> BTreeSet<Loc> {
    let mut seen = BTreeSet::from([from]);
    let mut work = vec![from];
    while let Some(x) = work.pop() {
        if Some(x) == avoid {
            continue;
        }
        for &e in succ.get(x.index()).map_or(&[][..], |v| v.as_slice()) {
            let to = f.edge(e).to;
            if seen.insert(to) {
                work.push(to);
            }
        }
    }
    seen
}

/// At most this many instances per loop head.
const MAX_INSTANCES: usize = 32;

/// The proven cell conditions of each loop head at the elements the loop reads: for a
/// condition `P(k)` of `proven[i]` over the ghost, and each index `I` of a load in loop `i`
/// (not over the ghost), `P(I)`.
///
/// Why each holds at every visit of the head (of the runs before the first violation):
/// Houdini proved `P(k)` at the head for a ghost havocked once at the function's entry and
/// read by no edge but the restricted assertions' failure edges, whose other edge is
/// unchanged. So the runs that reach a state with one value of the ghost reach it with every
/// other value too (up to the violation), and `P(v)` holds there for every `v`; in
/// particular for the value of `I` in that state. The instances are no new candidates but
/// consequences of proven ones: a later Houdini stage assumes them as settled, and the
/// conditions over the elements a loop reads (`0 <= a[i] <= 10` where `s += a[i]`) become
/// usable by the scalar candidates (`s <= 10*i`, [`crate::candidates::sums`]).
pub fn instances(prep: &Prepared, proven: &[Vec<Expr>]) -> Vec<Vec<Expr>> {
    let p = &prep.program;
    prep.loops
        .iter()
        .zip(proven)
        .map(|(l, conds)| {
            let f = p.function(l.func);
            let env = p.env(f);
            let Some(ghost) = ghost_of(f) else {
                return Vec::new();
            };
            let Ty::Int(w) = f.local(ghost).ty else {
                return Vec::new();
            };
            let mut indices: Vec<Expr> = Vec::new();
            for e in f
                .edges
                .iter()
                .filter(|e| l.locs.binary_search(&e.from).is_ok())
            {
                e.op.exprs(&mut |x| {
                    for (_, i) in indexed_loads(x) {
                        if i.ty(&env) == Ty::Int(w) && !over_cell(f, &i) && !indices.contains(&i) {
                            indices.push(i);
                        }
                    }
                });
            }
            let mut out: Vec<Expr> = Vec::new();
            'all: for c in conds.iter().filter(|c| over_cell(f, c)) {
                for i in &indices {
                    let inst =
                        c.substitute(&mut |u| (u == VarRef::Local(ghost)).then(|| i.clone()));
                    if !out.contains(&inst) {
                        out.push(inst);
                        if out.len() >= MAX_INSTANCES {
                            break 'all;
                        }
                    }
                }
            }
            out
        })
        .collect()
}
