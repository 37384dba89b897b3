//! Symbolic execution of the whole program up to an unwinding bound (CBMC's goto-symex
//! strategy on control-flow automata).
//!
//! Calls are inlined: each call runs the callee's automaton on its own work list and returns
//! the merge of every state that reached the callee's `exit`. Inside one call, pending states
//! wait at their location, keyed by their position in the unwound program —
//! `[rpo(header), count]` for each enclosing loop, outermost first, then `rpo(location)` —
//! and the smallest key is processed next, after merging every state with that key. So a
//! join point is processed once all its predecessors in the same iteration are, loop
//! iterations run in order, and code after a loop waits until the loop is done. Any order
//! would be *correct* (merging is only an optimisation); this one merges as much as a
//! structured program allows, and still works on irreducible automata.
//!
//! Bounds: a back-edge of a loop is taken at most `bound` times per entry into the loop
//! (counters reset when the loop is entered), a function may be active at most
//! `recursion + 1` times on the call stack. A path that would go further is *cut*: its guard
//! is recorded with the reason, and the verdict TRUE needs every cut guard unsatisfiable.
//!
//! Every branching is exclusive: when the enabled conditions of a location's edges are not
//! syntactically disjoint, a fresh choice variable picks the edge. This is what makes merged
//! values (`ite`) and model-guided path extraction sound on nondeterministic automata.

use crate::cfa::FnInfo;
use crate::encode::{sort_of, zero_of, Encoder};
use crate::error::SymexError;
use crate::memory::{const_value, MemModel};
use crate::state::{Guards, State};
use crate::trace::{InstId, StepKind, Target, Trace};
use qicc_engine::Budget;
use qicc_ir::{AssertionId, EdgeId, FuncId, Function, Loc, Op, Program, TypeEnv, VarRef};
use qicc_smt::{Sort, TermId, TermStore};
use std::collections::{BTreeMap, HashMap};

/// Past this many terms symex stops: with their Z3 translations, about 1 KB each.
const MAX_TERMS: usize = 10_000_000;

/// The unwinding bounds of one symbolic execution.
#[derive(Clone, Debug)]
pub struct Bounds {
    pub default: u32,
    /// Per (function, loop index) overrides.
    pub loops: HashMap<(FuncId, u32), u32>,
}

