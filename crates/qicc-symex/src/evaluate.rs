//! Concrete evaluation of calls (for open-call engines: Corral).
//!
//! A call whose callee touches no memory (`qicc_analysis::modset::ModSet::touches_memory`),
//! whose arguments and read globals (`ModSet::reads`) are constants in the symbolic state,
//! and that makes no nondeterministic choice, has exactly one result: the interpreter, the
//! reference semantics, computes it. Symex then continues after the call with the result as
//! constants instead of leaving the call open; nothing is summarised or blocked, so the call
//! needs no inlining and no query. This is what makes a recursion such as `fib(20)` (about
//! 22,000 calls) one step for stratified inlining instead of 22,000.
//!
//! The evaluation accepts only a run that returns, read no uninitialised value and did not
//! overflow a signed integer; every other run (an error, a halt, a blocked assumption, a
//! question to the oracle — the oracle here refuses all of them —, the step limit) leaves
//! the call open as before. So the continuation's state is the one the interpreter's run
//! of the call reaches, and a counterexample through the call replays with no oracle answer
//! from inside it.

use qicc_analysis::modset::ModSet;
use qicc_engine::Budget;
use qicc_interp::{
    AllocRequest, HavocRequest, Interpreter, Oracle, Outcome, RunConfig, StopCheck,
};
use qicc_ir::{EdgeId, FuncId, GlobalId, Program};
use std::cell::RefCell;
use std::collections::HashMap;

/// Steps one evaluation may take before the call is left open instead.
const MAX_EVAL_STEPS: u64 = 5_000_000;

/// The result of an evaluated call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Evaluated {
    /// The callee's return value (its `ret` local), if it has one.
    pub ret: Option<u64>,
    /// The globals of the callee's mod-set after the call.
    pub globals: Vec<(GlobalId, u64)>,
    /// Interpreter steps the call takes (a replay through it takes as many).
    pub steps: u64,
}

/// Evaluates calls of one program; remembers every evaluation (by callee, arguments and the
/// values of the globals it reads), so a call made again with the same inputs costs nothing.
pub struct CallEvaluator<'p> {
    interp: Interpreter<'p>,
    memo: RefCell<HashMap<(FuncId, Vec<u64>, Vec<u64>), Option<Evaluated>>>,
}

impl<'p> CallEvaluator<'p> {
    /// `None` when the interpreter does not accept the program (then no call is evaluated).
    pub fn new(p: &'p Program) -> Option<CallEvaluator<'p>> {
        Some(CallEvaluator {
            interp: Interpreter::new(p).ok()?,
            memo: RefCell::new(HashMap::new()),
        })
    }

    /// The one result of calling `callee` with `args` when the globals are `globals`
    /// (`None` for a global whose value is not a constant), if the call can be evaluated (see
    /// the module docs).
    pub fn evaluate(
        &self,
        callee: FuncId,
        modset: &ModSet,
        args: &[Option<u64>],
        globals: &[Option<u64>],
        budget: &Budget,
    ) -> Option<Evaluated> {
        if modset.touches_memory {
            return None;
        }
        let args: Vec<u64> = args.iter().copied().collect::<Option<_>>()?;
        let read: Vec<u64> = modset
            .reads
            .iter()
            .map(|g| globals.get(g.index()).copied().flatten())
            .collect::<Option<_>>()?;
        let key = (callee, args, read);
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        // Globals the callee does not read are never seen by the run: any value will do.
        let start: Vec<u64> = globals.iter().map(|g| g.unwrap_or(0)).collect();
        let config = RunConfig {
            max_steps: MAX_EVAL_STEPS,
            deadline: budget.deadline,
            stop: Some(StopCheck::new(budget.stop_fn())),
            ..RunConfig::default()
        };
        let run = self
            .interp
            .call(callee, &key.1, &start, &mut Refuse, &config);
        let result = match run.outcome {
            Outcome::Returned { value } if run.clean => Some(Evaluated {
                ret: value,
                globals: modset
                    .globals
                    .iter()
                    .map(|g| (*g, run.globals[g.index()]))
                    .collect(),
                steps: run.step_count,
            }),
            _ => None,
        };
        if budget.exhausted().is_some() {
            // The run may have been stopped by the budget, which says nothing about the call.
            return None;
        }
        self.memo.borrow_mut().insert(key, result.clone());
        result
    }
}

/// The oracle of an evaluation: every question means the call is not deterministic.
struct Refuse;

impl Oracle for Refuse {
    fn havoc(&mut self, _: &HavocRequest) -> u64 {
        0
    }
    fn uninit_byte(&mut self, _: u64) -> u8 {
        0
    }
    fn alloc_id(&mut self, _: &AllocRequest) -> Option<u32> {
        None
    }
    fn choose(&mut self, _: FuncId, _: &[EdgeId]) -> usize {
        0
    }
    fn failure(&mut self) -> Option<String> {
        Some("the call asks for a nondeterministic value".into())
    }
}
