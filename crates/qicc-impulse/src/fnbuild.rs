//! The function being instrumented: new locals, locations and edge chains, with checkpoints
//! so that an acceleration that fails half-way leaves no trace.
//!
//! Invariant: edges of the original function keep their ids (new edges are appended), so
//! `EdgeId(i)` with `i < original_edges` is the original edge `i` — possibly moved behind new
//! guard edges (a changed `from`) and with rewritten loads, but with the same effect.

use qicc_ir::{EdgeId, Function, Loc, Local, LocalId, Op, Program, Span, Ty, TypeEnv, VarRef};

pub(crate) struct FnBuilder<'p> {
    pub program: &'p Program,
    pub func: Function,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Checkpoint {
    locals: usize,
    locs: u32,
    edges: usize,
}

impl<'p> FnBuilder<'p> {
    pub fn new(program: &'p Program, func: &Function) -> FnBuilder<'p> {
        FnBuilder {
            program,
            func: func.clone(),
        }
    }

    /// A new local; the name gets a numeric suffix if it is taken.
    pub fn new_local(&mut self, name: &str, ty: Ty) -> LocalId {
        let mut unique = name.to_string();
        let mut k = 1;
        while self.func.locals.iter().any(|l| l.name == unique) {
            k += 1;
            unique = format!("{name}.{k}");
        }
        self.func.locals.push(Local {
            name: unique,
            ty,
            unsigned: false,
            scope: None,
            debug_type: None,
        });
        LocalId(self.func.locals.len() as u32 - 1)
    }

    pub fn checkpoint(&self) -> Checkpoint {
        Checkpoint {
            locals: self.func.locals.len(),
            locs: self.func.num_locs,
            edges: self.func.edges.len(),
        }
    }

    pub fn rollback(&mut self, cp: Checkpoint) {
        self.func.locals.truncate(cp.locals);
        self.func.num_locs = cp.locs;
        self.func.edges.truncate(cp.edges);
    }

    /// Edges `from -> L1 -> ... -> to` carrying `ops` in order; returns their ids.
    pub fn chain(&mut self, from: Loc, ops: Vec<Op>, to: Loc, span: Span) -> Vec<EdgeId> {
        let mut ids = Vec::new();
        let mut at = from;
        let n = ops.len();
        for (i, op) in ops.into_iter().enumerate() {
            let next = if i + 1 == n { to } else { self.func.new_loc() };
            ids.push(self.func.add_edge(at, next, op, span));
            at = next;
        }
        ids
    }

    pub fn local_name(&self, l: LocalId) -> &str {
        &self.func.locals[l.index()].name
    }

    pub fn var_name(&self, v: VarRef) -> String {
        match v {
            VarRef::Local(l) => format!("%{}", self.local_name(l)),
            VarRef::Global(g) => format!("${}", self.program.globals[g.index()].name),
        }
    }
}

impl TypeEnv for FnBuilder<'_> {
    fn var_ty(&self, v: VarRef) -> Ty {
        match v {
            VarRef::Local(l) => self.func.locals[l.index()].ty,
            VarRef::Global(g) => self.program.globals[g.index()].ty,
        }
    }

    fn pointer_ty(&self) -> Ty {
        self.program.pointer_ty()
    }
}
