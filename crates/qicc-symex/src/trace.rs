//! The record of one symbolic execution that lets a solver model be turned back into a
//! concrete path: a graph of *instances* (one symbolic state at one location of one call,
//! after merging) and *steps* (an edge taken from an instance, with the guard under which it
//! is taken and where it leads).
//!
//! Invariant that path extraction relies on: the guards of the steps leaving one instance
//! are pairwise exclusive (symex makes every branching exclusive, with a choice variable if
//! the edge conditions may overlap), so a model makes at most one of them true — the one the
//! model's execution takes.

use qicc_ir::{AssertionId, EdgeId, FuncId, Loc};
use qicc_smt::TermId;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct InstId(pub u32);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct StepId(pub u32);

#[derive(Clone, Debug)]
pub struct Instance {
    pub func: FuncId,
    pub loc: Loc,
    /// The enabling condition of every outgoing edge (edge order; `true` for non-`assume`
    /// edges, `false` for edges found infeasible), as the interpreter decides which edges
    /// are enabled.
    pub conds: Vec<(EdgeId, TermId)>,
    pub steps: Vec<StepId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The edge's operation, nothing the oracle is asked for.
    Plain,
    /// A `havoc`: the symbol holding the value.
    Havoc(TermId),
    /// An `alloc`: the object number it got (a term of `object-bits` width).
    Alloc(TermId),
    /// A `havoc_bytes`: the array symbol the bytes come from, where they go and how many.
    HavocBytes {
        bytes: TermId,
        dst: TermId,
        len: TermId,
    },
    /// Return from a call: leaves the callee's exit instance for the caller's location after
    /// the call edge `edge`. Not a step of the interpreter.
    Return,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Not merged into an instance (yet, or ever: symex was cut short).
    Pending,
    Instance(InstId),
    Error(AssertionId),
    Halt,
    /// The unwinding stopped here (index into the encoding's cuts).
    Cut(usize),
    /// A call left open (index into the encoding's open calls; see `symex::CallMode`).
    Open(usize),
}

#[derive(Clone, Debug)]
pub struct Step {
    pub func: FuncId,
    pub edge: EdgeId,
    pub guard: TermId,
    pub kind: StepKind,
    pub target: Target,
}

#[derive(Clone, Debug, Default)]
pub struct Trace {
    pub instances: Vec<Instance>,
    pub steps: Vec<Step>,
}

impl Trace {
    pub fn new_instance(&mut self, func: FuncId, loc: Loc, from: &[StepId]) -> InstId {
        let id = InstId(self.instances.len() as u32);
        self.instances.push(Instance {
            func,
            loc,
            conds: Vec::new(),
            steps: Vec::new(),
        });
        for s in from {
            self.steps[s.0 as usize].target = Target::Instance(id);
        }
        id
    }

    pub fn new_step(
        &mut self,
        from: InstId,
        func: FuncId,
        edge: EdgeId,
        guard: TermId,
        kind: StepKind,
    ) -> StepId {
        let id = StepId(self.steps.len() as u32);
        self.steps.push(Step {
            func,
            edge,
            guard,
            kind,
            target: Target::Pending,
        });
        self.instances[from.0 as usize].steps.push(id);
        id
    }

    pub fn set_target(&mut self, step: StepId, target: Target) {
        self.steps[step.0 as usize].target = target;
    }

    pub fn step(&self, id: StepId) -> &Step {
        &self.steps[id.0 as usize]
    }

    pub fn instance(&self, id: InstId) -> &Instance {
        &self.instances[id.0 as usize]
    }
}
