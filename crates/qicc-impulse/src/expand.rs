//! From a counterexample of the instrumented program to one of the original program.
//!
//! The instrumented run (replayed from the engine's witness) is read as a *plan*: its
//! original edges one to one, and every pass through accelerated path `K` with `n = N` as `N`
//! repetitions of `K`'s loop path `π`, whose havocs take the witness values `w` the run chose.
//! Edges the instrumentation added (guards, flags, overlays) are dropped.
//!
//! The original program is then *run* — not replayed from a precomputed witness — with an
//! oracle that follows the plan: havoc values come from the plan entry of the havoc edge being
//! executed, branch choices from the plan entry at the current location, fresh object numbers
//! and uninitialised bytes from the instrumented witness (accelerated paths never allocate,
//! so the allocations correspond one to one). The interpreter's own witness of that run is
//! the result. Whatever the oracle answers, the run is a genuine execution of the original
//! program, so the result is trusted only because the interpreter reaches a property
//! assertion — never because the plan said so.
//!
//! Plans are kept compact (a repetition is one entry), so a path accelerated 2^30 times costs
//! memory in the length of `π`, and time only in the interpreter's steps.

use crate::Acceleration;
use qicc_interp::{
    replay, run, AllocRequest, HavocRequest, Oracle, Outcome, RunConfig, Step, StepKind, StopCheck,
};
use qicc_ir::{AssertionId, EdgeId, FuncId, Program, Witness};
use std::collections::HashMap;
use std::time::Instant;

#[derive(Clone, Debug)]
pub(crate) enum Seg {
    One {
        func: FuncId,
        edge: EdgeId,
        value: Option<u64>,
    },
    Repeat {
        func: FuncId,
        path: Vec<EdgeId>,
        /// Value of each havoc edge of the path (the same in every repetition).
        values: HashMap<EdgeId, u64>,
        count: u64,
    },
}

#[derive(Clone, Copy)]
enum Role {
    Entry(usize),
    Witness(EdgeId),
    Exit,
}

/// Reads the instrumented run's steps as a plan for the original program.
pub(crate) fn plan(
    original: &Program,
    accs: &[Acceleration],
    steps: &[Step],
) -> Result<Vec<Seg>, String> {
    let mut roles: HashMap<(FuncId, EdgeId), Role> = HashMap::new();
    for (k, a) in accs.iter().enumerate() {
        roles.insert((a.func, a.entry_edge), Role::Entry(k));
        for w in &a.witnesses {
            roles.insert((a.func, w.havoc_edge), Role::Witness(w.path_edge));
        }
        roles.insert((a.func, a.exit_edge), Role::Exit);
    }
    let mut segs = Vec::new();
    // The acceleration being traversed: index, n, witness values.
    let mut active: Option<(usize, u64, HashMap<EdgeId, u64>)> = None;
    for s in steps {
        if s.kind == StepKind::Return {
            continue;
        }
        let orig_edges = original
            .functions
            .get(s.func.index())
            .map_or(0, |f| f.edges.len());
        if s.edge.index() < orig_edges {
            if active.is_some() {
                return Err("an original edge inside an accelerated path".into());
            }
            segs.push(Seg::One {
                func: s.func,
                edge: s.edge,
                value: s.input,
            });
            continue;
        }
        match roles.get(&(s.func, s.edge)) {
            Some(Role::Entry(k)) => {
                let n = s.input.ok_or("the iteration count has no recorded value")?;
                active = Some((*k, n, HashMap::new()));
            }
            Some(Role::Witness(pe)) => {
                if let (Some((_, _, vals)), Some(v)) = (active.as_mut(), s.input) {
                    vals.insert(*pe, v);
                }
            }
            Some(Role::Exit) => {
                let (k, n, values) = active
                    .take()
                    .ok_or("an accelerated path ended that never started")?;
                let a = &accs[k];
                if n > 0 {
                    segs.push(Seg::Repeat {
                        func: a.func,
                        path: a.path.clone(),
                        values,
                        count: n,
                    });
                }
            }
            None => {}
        }
    }
    Ok(segs)
}

/// A position in a plan: segment, repetition, offset in the repeated path.
#[derive(Clone, Copy, Debug, Default)]
struct Cursor {
    seg: usize,
    rep: u64,
    off: usize,
}

