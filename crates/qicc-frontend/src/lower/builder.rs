//! Building one function's control-flow automaton.
//!
//! The builder keeps a *current location*: every emitted operation becomes an edge from it to
//! a fresh location, which becomes current. Jumps (`goto`, `break`, the end of a branch) do
//! not emit `skip` edges when they can avoid it: a current location without outgoing edges is
//! merged into the jump target (union-find), and [`FnBuilder::finish`] resolves the merges,
//! drops code that cannot be reached from `entry` and numbers the locations densely.
//!
//! Invariants: only the four special locations are fixed (`entry` L0, `exit` L1, `err` L2,
//! `halt` L3); every edge leaving a location is added while that location is current (so a
//! merged location never has outgoing edges); names of invented locals contain a `.`.

use qicc_ir::{Edge, Expr, Function, HavocKind, Loc, LocalId, Op, Span, Ty, VarRef};
use std::collections::{HashMap, HashSet};

pub struct FnBuilder {
    pub func: Function,
    cur: Loc,
    /// Span given to the edges emitted now.
    pub span: Span,
    /// Union-find parents of locations (merged by jumps).
    parent: Vec<u32>,
    /// Locations that already have an outgoing edge (never merged away).
    has_out: HashSet<u32>,
    tmp_counter: u32,
    /// Locals assigned once while an expression using them is in flight: temporaries and the
    /// pointers to stack objects. Expressions over them keep their value.
    stable: HashSet<LocalId>,
    /// How many locals of each C name exist (for `x.1`, `x.2` when shadowing).
    name_uses: HashMap<String, u32>,
    /// Edges of the entry prologue (allocation of stack objects), placed first at the end.
    prologue: Vec<(Op, Span)>,
    /// Pointers to stack objects allocated in the prologue, freed before `exit`.
    pub stack_objects: Vec<LocalId>,
    /// Pointers of `alloca` calls and variable-length arrays (0 until executed, and a
    /// variable-length array's again once its block frees it), freed before `exit` when
    /// non-null.
    pub alloca_objects: Vec<LocalId>,
    /// Where `return` jumps to (frees stack objects, then `exit`).
    pub ret_loc: Loc,
    /// Where the body starts (after the prologue).
    body_start: Loc,
}

impl FnBuilder {
    pub fn new(name: &str, span: Span) -> FnBuilder {
        let func = Function::new(name, span);
        let mut b = FnBuilder {
            parent: (0..func.num_locs).collect(),
            cur: func.entry,
            func,
            span,
            has_out: HashSet::new(),
            tmp_counter: 0,
            stable: HashSet::new(),
            name_uses: HashMap::new(),
            prologue: Vec::new(),
            stack_objects: Vec::new(),
            alloca_objects: Vec::new(),
            ret_loc: Loc(0),
            body_start: Loc(0),
        };
        b.ret_loc = b.new_loc();
        // The body starts after the prologue, at its own location.
        b.body_start = b.new_loc();
        b.cur = b.body_start;
        b
    }

    pub fn new_loc(&mut self) -> Loc {
        let l = self.func.new_loc();
        self.parent.push(l.0);
        l
    }

    fn find(&mut self, l: Loc) -> Loc {
        let mut x = l.0;
        while self.parent[x as usize] != x {
            let p = self.parent[x as usize];
            self.parent[x as usize] = self.parent[p as usize];
            x = p;
        }
        Loc(x)
    }

    /// Makes `l` current (e.g. a label, a loop head, a branch target).
    pub fn set_cur(&mut self, l: Loc) {
        self.cur = l;
    }

    /// Adds an edge from the current location to `to` without changing the current location.
    pub fn edge_to(&mut self, op: Op, to: Loc) {
        let from = self.find(self.cur);
        self.has_out.insert(from.0);
        self.func.add_edge(from, to, op, self.span);
    }

    /// Adds an edge from the current location to a fresh one, which becomes current.
    pub fn emit(&mut self, op: Op) {
        let to = self.new_loc();
        self.edge_to(op, to);
        self.cur = to;
    }

    /// Control continues at `to`; the current location becomes a fresh, unreachable one.
    pub fn goto(&mut self, to: Loc) {
        let from = self.find(self.cur);
        let to_r = self.find(to);
        let special = [
            self.func.entry,
            self.func.exit,
            self.func.err,
            self.func.halt,
        ];
        if from == to_r || self.has_out.contains(&from.0) || special.contains(&from) {
            // A self-loop (`while (1);`) must stay an edge: without it the run would block.
            self.edge_to(Op::Skip, to);
        } else {
            self.parent[from.0 as usize] = to_r.0;
        }
        self.cur = self.new_loc();
    }

