//! From a solver model to a replayed counterexample.
//!
//! The model's execution is read off the symbolic execution's trace graph: from the root
//! instance, follow the one step whose guard the model makes true (steps leaving an instance
//! are exclusive) until an error step. Along the way it collects what the interpreter will
//! ask its oracle, in the interpreter's order: havoc values (the prelude of globals and entry
//! parameters, then each `havoc` edge), object numbers of allocations, and the choice among
//! enabled edges wherever the model's state enables two or more. Never-written bytes are the
//! model's values of the memory model's `free0` array, asked on demand.
//!
//! The run of `qicc_interp` on those answers is the judge: only if it reaches an error edge
//! of a property assertion is the violation reported, with the witness the run recorded.
//! Any divergence (the run asks for something the plan does not have, or ends elsewhere) is
//! an encoding bug and is reported as such, never as a violation.

use crate::memory::MemModel;
use crate::symex::Encoding;
use crate::trace::{Instance, Step, StepKind, Target};
use qicc_engine::Budget;
use qicc_interp::{AllocRequest, HavocBytesRequest, HavocRequest, Oracle, Outcome, RunConfig};
use qicc_ir::{AssertionId, EdgeId, FuncId, Program, Witness};
use qicc_smt::{Solver, TermId, TermStore};

/// Longest `havoc_bytes` whose bytes a counterexample reads off the model.
const MAX_REPLAY_BYTES: u64 = 1 << 24;

/// The replayed counterexample of the solver's current model of `enc`: the violated property
/// assertion, the run's witness and whether it overflowed a signed integer on the way; or why
/// the model does not replay.
pub fn replay_model(
    p: &Program,
    enc: &Encoding,
    mm: &MemModel,
    s: &mut TermStore,
    solver: &mut dyn Solver,
    budget: &Budget,
) -> Result<(AssertionId, Witness, bool), String> {
    let mut plan = extract_plan(enc, &mut |t| solver.value(s, t).map(|v| v.as_u64()))?;
    let free0 = mm.free0;
    let ptr_w = mm.ptr_w;
    for &(_, _, bytes, d, n) in &plan.byte_havocs {
        if n > MAX_REPLAY_BYTES {
            return Err(format!("havoc_bytes of {n} bytes is too long to replay"));
        }
        let vals = (0..n)
            .map(|i| {
                let a = s.bv_const(ptr_w, d.wrapping_add(i));
                let t = s.select(bytes, a);
                solver.value(s, t).map(|v| v.as_u64() as u8).unwrap_or(0)
            })
            .collect();
        plan.byte_values.push(vals);
    }
    let mut uninit = |addr: u64| -> u8 {
        let a = s.bv_const(ptr_w, addr);
        let t = s.select(free0, a);
        solver.value(s, t).map(|v| v.as_u64() as u8).unwrap_or(0)
    };
    let config = RunConfig {
        max_steps: (plan.steps as u64)
            .saturating_mul(4)
            .saturating_add(1_000_000)
            .saturating_add(enc.evaluated_steps),
        deadline: budget.deadline,
        stop: Some(qicc_interp::StopCheck::new(budget.stop_fn())),
        ..RunConfig::default()
    };
    replay(p, &plan, &mut uninit, &config)
}

/// The oracle answers of one model's execution.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    havocs: Vec<(Option<(FuncId, EdgeId)>, u64)>,
    allocs: Vec<(FuncId, EdgeId, u32)>,
    choices: Vec<(FuncId, Vec<EdgeId>, usize)>,
    /// The `havoc_bytes` on the path: site, the array symbol, address and length in the model.
    pub byte_havocs: Vec<(FuncId, EdgeId, TermId, u64, u64)>,
    /// Their bytes, read off the model by the engine (which can build `select` terms).
    pub byte_values: Vec<Vec<u8>>,
    pub assertion: Option<AssertionId>,
    pub steps: usize,
}