struct PlanOracle<'a> {
    original: &'a Program,
    segs: &'a [Seg],
    at: Cursor,
    prelude: std::vec::IntoIter<u64>,
    alloc_ids: std::vec::IntoIter<u32>,
    uninit: &'a std::collections::BTreeMap<u64, u8>,
    failure: Option<String>,
}

impl PlanOracle<'_> {
    /// The first plan entry at or after the cursor that satisfies `pred`, with its cursor.
    /// Looks at most one repetition ahead inside a repeated path (the path is the same in
    /// every repetition, so a later match would have matched earlier).
    fn find(
        &self,
        pred: &dyn Fn(FuncId, EdgeId) -> bool,
    ) -> Option<(Cursor, FuncId, EdgeId, Option<u64>)> {
        let mut c = self.at;
        while let Some(seg) = self.segs.get(c.seg) {
            match seg {
                Seg::One { func, edge, value } => {
                    if pred(*func, *edge) {
                        return Some((c, *func, *edge, *value));
                    }
                }
                Seg::Repeat {
                    func,
                    path,
                    values,
                    count,
                } => {
                    let hit = |off: usize, e: EdgeId| {
                        pred(*func, e).then(|| (off, e, values.get(&e).copied()))
                    };
                    let here = path.iter().enumerate().skip(c.off);
                    if let Some((off, e, v)) = here.filter_map(|(o, e)| hit(o, *e)).next() {
                        return Some((Cursor { off, ..c }, *func, e, v));
                    }
                    if c.rep + 1 < *count {
                        let next = path.iter().enumerate().take(c.off);
                        if let Some((off, e, v)) = next.filter_map(|(o, e)| hit(o, *e)).next() {
                            let cur = Cursor {
                                seg: c.seg,
                                rep: c.rep + 1,
                                off,
                            };
                            return Some((cur, *func, e, v));
                        }
                    }
                }
            }
            c = Cursor {
                seg: c.seg + 1,
                rep: 0,
                off: 0,
            };
        }
        None
    }

    /// The cursor just after `c`.
    fn after(&self, c: Cursor) -> Cursor {
        match self.segs.get(c.seg) {
            Some(Seg::Repeat { path, count, .. }) => {
                if c.off + 1 < path.len() {
                    Cursor {
                        off: c.off + 1,
                        ..c
                    }
                } else if c.rep + 1 < *count {
                    Cursor {
                        seg: c.seg,
                        rep: c.rep + 1,
                        off: 0,
                    }
                } else {
                    Cursor {
                        seg: c.seg + 1,
                        rep: 0,
                        off: 0,
                    }
                }
            }
            _ => Cursor {
                seg: c.seg + 1,
                rep: 0,
                off: 0,
            },
        }
    }

    fn fail(&mut self, why: String) {
        if self.failure.is_none() {
            self.failure = Some(why);
        }
    }
}

impl Oracle for PlanOracle<'_> {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        let Some((func, edge)) = req.site else {
            return match self.prelude.next() {
                Some(v) => v,
                None => {
                    self.fail("the counterexample has too few initial values".into());
                    0
                }
            };
        };
        match self.find(&|f, e| f == func && e == edge) {
            Some((c, _, _, value)) => {
                self.at = self.after(c);
                match value {
                    Some(v) => v,
                    None => {
                        self.fail(format!("no value for the havoc on edge {edge}"));
                        0
                    }
                }
            }
            None => {
                self.fail(format!(
                    "the run left the counterexample at the havoc on edge {edge}"
                ));
                0
            }
        }
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.uninit.get(&addr).copied().unwrap_or(0)
    }

    fn alloc_id(&mut self, _req: &AllocRequest) -> Option<u32> {
        self.alloc_ids.next()
    }

    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        let f = self.original.function(func);
        let Some(from) = enabled.first().map(|e| f.edge(*e).from) else {
            return 0;
        };
        match self.find(&|g, e| g == func && f.edges.get(e.index()).is_some_and(|x| x.from == from))
        {
            Some((c, _, edge, _)) => match enabled.iter().position(|e| *e == edge) {
                Some(i) => {
                    self.at = self.after(c);
                    i
                }
                None => {
                    self.fail(format!(
                        "the counterexample takes edge {edge}, which is disabled"
                    ));
                    0
                }
            },
            None => {
                self.fail(format!("the run left the counterexample at {from}"));
                0
            }
        }
    }

    fn failure(&mut self) -> Option<String> {
        self.failure.clone()
    }
}