    /// Control does not continue (after `error`, `halt`, or a jump emitted with
    /// [`FnBuilder::edge_to`]): the current location becomes a fresh, unreachable one.
    pub fn dead(&mut self) {
        self.cur = self.new_loc();
    }

    /// Two-way branch on a bool: `assume c` to `t`, `assume not(c)` to `f` (a constant
    /// condition gives one unconditional edge).
    pub fn branch(&mut self, c: Expr, t: Loc, f: Loc) {
        if c.is_true() {
            self.goto(t);
        } else if c.is_false() {
            self.goto(f);
        } else {
            let nc = super::fold::not(c.clone());
            self.edge_to(Op::Assume(c), t);
            self.edge_to(Op::Assume(nc), f);
            self.dead();
        }
    }

    pub fn add_local(&mut self, name: &str, ty: Ty) -> LocalId {
        self.func.add_local(name, ty)
    }

    /// A local for the C variable `name`: `name` itself, or `name.N` when shadowing.
    pub fn add_named_local(&mut self, name: &str, ty: Ty) -> LocalId {
        let n = self.name_uses.entry(name.to_string()).or_insert(0);
        let ir_name = if *n == 0 {
            name.to_string()
        } else {
            format!("{name}.{n}")
        };
        *n += 1;
        // `x.1` could already exist only if the C program had a variable named `x.1`, which
        // is impossible; still, keep names unique whatever happens.
        let mut unique = ir_name.clone();
        let mut k = 0;
        while self.func.find_local(&unique).is_some() {
            k += 1;
            unique = format!("{ir_name}.{k}");
        }
        self.func.add_local(unique, ty)
    }

    pub fn new_tmp(&mut self, ty: Ty) -> LocalId {
        let name = format!("tmp.{}", self.tmp_counter);
        self.tmp_counter += 1;
        let id = self.func.add_local(name, ty);
        self.stable.insert(id);
        id
    }

    pub fn mark_stable(&mut self, id: LocalId) {
        self.stable.insert(id);
    }

    /// Whether the expression keeps its value whatever the program does next (it reads only
    /// constants, object addresses, temporaries and stack-object pointers).
    pub fn is_stable(&self, e: &Expr) -> bool {
        let mut ok = true;
        e.visit(&mut |x| match x {
            Expr::Var(VarRef::Local(l)) => ok &= self.stable.contains(l),
            Expr::Var(VarRef::Global(_)) | Expr::Load(..) | Expr::Valid(..) => ok = false,
            _ => {}
        });
        ok
    }

    /// Assigns `e` to a fresh temporary and returns the temporary.
    pub fn materialize(&mut self, e: Expr, ty: Ty) -> Expr {
        let t = self.new_tmp(ty);
        self.emit(Op::Assign(VarRef::Local(t), e));
        Expr::local(t)
    }

    /// A stack object of `size` bytes allocated in the prologue and freed before `exit`;
    /// returns the local holding its address.
    pub fn stack_object(&mut self, name: &str, size: u64, ptr: Ty, span: Span) -> LocalId {
        let id = self.add_named_local(name, ptr);
        self.register_stack_object(id, size, ptr, span);
        id
    }

    /// Like [`FnBuilder::stack_object`], with an invented name used as is (`lit.3`).
    pub fn stack_object_exact(&mut self, name: &str, size: u64, ptr: Ty, span: Span) -> LocalId {
        let id = self.add_local(name, ptr);
        self.register_stack_object(id, size, ptr, span);
        id
    }

    fn register_stack_object(&mut self, id: LocalId, size: u64, ptr: Ty, span: Span) {
        self.stable.insert(id);
        self.prologue.push((
            Op::Alloc {
                dst: VarRef::Local(id),
                size: Expr::konst(ptr, size),
                kind: qicc_ir::AllocKind::Frame,
            },
            span,
        ));
        self.stack_objects.push(id);
    }

    /// Frees the object the pointer local `id` holds unless it is null.
    pub fn free_if_live(&mut self, id: LocalId, ptr: Ty) {
        let p = Expr::local(id);
        let skip = self.new_loc();
        let do_free = self.new_loc();
        let null = Expr::konst(ptr, 0);
        self.edge_to(
            Op::Assume(super::fold::bin(
                qicc_ir::BinOp::Ne,
                p.clone(),
                null.clone(),
            )),
            do_free,
        );
        self.edge_to(
            Op::Assume(super::fold::bin(qicc_ir::BinOp::Eq, p.clone(), null)),
            skip,
        );
        self.set_cur(do_free);
        self.emit(Op::Free(p));
        self.goto(skip);
        self.set_cur(skip);
    }