impl Bounds {
    fn loop_bound(&self, f: FuncId, l: u32) -> u32 {
        self.loops.get(&(f, l)).copied().unwrap_or(self.default)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CutReason {
    Loop {
        func: FuncId,
        loop_id: u32,
        bound: u32,
    },
    Recursion {
        func: FuncId,
        bound: u32,
    },
    OutOfObjects,
    AllocTooLarge {
        func: FuncId,
        edge: EdgeId,
    },
}

#[derive(Clone, Copy, Debug)]
pub struct Cut {
    pub guard: TermId,
    pub reason: CutReason,
}

#[derive(Clone, Copy, Debug)]
pub struct ErrorHit {
    pub assertion: AssertionId,
    pub guard: TermId,
    /// No signed overflow happened before (see `State::clean`).
    pub clean: TermId,
}

/// The result of one symbolic execution.
pub struct Encoding {
    pub errors: Vec<ErrorHit>,
    pub cuts: Vec<Cut>,
    pub trace: Trace,
    /// The first instance (entry of the entry function).
    pub root: InstId,
    /// Values of the globals without initialiser, then of the entry function's parameters:
    /// the interpreter's havocs before the first edge, in its order.
    pub prelude: Vec<TermId>,
    /// Assumed by counterexample queries when memory was havocked (see `memory`).
    pub align: TermId,
    pub uses_havoc_memory: bool,
    pub steps: u64,
}

pub struct Symex<'a> {
    p: &'a Program,
    s: &'a mut TermStore,
    info: &'a [FnInfo],
    mm: &'a MemModel,
    bounds: &'a Bounds,
    budget: &'a Budget,
    guards: Guards,
    errors: Vec<ErrorHit>,
    cuts: Vec<Cut>,
    trace: Trace,
    align: TermId,
    uses_havoc_memory: bool,
    steps: u64,
    call_stack: Vec<FuncId>,
    /// Parallel to `call_stack`: whether anything after the activation returns can still
    /// reach an error (see [`qicc_analysis::reach::Relevance`]).
    cont_stack: Vec<bool>,
    n_havoc: u64,
    n_choice: u64,
    n_memhavoc: u64,
}

type Work = BTreeMap<Vec<u32>, (Loc, Vec<State>)>;

/// Symbolically executes `p` from its entry up to `bounds`.
pub fn run(
    p: &Program,
    s: &mut TermStore,
    info: &[FnInfo],
    mm: &MemModel,
    bounds: &Bounds,
    budget: &Budget,
) -> Result<Encoding, SymexError> {
    let align = s.symbol("replayable!", Sort::Bool);
    let first_obj = s.bv_const(mm.obj_w + 1, mm.statics as u64 + 1);
    let mut x = Symex {
        p,
        s,
        info,
        mm,
        bounds,
        budget,
        guards: Guards::default(),
        errors: Vec::new(),
        cuts: Vec::new(),
        trace: Trace::default(),
        align,
        uses_havoc_memory: false,
        steps: 0,
        call_stack: Vec::new(),
        cont_stack: Vec::new(),
        n_havoc: 0,
        n_choice: 0,
        n_memhavoc: 0,
    };
    let mut prelude = Vec::new();
    let mut globals = Vec::with_capacity(p.globals.len());
    for g in &p.globals {
        let t = match &g.init {
            Some(e) => {
                let (v, ty) = const_value(p, e).ok_or_else(|| {
                    SymexError::Unsupported(format!(
                        "global ${}: initialiser is not constant",
                        g.name
                    ))
                })?;
                match ty {
                    qicc_ir::Ty::Bool => x.s.bool_const(v != 0),
                    qicc_ir::Ty::Int(w) => x.s.bv_const(w, v),
                }
            }
            None => {
                let t = x.s.symbol(&format!("global!{}", g.name), sort_of(g.ty));
                prelude.push(t);
                t
            }
        };
        globals.push(t);
    }
    let entry = p.entry;
    let f = p.function(entry);
    let mut locals: Vec<TermId> = f.locals.iter().map(|l| zero_of(x.s, l.ty)).collect();
    for prm in &f.params {
        let t = x.s.symbol(
            &format!("param!{}", f.local(*prm).name),
            sort_of(f.local(*prm).ty),
        );
        locals[prm.index()] = t;
        prelude.push(t);
    }
    let st = State {
        guard: x.s.tt(),
        locals,
        globals,
        mem: mm.init_mem,
        live: mm.init_live,
        size: mm.init_size,
        next_obj: first_obj,
        alloc_base: first_obj,
        clean: x.s.tt(),
        counters: vec![0; info[entry.index()].chain(f.entry).len()],
        from: Vec::new(),
    };
    x.call_stack.push(entry);
    x.cont_stack.push(false);
    x.run_function(entry, st, None)?;
    Ok(Encoding {
        errors: x.errors,
        cuts: x.cuts,
        trace: x.trace,
        root: InstId(0),
        prelude,
        align: x.align,
        uses_havoc_memory: x.uses_havoc_memory,
        steps: x.steps,
    })
}

impl Symex<'_> {
    fn tick(&mut self) -> Result<(), SymexError> {
        self.steps += 1;
        if self.steps.is_multiple_of(16) {
            if let Some(r) = self.budget.exhausted() {
                return Err(SymexError::Stopped(r));
            }
            if self.s.len() > MAX_TERMS {
                return Err(SymexError::Unsupported(format!(
                    "the unwound program needs more than {MAX_TERMS} terms"
                )));
            }
        }
        Ok(())
    }

    /// The term of an IR expression in state `st`.
    fn ex(&mut self, st: &State, e: &qicc_ir::Expr) -> TermId {
        Encoder { mm: self.mm, st }.expr(self.s, e)
    }