/// How many havocs the interpreter asks before the first edge.
fn prelude_len(p: &Program) -> usize {
    let globals = p.globals.iter().filter(|g| g.init.is_none()).count();
    let params = p
        .functions
        .get(p.entry.index())
        .map_or(0, |f| f.params.len());
    globals + params
}

/// Limits of the runs expansion makes.
pub(crate) struct Limits {
    pub max_steps: u64,
    pub deadline: Option<Instant>,
    /// The caller's cancellation (a conclusive answer elsewhere, Ctrl-C): expanded runs can
    /// take millions of steps.
    pub stop: StopCheck,
}

/// A counterexample of the instrumented program read as a plan for the original.
pub(crate) struct Expansion {
    segs: Vec<Seg>,
    /// Loop iterations the accelerated paths stand for, in total.
    pub iterations: u64,
    /// The largest iteration count of one accelerated path.
    pub max_n: u64,
    /// Interpreter steps the accelerated paths stand for (iterations times path length).
    pub steps: u64,
}

/// Replays `witness` on the instrumented program `instrumented` (whose accelerated paths are
/// `accs`) and reads the plan.
pub(crate) fn read(
    original: &Program,
    instrumented: &Program,
    accs: &[Acceleration],
    witness: &Witness,
    limits: &Limits,
) -> Result<Expansion, String> {
    let config = RunConfig {
        max_steps: limits.max_steps,
        max_call_depth: RunConfig::default().max_call_depth,
        record_trace: true,
        deadline: limits.deadline,
        stop: Some(limits.stop.clone()),
    };
    let inst_run = replay(instrumented, witness, &config);
    if !matches!(inst_run.outcome, Outcome::ErrorReached { .. }) {
        return Err(format!(
            "the instrumented program's witness does not replay ({})",
            inst_run.outcome
        ));
    }
    let segs = plan(original, accs, &inst_run.steps)?;
    let (mut iterations, mut max_n, mut steps) = (0u64, 0u64, 0u64);
    for s in &segs {
        if let Seg::Repeat { count, path, .. } = s {
            iterations = iterations.saturating_add(*count);
            max_n = max_n.max(*count);
            steps = steps.saturating_add(count.saturating_mul(path.len() as u64));
        }
    }
    Ok(Expansion {
        segs,
        iterations,
        max_n,
        steps,
    })
}

/// Runs the original program along the plan; the result is the run's own witness if it
/// reaches a property assertion. The run *is* the replay on the original program: every
/// answer the oracle gave is recorded by the interpreter as it is used, so the witness
/// replays to the same end (the interpreter's contract; the driver replays it again).
pub(crate) fn run_plan(
    original: &Program,
    expansion: &Expansion,
    witness: &Witness,
    limits: &Limits,
) -> Result<(AssertionId, Witness), String> {
    let k = prelude_len(original);
    let prelude: Vec<u64> = witness.havocs.iter().take(k).copied().collect();
    let mut oracle = PlanOracle {
        original,
        segs: &expansion.segs,
        at: Cursor::default(),
        prelude: prelude.into_iter(),
        alloc_ids: witness.alloc_ids.clone().into_iter(),
        uninit: &witness.uninit,
        failure: None,
    };
    let config = RunConfig {
        max_steps: limits.max_steps,
        max_call_depth: RunConfig::default().max_call_depth,
        record_trace: false,
        deadline: limits.deadline,
        stop: Some(limits.stop.clone()),
    };
    let r = run(original, &mut oracle, &config);
    let Outcome::ErrorReached { assertion } = r.outcome else {
        return Err(format!("the expanded run {}", r.outcome));
    };
    let is_property = original
        .assertions
        .get(assertion.index())
        .is_some_and(|a| a.kind.is_property());
    if !is_property {
        return Err(format!(
            "the expanded run reaches {assertion}, which is not a property assertion"
        ));
    }
    Ok((assertion, r.witness))
}