    /// Adds a prologue edge (e.g. `havoc` of `main`'s parameters).
    pub fn prologue_op(&mut self, op: Op, span: Span) {
        self.prologue.push((op, span));
    }

    pub fn havoc(&mut self, v: VarRef, kind: HavocKind) {
        self.emit(Op::Havoc(v, kind));
    }

    /// Completes the automaton: the prologue from `entry` to the body, the epilogue (freeing
    /// stack objects) from `ret_loc` to `exit`, merges resolved, unreachable code dropped,
    /// locations renumbered.
    pub fn finish(mut self, ptr: Ty) -> Function {
        // Whatever falls off the end of the body returns.
        let ret = self.ret_loc;
        self.goto(ret);
        // Epilogue (its edges carry the function's span).
        self.span = self.func.span;
        self.set_cur(ret);
        let frees: Vec<LocalId> = self.stack_objects.clone();
        for id in frees {
            self.emit(Op::Free(Expr::local(id)));
        }
        for id in self.alloca_objects.clone() {
            self.free_if_live(id, ptr);
        }
        let exit = self.func.exit;
        self.goto(exit);
        // Prologue: entry -> ... -> body start.
        let body_start = self.body_start;
        let mut pro_edges = Vec::new();
        let mut from = self.func.entry;
        let prologue = std::mem::take(&mut self.prologue);
        let n = prologue.len();
        for (i, (op, span)) in prologue.into_iter().enumerate() {
            let to = if i + 1 == n {
                body_start
            } else {
                self.new_loc()
            };
            pro_edges.push(Edge { from, to, op, span });
            from = to;
        }
        if n == 0 {
            pro_edges.push(Edge {
                from,
                to: body_start,
                op: Op::Skip,
                span: self.func.span,
            });
        }
        let mut edges = pro_edges;
        edges.append(&mut self.func.edges);
        // Resolve merges.
        for e in &mut edges {
            e.from = self.find(e.from);
            e.to = self.find(e.to);
        }
        // Without a prologue, the body starts at `entry` itself unless something jumps back
        // to the body's first location (`entry` keeps no incoming edges).
        if n == 0 {
            let start = self.find(body_start);
            let entry = self.func.entry;
            // A body that reaches `exit`, `err` or `halt` at once (`{}`, `return;`) keeps its
            // entry edge: `entry` cannot be merged into another special location, and
            // dropping the edge would leave `entry` without a way out (every call blocks).
            let special = [self.func.exit, self.func.err, self.func.halt];
            if edges.iter().skip(1).all(|e| e.to != start)
                && start != entry
                && !special.contains(&start)
            {
                edges.remove(0);
                for e in &mut edges {
                    if e.from == start {
                        e.from = entry;
                    }
                }
            }
        }
        // Keep what entry reaches.
        let n = self.func.num_locs as usize;
        let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, e) in edges.iter().enumerate() {
            succ[e.from.index()].push(i);
        }
        let mut reach = vec![false; n];
        let mut stack = vec![self.func.entry.index()];
        reach[self.func.entry.index()] = true;
        while let Some(l) = stack.pop() {
            for &ei in &succ[l] {
                let t = edges[ei].to.index();
                if !reach[t] {
                    reach[t] = true;
                    stack.push(t);
                }
            }
        }
        edges.retain(|e| reach[e.from.index()]);
        // Number densely: special locations first, the others in creation order.
        let mut new_id = vec![u32::MAX; n];
        for (i, l) in [
            self.func.entry,
            self.func.exit,
            self.func.err,
            self.func.halt,
        ]
        .iter()
        .enumerate()
        {
            new_id[l.index()] = i as u32;
        }
        let mut next = 4u32;
        for (l, id) in new_id.iter_mut().enumerate() {
            if *id == u32::MAX && reach[l] {
                *id = next;
                next += 1;
            }
        }
        for e in &mut edges {
            e.from = Loc(new_id[e.from.index()]);
            e.to = Loc(new_id[e.to.index()]);
        }
        let mut f = self.func;
        f.edges = edges;
        f.num_locs = next;
        f.entry = Loc(0);
        f.exit = Loc(1);
        f.err = Loc(2);
        f.halt = Loc(3);
        f
    }
}