/// Follows the model's path through the trace from the root: calls `on_step` with each step
/// taken (and the instance it leaves), and returns where the path ends (never an instance).
fn follow(
    enc: &Encoding,
    value: &mut dyn FnMut(TermId) -> Option<u64>,
    on_step: &mut dyn FnMut(
        &Instance,
        &Step,
        &mut dyn FnMut(TermId) -> Option<u64>,
    ) -> Result<(), String>,
) -> Result<Target, String> {
    let trace = &enc.trace;
    if trace.instances.is_empty() {
        return Err("empty trace".into());
    }
    let mut cur = enc.root;
    // Each step is taken at most once on a path of the unwound program.
    for _ in 0..=trace.steps.len() {
        let inst = trace.instance(cur);
        let mut chosen = None;
        for &sid in &inst.steps {
            let g = trace.step(sid).guard;
            if value(g).ok_or("no model value for a guard")? == 1 {
                if chosen.is_some() {
                    return Err(format!(
                        "two branches taken at {} of function {}",
                        inst.loc, inst.func
                    ));
                }
                chosen = Some(sid);
            }
        }
        let sid = chosen.ok_or_else(|| {
            format!(
                "the model's path stops at {} of function {}",
                inst.loc, inst.func
            )
        })?;
        let step = trace.step(sid);
        on_step(inst, step, value)?;
        match step.target {
            Target::Instance(next) => cur = next,
            end => return Ok(end),
        }
    }
    Err("the model's path does not end".into())
}

/// The first open call (index into `enc.opens`) the model's path makes, if it makes one
/// before it ends.
pub fn first_open_call(
    enc: &Encoding,
    value: &mut dyn FnMut(TermId) -> Option<u64>,
) -> Result<Option<usize>, String> {
    match follow(enc, value, &mut |_, _, _| Ok(()))? {
        Target::Open(id) => Ok(Some(id)),
        _ => Ok(None),
    }
}

/// Follows the model through the trace; `value` gives model values (Bools as 0/1).
pub fn extract_plan(
    enc: &Encoding,
    value: &mut dyn FnMut(TermId) -> Option<u64>,
) -> Result<Plan, String> {
    let mut plan = Plan::default();
    for &t in &enc.prelude {
        let v = value(t).ok_or("no model value for an initial havoc")?;
        plan.havocs.push((None, v));
    }
    let end = follow(enc, value, &mut |inst, step, value| {
        plan.steps += 1;
        if step.kind != StepKind::Return {
            let mut enabled = Vec::new();
            for &(e, c) in &inst.conds {
                if value(c).ok_or("no model value for an edge condition")? == 1 {
                    enabled.push(e);
                }
            }
            if enabled.len() >= 2 {
                let idx = enabled
                    .iter()
                    .position(|&e| e == step.edge)
                    .ok_or("the model takes an edge whose condition is false")?;
                plan.choices.push((inst.func, enabled, idx));
            }
        }
        match step.kind {
            StepKind::Havoc(sym) => {
                let v = value(sym).ok_or("no model value for a havoc")?;
                plan.havocs.push((Some((step.func, step.edge)), v));
            }
            StepKind::Alloc(n) => {
                let n = value(n).ok_or("no model value for an object number")?;
                plan.allocs.push((step.func, step.edge, n as u32));
            }
            StepKind::HavocBytes { bytes, dst, len } => {
                let d = value(dst).ok_or("no model value for a havoc_bytes address")?;
                let n = value(len).ok_or("no model value for a havoc_bytes length")?;
                plan.byte_havocs.push((step.func, step.edge, bytes, d, n));
            }
            StepKind::Plain | StepKind::Return => {}
        }
        Ok(())
    })?;
    match end {
        Target::Error(a) => {
            plan.assertion = Some(a);
            Ok(plan)
        }
        Target::Halt => Err("the model's path halts".into()),
        Target::Cut(_) => Err("the model's path leaves the unwinding".into()),
        Target::Open(_) => Err("the model's path enters a call not inlined".into()),
        Target::Pending => Err("the model's path leads nowhere".into()),
        Target::Instance(_) => Err("internal error: a path ends at an instance".into()),
    }
}

