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
use qicc_interp::{AllocRequest, HavocRequest, Interpreter, Oracle, Outcome, RunConfig, StopCheck};
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

/// A call's inputs: callee, arguments, values of the globals it reads.
type MemoKey = (FuncId, Vec<u64>, Vec<u64>);

/// Evaluates calls of one program; remembers every evaluation (by callee, arguments and the
/// values of the globals it reads), so a call made again with the same inputs costs nothing.
pub struct CallEvaluator<'p> {
    interp: Interpreter<'p>,
    memo: RefCell<HashMap<MemoKey, Option<Evaluated>>>,
}

impl<'p> CallEvaluator<'p> {
    /// `None` when the interpreter does not accept the program (then no call is evaluated).
    pub fn new(p: &'p Program) -> Option<CallEvaluator<'p>> {
        Some(CallEvaluator {
            interp: Interpreter::new(p).ok()?,
            memo: RefCell::new(HashMap::new()),
        })
    }

    /// The one result of calling `callee` with `args` when `global` gives the globals'
    /// values (`None`: not a constant), if the call can be evaluated (see the module docs).
    /// Only the globals the callee reads are asked for.
    pub fn evaluate(
        &self,
        callee: FuncId,
        modset: &ModSet,
        args: &[Option<u64>],
        global: &dyn Fn(GlobalId) -> Option<u64>,
        budget: &Budget,
    ) -> Option<Evaluated> {
        if modset.touches_memory {
            return None;
        }
        let args: Vec<u64> = args.iter().copied().collect::<Option<_>>()?;
        let read: Vec<u64> = modset
            .reads
            .iter()
            .map(|&g| global(g))
            .collect::<Option<_>>()?;
        let key = (callee, args, read);
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        // Globals the callee does not read are never seen by the run: any value will do.
        let mut start = vec![0; self.interp.program().globals.len()];
        for (g, v) in modset.reads.iter().zip(&key.2) {
            start[g.index()] = *v;
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use qicc_analysis::modset::mod_sets;
    use qicc_ir::parse_program;

    const PROGRAM: &str = "qicc-ir 1
data-model ilp32
global $g: i32
global $h: i32
assertion #0 verifier_assert in @fails \"n != 3\"
entry @main

fn @main() {
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: skip
}

fn @fib(%n) -> %ret {
  local %ret: i32
  local %n: i32
  local %a: i32
  local %b: i32
  locs 9 entry L0 exit L1 err L2 halt L3
  L0 -> L8: assume slt(%n, 2:i32)
  L8 -> L1: %ret := %n
  L0 -> L4: assume sle(2:i32, %n)
  L4 -> L5: %a := call @fib(sub(%n, 1:i32))
  L5 -> L6: %b := call @fib(sub(%n, 2:i32))
  L6 -> L7: $h := add($h, 1:i32)
  L7 -> L1: %ret := add(%a, %b)
}

fn @choice() -> %ret {
  local %ret: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: %ret := 1:i32
  L0 -> L1: %ret := 2:i32
}

fn @nondet() -> %ret {
  local %ret: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: havoc %ret nondet \"__VERIFIER_nondet_int\"
}

fn @overflow(%n) -> %ret {
  local %ret: i32
  local %n: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: nowrap slt(%n, 2147483647:i32)
  L4 -> L1: %ret := add(%n, 1:i32)
}

fn @fails(%n) {
  local %n: i32
  locs 5 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq(%n, 3:i32)
  L4 -> L2: error #0
  L0 -> L1: assume ne(%n, 3:i32)
}

fn @memory(%p) -> %ret {
  local %ret: i32
  local %p: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: %ret := load.i32(%p)
}

fn @reads_g() -> %ret {
  local %ret: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: %ret := $g
}
";

    fn eval(name: &str, args: &[Option<u64>], globals: &[Option<u64>]) -> Option<Evaluated> {
        let p = parse_program(PROGRAM).expect("parses");
        let ev = CallEvaluator::new(&p).expect("interpreter accepts the program");
        let f = p.find_function(name).expect("declared");
        let m = &mod_sets(&p)[f.index()];
        let global = |g: GlobalId| globals.get(g.index()).copied().flatten();
        ev.evaluate(f, m, args, &global, &Budget::unlimited())
    }

    #[test]
    fn deterministic_call_gives_its_result_and_globals() {
        let r = eval("fib", &[Some(10)], &[None, Some(5)]).expect("evaluated");
        assert_eq!(r.ret, Some(55));
        // fib(10) makes 88 calls with n >= 2, each adding one to $h; $g is not read.
        assert_eq!(r.globals, vec![(GlobalId(1), 5 + 88)]);
        assert!(r.steps > 177);
    }

    #[test]
    fn what_is_not_one_result_is_not_evaluated() {
        assert_eq!(
            eval("fib", &[None], &[Some(0), Some(0)]),
            None,
            "argument not constant"
        );
        assert_eq!(
            eval("fib", &[Some(4)], &[Some(0), None]),
            None,
            "read global not constant"
        );
        assert_eq!(eval("choice", &[], &[Some(0), Some(0)]), None, "a choice");
        assert_eq!(
            eval("nondet", &[], &[Some(0), Some(0)]),
            None,
            "a nondet value"
        );
        assert_eq!(
            eval("overflow", &[Some(2147483647)], &[None, None]),
            None,
            "overflow"
        );
        assert_eq!(eval("fails", &[Some(3)], &[None, None]), None, "an error");
        assert_eq!(
            eval("memory", &[Some(0)], &[None, None]),
            None,
            "touches memory"
        );
        assert_eq!(
            eval("reads_g", &[], &[None, Some(1)]),
            None,
            "reads a non-constant global"
        );
        // The same calls with inputs for which they have one result are evaluated.
        assert_eq!(
            eval("overflow", &[Some(1)], &[None, None]).map(|r| r.ret),
            Some(Some(2))
        );
        assert_eq!(
            eval("fails", &[Some(2)], &[None, None]).map(|r| r.ret),
            Some(None)
        );
        assert_eq!(
            eval("reads_g", &[], &[Some(7), None]).map(|r| r.ret),
            Some(Some(7))
        );
    }
}