    fn push_pending(work: &mut Work, info: &FnInfo, loc: Loc, st: State) {
        let chain = info.chain(loc);
        let mut key = Vec::with_capacity(2 * chain.len() + 1);
        for (l, c) in chain.iter().zip(&st.counters) {
            key.push(info.rpo(info.loops()[*l as usize].header));
            key.push(*c);
        }
        key.push(info.rpo(loc));
        work.entry(key)
            .or_insert_with(|| (loc, Vec::new()))
            .1
            .push(st);
    }

    /// Runs one activation of `fid` from `st` (at its entry); the merged state at its exit,
    /// whose `from` is the return step (`None`: no path returns, or this is the entry
    /// function).
    fn run_function(
        &mut self,
        fid: FuncId,
        st: State,
        call: Option<(FuncId, EdgeId)>,
    ) -> Result<Option<State>, SymexError> {
        let f = self.p.function(fid);
        let info = &self.info[fid.index()];
        let mut work: Work = BTreeMap::new();
        let mut exits: Vec<State> = Vec::new();
        if !self.relevant(fid, f.entry) {
            return Ok(None);
        }
        Self::push_pending(&mut work, info, f.entry, st);
        while let Some((_, (loc, states))) = work.pop_first() {
            self.tick()?;
            let merged = self.merge_all(states)?;
            self.process(fid, loc, merged, &mut work, &mut exits)?;
        }
        if exits.is_empty() {
            return Ok(None);
        }
        let mut exit = self.merge_all(exits)?;
        let inst = self.trace.new_instance(fid, f.exit, &exit.from);
        match call {
            Some((caller, edge)) => {
                let step = self
                    .trace
                    .new_step(inst, caller, edge, exit.guard, StepKind::Return);
                exit.from = vec![step];
                Ok(Some(exit))
            }
            None => Ok(None),
        }
    }

    /// Merges the states waiting at one point, deepest guard first: states that left a
    /// loop in iterations k and k-1 share all but the last iteration's conditions, so each
    /// merge then only looks at a few conditions (in arrival order, every merge would walk
    /// back to the loop entry: quadratic in the iterations).
    fn merge_all(&mut self, mut states: Vec<State>) -> Result<State, SymexError> {
        if states.len() > 1 {
            let s = &*self.s;
            let guards = &mut self.guards;
            let mut keyed: Vec<(u32, State)> = states
                .drain(..)
                .map(|st| (guards.depth(s, st.guard), st))
                .collect();
            keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
            states = keyed.into_iter().map(|(_, st)| st).collect();
        }
        let mut it = states.into_iter();
        let mut acc = it.next().expect("pending lists are never empty");
        for st in it {
            self.tick()?;
            acc = self.guards.merge(self.s, acc, st);
        }
        Ok(acc)
    }

    /// Expands one merged state at `loc`: every enabled edge.
    fn process(
        &mut self,
        fid: FuncId,
        loc: Loc,
        st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let f = self.p.function(fid);
        let info = &self.info[fid.index()];
        let inst = self.trace.new_instance(fid, loc, &st.from);
        let edges = info.succ(loc);
        let mut conds = Vec::with_capacity(edges.len());
        for &e in edges {
            let c = match &f.edge(e).op {
                Op::Assume(c) => self.ex(&st, c),
                _ => self.s.tt(),
            };
            conds.push((e, c));
        }
        let live: Vec<(EdgeId, TermId)> = conds
            .iter()
            .copied()
            .filter(|&(_, c)| c != self.s.ff())
            .collect();
        self.trace.instances[inst.0 as usize].conds = conds;
        let choices = self.exclusive_choices(&live);
        for (k, &(e, c)) in live.iter().enumerate() {
            let c = self.s.and(c, choices[k]);
            let g = self.s.and(st.guard, c);
            if g == self.s.ff() {
                continue;
            }
            let mut next = st.clone();
            next.guard = g;
            next.from = Vec::new();
            self.exec_edge(fid, f, inst, e, next, work, exits)?;
        }
        Ok(())
    }