struct PlanOracle<'a> {
    plan: &'a Plan,
    havoc: usize,
    alloc: usize,
    choice: usize,
    uninit: &'a mut dyn FnMut(u64) -> u8,
    failure: Option<String>,
}

impl PlanOracle<'_> {
    fn fail(&mut self, msg: String) {
        if self.failure.is_none() {
            self.failure = Some(msg);
        }
    }
}

impl Oracle for PlanOracle<'_> {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        match self.plan.havocs.get(self.havoc) {
            Some((site, v)) if *site == req.site => {
                self.havoc += 1;
                *v
            }
            other => {
                let msg = format!(
                    "the run's havoc #{} at {:?} does not match the counterexample's {:?}",
                    req.index,
                    req.site,
                    other.map(|(s, _)| s)
                );
                self.fail(msg);
                0
            }
        }
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        (self.uninit)(addr)
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        match self.plan.byte_havocs.get(req.index) {
            Some(&(f, e, ..)) if f == req.func && e == req.edge => self
                .plan
                .byte_values
                .get(req.index)
                .cloned()
                .unwrap_or_default(),
            other => {
                let msg = format!(
                    "the run's havoc_bytes #{} at {:?} does not match the counterexample's {:?}",
                    req.index,
                    (req.func, req.edge),
                    other.map(|h| (h.0, h.1))
                );
                self.fail(msg);
                Vec::new()
            }
        }
    }

    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        match self.plan.allocs.get(self.alloc) {
            Some(&(f, e, n)) if f == req.func && e == req.edge => {
                self.alloc += 1;
                Some(n)
            }
            other => {
                let msg = format!(
                    "the run's allocation #{} at {:?} does not match the counterexample's {other:?}",
                    req.index,
                    (req.func, req.edge)
                );
                self.fail(msg);
                None
            }
        }
    }

    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        match self.plan.choices.get(self.choice) {
            Some((f, en, i)) if *f == func && en.as_slice() == enabled => {
                self.choice += 1;
                *i
            }
            other => {
                let msg = format!(
                    "the run's choice among {enabled:?} in {func} does not match the counterexample's {other:?}"
                );
                self.fail(msg);
                0
            }
        }
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.clone()
    }
}

/// Runs the program on the plan's answers; the violated property assertion (or the
/// undefined-behaviour check the plan's path ends at: a search for reachable undefined
/// behaviour), the run's witness and whether the run overflowed a signed integer on the way
/// (C leaves such a run undefined), or why the counterexample does not replay.
pub fn replay(
    p: &Program,
    plan: &Plan,
    uninit: &mut dyn FnMut(u64) -> u8,
    config: &RunConfig,
) -> Result<(AssertionId, Witness, bool), String> {
    let mut oracle = PlanOracle {
        plan,
        havoc: 0,
        alloc: 0,
        choice: 0,
        uninit,
        failure: None,
    };
    let run = qicc_interp::run(p, &mut oracle, config);
    match run.outcome {
        Outcome::ErrorReached { assertion } => {
            let is_property = p
                .assertions
                .get(assertion.index())
                .is_some_and(|a| a.kind.is_property());
            if is_property || plan.assertion == Some(assertion) {
                Ok((assertion, run.witness, run.signed_overflow.is_some()))
            } else {
                Err(format!(
                    "the run reaches undefined-behaviour check {assertion} instead"
                ))
            }
        }
        // The engines' condition for a leak (a heap object is live at the end) is wider than
        // a leak: the interpreter blocks where every such object is still reachable.
        Outcome::Blocked { .. } if run.outcome.ended_without_leak(p) => Err(LEAK_NOT_SHOWN.into()),
        other => Err(format!("the run ends with: {other}")),
    }
}

/// Why a candidate leak is no counterexample (see [`replay`]).
pub const LEAK_NOT_SHOWN: &str = "a heap object is still allocated where the program ends, but reachable from a global (no leak: valid-memtrack is proven only where every heap object is freed by then)";