    /// Extra conditions that make the branches exclusive: all `true` if the edge conditions
    /// are pairwise disjoint already, otherwise "choice variable = k".
    fn exclusive_choices(&mut self, live: &[(EdgeId, TermId)]) -> Vec<TermId> {
        let n = live.len();
        let tt = self.s.tt();
        let mut disjoint = true;
        'pairs: for i in 0..n {
            for j in i + 1..n {
                if !self.s.disjoint(live[i].1, live[j].1) {
                    disjoint = false;
                    break 'pairs;
                }
            }
        }
        if disjoint {
            return vec![tt; n];
        }
        let id = self.n_choice;
        self.n_choice += 1;
        if n == 2 {
            let ch = self.s.symbol(&format!("choice!{id}"), Sort::Bool);
            let not = self.s.not(ch);
            return vec![ch, not];
        }
        let width = (usize::BITS - (n - 1).leading_zeros()).max(1) as u16;
        let ch = self.s.symbol(&format!("choice!{id}"), Sort::BitVec(width));
        (0..n)
            .map(|k| {
                let kk = self.s.bv_const(width, k as u64);
                self.s.eq(ch, kk)
            })
            .collect()
    }

    fn set_var(st: &mut State, v: VarRef, t: TermId) {
        match v {
            VarRef::Local(l) => st.locals[l.index()] = t,
            VarRef::Global(g) => st.globals[g.index()] = t,
        }
    }

    fn cut(&mut self, step: crate::trace::StepId, guard: TermId, reason: CutReason) {
        self.trace.set_target(step, Target::Cut(self.cuts.len()));
        self.cuts.push(Cut { guard, reason });
    }

    /// Takes edge `e` in state `st` (whose guard already includes the edge's condition).
    #[allow(clippy::too_many_arguments)]
    fn exec_edge(
        &mut self,
        fid: FuncId,
        f: &Function,
        inst: InstId,
        e: EdgeId,
        mut st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let edge = f.edge(e);
        let mm = self.mm;
        let mut kind = StepKind::Plain;
        match &edge.op {
            Op::Skip | Op::Assume(_) => {}
            Op::NoWrap(c) => {
                let c = self.ex(&st, c);
                st.clean = self.s.and(st.clean, c);
            }
            Op::Assign(v, x) => {
                let t = self.ex(&st, x);
                Self::set_var(&mut st, *v, t);
            }
            Op::Havoc(v, _) => {
                let ty = self.p.env(f).var_ty(*v);
                let sym = self
                    .s
                    .symbol(&format!("nondet!{}", self.n_havoc), sort_of(ty));
                self.n_havoc += 1;
                kind = StepKind::Havoc(sym);
                Self::set_var(&mut st, *v, sym);
            }
            Op::HavocBytes { dst, len } => {
                let d = self.ex(&st, dst);
                let n = self.ex(&st, len);
                // Fresh bytes at every execution: an array symbol of its own.
                let bytes = self.s.symbol(
                    &format!("bytes!{}", self.n_havoc),
                    Sort::Array {
                        index: mm.ptr_w,
                        elem: 8,
                    },
                );
                self.n_havoc += 1;
                st.mem = mm.copy_in(self.s, st.mem, d, bytes, n);
                kind = StepKind::HavocBytes {
                    bytes,
                    dst: d,
                    len: n,
                };
            }
            Op::Store { addr, value, .. } => {
                let a = self.ex(&st, addr);
                let v = self.ex(&st, value);
                st.mem = mm.store(self.s, st.mem, a, v);
            }
            Op::Alloc { dst, size, .. } => {
                // Out of object numbers: the model cannot go on. When the allocations since
                // the start (or since `havoc_memory`) alone use up the numbers, that is a cut
                // (never a proof). When only an arbitrary number from `havoc_memory` is too
                // high, the path is dropped: the same allocations from a lower number are
                // still explored, and an execution that reaches the region's head with a
                // number that high runs out of numbers in the program itself (unsupported).
                let max = self.s.bv_const(mm.obj_w + 1, mm.max_objects);
                let exhausted = self.s.ult(max, st.next_obj);
                if exhausted != self.s.ff() {
                    let since = self.s.sub(st.next_obj, st.alloc_base);
                    let room = self
                        .s
                        .bv_const(mm.obj_w + 1, mm.max_objects - mm.statics as u64 - 1);
                    let own = self.s.ult(room, since);
                    let g = self.s.and(st.guard, own);
                    if g != self.s.ff() {
                        let step = self.trace.new_step(inst, fid, e, g, kind);
                        self.cut(step, g, CutReason::OutOfObjects);
                    }
                    let fits = self.s.not(exhausted);
                    st.guard = self.s.and(st.guard, fits);
                    if st.guard == self.s.ff() {
                        return Ok(());
                    }
                }
                let size = self.ex(&st, size);
                let max = self.s.bv_const(mm.ptr_w, mm.max_object_size);
                let too_big = self.s.ult(max, size);
                if too_big != self.s.ff() {
                    let g = self.s.and(st.guard, too_big);
                    let step = self.trace.new_step(inst, fid, e, g, kind);
                    self.cut(step, g, CutReason::AllocTooLarge { func: fid, edge: e });
                    let fits = self.s.not(too_big);
                    st.guard = self.s.and(st.guard, fits);
                    if st.guard == self.s.ff() {
                        return Ok(());
                    }
                }
                let nt = self.s.extract(mm.obj_w - 1, 0, st.next_obj);
                st.next_obj = self.s.add_const(st.next_obj, 1);
                let one = self.s.bv_const(1, 1);
                st.live = self.s.store(st.live, nt, one);
                st.size = self.s.store(st.size, nt, size);
                let addr = mm.base_of(self.s, nt);
                Self::set_var(&mut st, *dst, addr);
                kind = StepKind::Alloc(nt);
            }
            Op::Free(x) => {
                let a = self.ex(&st, x);
                let o = mm.obj_of(self.s, a);
                let zero = self.s.bv_const(1, 0);
                st.live = self.s.store(st.live, o, zero);
            }
            Op::MemCopy { dst, src, len } => {
                let d = self.ex(&st, dst);
                let sr = self.ex(&st, src);
                let n = self.ex(&st, len);
                st.mem = mm.memcpy(self.s, st.mem, d, sr, n);
            }
            Op::MemSet { dst, byte, len } => {
                let d = self.ex(&st, dst);
                let b = self.ex(&st, byte);
                let n = self.ex(&st, len);
                st.mem = mm.memset(self.s, st.mem, d, b, n);
            }
            Op::HavocMemory => {
                let (m, l, z, n) = mm.havoc(
                    self.s,
                    self.align,
                    (st.live, st.size, st.next_obj),
                    self.n_memhavoc,
                );
                self.n_memhavoc += 1;
                self.uses_havoc_memory = true;
                st.mem = m;
                st.live = l;
                st.size = z;
                st.next_obj = n;
                st.alloc_base = n;
            }
            Op::Call { dst, callee, args } => {
                return self.call(fid, f, inst, e, st, *dst, *callee, args, work, exits);
            }
            Op::Error(a) => {
                let step = self.trace.new_step(inst, fid, e, st.guard, kind);
                self.trace.set_target(step, Target::Error(*a));
                self.errors.push(ErrorHit {
                    assertion: *a,
                    guard: st.guard,
                    clean: st.clean,
                });
                return Ok(());
            }
            Op::Halt(_) => {
                let step = self.trace.new_step(inst, fid, e, st.guard, kind);
                self.trace.set_target(step, Target::Halt);
                return Ok(());
            }
        }
        let step = self.trace.new_step(inst, fid, e, st.guard, kind);
        st.from = vec![step];
        self.goto(fid, edge.from, edge.to, st, work, exits);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn call(
        &mut self,
        fid: FuncId,
        f: &Function,
        inst: InstId,
        e: EdgeId,
        st: State,
        dst: Option<VarRef>,
        callee: FuncId,
        args: &[qicc_ir::Expr],
        work: &mut Work,
        exits: &mut Vec<State>,
    ) -> Result<(), SymexError> {
        let edge = f.edge(e);
        let argv: Vec<TermId> = args.iter().map(|a| self.ex(&st, a)).collect();
        let step = self.trace.new_step(inst, fid, e, st.guard, StepKind::Plain);
        let active = self.call_stack.iter().filter(|&&g| g == callee).count() as u32;
        if active > self.bounds.default {
            let bound = self.bounds.default;
            self.cut(
                step,
                st.guard,
                CutReason::Recursion {
                    func: callee,
                    bound,
                },
            );
            return Ok(());
        }
        let g = self.p.function(callee);
        let mut locals: Vec<TermId> = g.locals.iter().map(|l| zero_of(self.s, l.ty)).collect();
        for (prm, a) in g.params.iter().zip(argv) {
            locals[prm.index()] = a;
        }
        let entry_state = State {
            guard: st.guard,
            locals,
            globals: st.globals.clone(),
            mem: st.mem,
            live: st.live,
            size: st.size,
            next_obj: st.next_obj,
            alloc_base: st.alloc_base,
            clean: st.clean,
            counters: vec![0; self.info[callee.index()].chain(g.entry).len()],
            from: vec![step],
        };
        let after = edge.to;
        let cont_here = self.cont_stack.last().copied().unwrap_or(false);
        let info = &self.info[fid.index()];
        let cont_callee =
            info.err_from[after.index()] || (info.exit_from[after.index()] && cont_here);
        self.call_stack.push(callee);
        self.cont_stack.push(cont_callee);
        let exit = self.run_function(callee, entry_state, Some((fid, e)));
        self.call_stack.pop();
        self.cont_stack.pop();
        let Some(exit) = exit? else {
            return Ok(());
        };
        let ret = g.ret.map(|r| exit.locals[r.index()]);
        let mut cont = st;
        cont.guard = exit.guard;
        cont.globals = exit.globals;
        cont.mem = exit.mem;
        cont.live = exit.live;
        cont.size = exit.size;
        cont.next_obj = exit.next_obj;
        cont.alloc_base = exit.alloc_base;
        cont.clean = exit.clean;
        cont.from = exit.from;
        if let (Some(d), Some(r)) = (dst, ret) {
            Self::set_var(&mut cont, d, r);
        }
        self.goto(fid, edge.from, edge.to, cont, work, exits);
        Ok(())
    }

    /// Whether a state at `loc` of the current activation of `fid` can still reach an error.
    fn relevant(&self, fid: FuncId, loc: Loc) -> bool {
        let info = &self.info[fid.index()];
        let cont = self.cont_stack.last().copied().unwrap_or(false);
        info.err_from[loc.index()] || (info.exit_from[loc.index()] && cont)
    }

    /// Moves a state along an edge `from -> to` of `fid`: loop counters, bound, work list.
    fn goto(
        &mut self,
        fid: FuncId,
        from: Loc,
        to: Loc,
        mut st: State,
        work: &mut Work,
        exits: &mut Vec<State>,
    ) {
        let f = self.p.function(fid);
        if !self.relevant(fid, to) {
            // No error is reachable from here, now or after returning: the path can end.
            return;
        }
        if to == f.exit {
            st.counters.clear();
            exits.push(st);
            return;
        }
        let info = &self.info[fid.index()];
        let common = info.common_loops(from, to).min(st.counters.len());
        let mut counters = st.counters[..common].to_vec();
        if let Some(l) = info.back_edge_loop(from, to) {
            if let Some(c) = counters.last_mut() {
                *c += 1;
                let bound = self.bounds.loop_bound(fid, l);
                if *c > bound {
                    let reason = CutReason::Loop {
                        func: fid,
                        loop_id: l,
                        bound,
                    };
                    for s in st.from.clone() {
                        self.cut(s, st.guard, reason);
                    }
                    return;
                }
            }
        }
        counters.resize(info.chain(to).len(), 0);
        st.counters = counters;
        Self::push_pending(work, info, to, st);
    }
}
