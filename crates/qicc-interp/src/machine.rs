//! The run loop: frames, edges, operations, and the record of a run.
//!
//! A run starts with the globals (initialiser, or an `uninit` havoc without one, in global
//! order), then the entry function's parameters (`uninit` havocs, in order), and takes one
//! edge per step: at the current location of the innermost frame the enabled edges are those
//! whose operation can execute (an `assume` whose condition holds; every other operation),
//! evaluated in edge order; none enabled blocks the run, one is taken, and between several
//! the oracle chooses. Entering the function's `exit` returns to the caller (the callee's
//! `ret` local goes to the call's destination); `error #k` and `halt` end the run.
//!
//! Every oracle answer is recorded in the run's [`Witness`] as it is used, so a run replays
//! exactly through [`crate::replay`]. The program was checked when its [`Interpreter`] was
//! made, so indexing by its variable, edge and function ids cannot fail.

use crate::exec::Interpreter;
use crate::init::StaticImage;
use crate::memory::{Memory, CLEAN, TAINTED};
use crate::oracle::{AllocRequest, HavocBytesRequest, HavocRequest, Oracle};
use crate::run::{CallRun, Outcome, Run, RunConfig, Step, StepKind};
use qicc_ir::{
    EdgeId, FuncId, Function, HavocKind, Loc, Op, Program, Ty, TypeEnv, VarRef, Witness,
};
use std::time::Instant;

/// An activation of a function.
struct Frame {
    func: FuncId,
    loc: Loc,
    /// Index of the function's first local in `Machine::locals`.
    base: usize,
    /// The call edge in the caller that created this frame, and its destination.
    call: Option<(EdgeId, Option<VarRef>)>,
}

/// The state of one run.
pub(crate) struct Machine<'i, 'o> {
    pub(crate) program: &'i Program,
    interp: &'i Interpreter<'i>,
    pub(crate) statics: &'i StaticImage,
    pub(crate) oracle: &'o mut dyn Oracle,
    config: &'o RunConfig,
    pub(crate) pointer_ty: Ty,
    pub(crate) mem: Memory,
    pub(crate) globals: Vec<u64>,
    pub(crate) global_taint: Vec<bool>,
    /// The locals of all frames, each frame's from its `base`.
    pub(crate) locals: Vec<u64>,
    pub(crate) local_taint: Vec<bool>,
    frames: Vec<Frame>,
    pub(crate) witness: Witness,
    steps: Vec<Step>,
    /// Recording window: keep the first `.0` steps and the last `.1` (see [`Machine::windowed`]).
    window: Option<(usize, usize)>,
    tail: std::collections::VecDeque<Step>,
    omitted: u64,
    step_count: u64,
    pub(crate) read_uninit: bool,
    /// The first `nowrap` whose condition failed.
    pub(crate) signed_overflow: Option<(FuncId, EdgeId)>,
    /// The oracle was asked for a byte during the current step (check its `failure`).
    pub(crate) asked_oracle: bool,
    /// Reused buffers: call arguments, bytes of a `memcpy`.
    scratch: Vec<u64>,
    copy_buf: Vec<(u8, u8)>,
    /// Counts the changes of a global variable's value (for `pure` results, as
    /// `Memory::version` for the bytes).
    globals_version: u64,
    /// The results of `const`/`pure` body-less functions so far (`HavocKind::Applied`): by
    /// name, argument values and, for `pure`, the versions of globals and memory.
    applied: std::collections::HashMap<(String, Vec<u64>, Option<(u64, u64)>), u64>,
}

/// What executing an edge did to control.
enum Next {
    Continue,
    Stop(Outcome),
}

static UNINIT: HavocKind = HavocKind::Uninit;

impl<'i, 'o> Machine<'i, 'o> {
    pub(crate) fn new(
        interp: &'i Interpreter<'i>,
        oracle: &'o mut dyn Oracle,
        config: &'o RunConfig,
    ) -> Machine<'i, 'o> {
        let program = interp.program;
        Machine {
            program,
            interp,
            statics: &interp.statics,
            oracle,
            config,
            pointer_ty: program.pointer_ty(),
            mem: Memory::new(program),
            globals: vec![0; program.globals.len()],
            global_taint: vec![false; program.globals.len()],
            locals: Vec::new(),
            local_taint: Vec::new(),
            frames: Vec::new(),
            witness: Witness::default(),
            steps: Vec::new(),
            window: None,
            tail: std::collections::VecDeque::new(),
            omitted: 0,
            step_count: 0,
            read_uninit: false,
            signed_overflow: None,
            asked_oracle: false,
            scratch: Vec::new(),
            copy_buf: Vec::new(),
            globals_version: 0,
            applied: std::collections::HashMap::new(),
        }
    }

    /// Records only the first `head` and the last `tail` steps (runs of 10^8 steps, as
    /// accelerated counterexamples expand to, cannot keep every step in memory).
    pub(crate) fn windowed(mut self, head: usize, tail: usize) -> Self {
        self.window = Some((head, tail));
        self
    }

    /// Runs with a recording window: the run, and where and how many steps were left out.
    pub(crate) fn run_windowed(mut self) -> (Run, usize, u64) {
        let outcome = self.execute();
        let cut = self.steps.len();
        let omitted = self.omitted;
        let mut steps = self.steps;
        steps.extend(self.tail);
        let run = Run {
            outcome,
            witness: self.witness,
            steps,
            step_count: self.step_count,
            read_uninit: self.read_uninit,
            signed_overflow: self.signed_overflow,
        };
        (run, cut, omitted)
    }

    fn record(&mut self, step: Step) {
        match self.window {
            None => self.steps.push(step),
            Some((head, _)) if self.steps.len() < head => self.steps.push(step),
            Some((_, tail)) => {
                if self.tail.len() >= tail {
                    self.tail.pop_front();
                    self.omitted += 1;
                }
                if tail > 0 {
                    self.tail.push_back(step);
                } else {
                    self.omitted += 1;
                }
            }
        }
    }

    /// Runs the program to its end and returns the record and the globals then.
    pub(crate) fn run_with_globals(mut self) -> (Run, Vec<u64>) {
        let outcome = self.execute();
        let run = Run {
            outcome,
            witness: self.witness,
            steps: self.steps,
            step_count: self.step_count,
            read_uninit: self.read_uninit,
            signed_overflow: self.signed_overflow,
        };
        (run, self.globals)
    }

    /// Runs the program to its end and returns the record.
    pub(crate) fn run(self) -> Run {
        self.run_with_globals().0
    }
}

impl<'i> Machine<'i, '_> {
    /// Runs one activation of `func` with the given arguments and globals (memory as at the
    /// program's start) to its end: the outcome, the globals then, and whether no value read
    /// was uninitialised and no signed operation overflowed on the way.
    pub(crate) fn call(mut self, func: FuncId, args: &[u64], globals: &[u64]) -> CallRun {
        self.globals.copy_from_slice(globals);
        self.push_frame(func, None);
        let f = self.program.function(func);
        for (p, &v) in f.params.iter().zip(args) {
            // The frame's locals start at 0.
            self.locals[p.index()] = v & f.local(*p).ty.mask();
        }
        let outcome = self.execute_from_start();
        CallRun {
            outcome,
            clean: !self.read_uninit && self.signed_overflow.is_none(),
            globals: self.globals,
            step_count: self.step_count,
        }
    }

    fn execute(&mut self) -> Outcome {
        if let Err(outcome) = self.start() {
            return outcome;
        }
        self.execute_from_start()
    }

    /// The run loop, from the innermost frame's current location.
    fn execute_from_start(&mut self) -> Outcome {
        let program = self.program;
        let mut enabled: Vec<EdgeId> = Vec::new();
        loop {
            if self.step_count >= self.config.max_steps {
                return Outcome::StepLimit;
            }
            if self.step_count & 1023 == 0 {
                if let Some(d) = self.config.deadline {
                    if Instant::now() >= d {
                        return Outcome::Unreplayable("deadline passed".into());
                    }
                }
                if self.config.stop.as_ref().is_some_and(|s| s.should_stop()) {
                    return Outcome::Unreplayable("stopped".into());
                }
            }
            let frame = self
                .frames
                .last()
                .expect("a run stops when its last frame returns");
            let (fid, loc, base) = (frame.func, frame.loc, frame.base);
            let eid = match self.pick_edge(fid, loc, base, &mut enabled) {
                Ok(e) => e,
                Err(outcome) => return outcome,
            };
            self.step_count += 1;
            if let Next::Stop(outcome) = self.take(fid, eid, base) {
                return outcome;
            }
            if self.asked_oracle {
                if let Some(why) = self.oracle_failure() {
                    return Outcome::Unreplayable(why);
                }
            }
            // Returns are not steps: unwind every frame that reached its exit.
            loop {
                let top = self
                    .frames
                    .last()
                    .expect("frames remain until the entry returns");
                if top.loc != program.function(top.func).exit {
                    break;
                }
                if let Some(outcome) = self.return_from_top() {
                    return outcome;
                }
            }
        }
    }

    /// Initial values of globals without initialiser, then the entry frame with its
    /// parameters, all from `uninit` havocs.
    fn start(&mut self) -> Result<(), Outcome> {
        let program = self.program;
        for (i, g) in program.globals.iter().enumerate() {
            match self.interp.global_inits[i] {
                Some(v) => self.globals[i] = v,
                None => {
                    let var = VarRef::Global(qicc_ir::GlobalId(i as u32));
                    let v = self
                        .ask_havoc(None, var, g.ty, &UNINIT)
                        .map_err(Outcome::Unreplayable)?;
                    self.globals[i] = v;
                    self.global_taint[i] = true;
                }
            }
        }
        let entry = program.entry;
        let f = program.function(entry);
        self.push_frame(entry, None);
        for p in &f.params {
            let v = self
                .ask_havoc(None, VarRef::Local(*p), f.local(*p).ty, &UNINIT)
                .map_err(Outcome::Unreplayable)?;
            // The entry frame's locals start at 0.
            self.locals[p.index()] = v;
            self.local_taint[p.index()] = true;
        }
        Ok(())
    }

    /// The edge to take at `loc` of the innermost frame: the only enabled one, or the
    /// oracle's choice among several. `enabled` is scratch space.
    fn pick_edge(
        &mut self,
        fid: FuncId,
        loc: Loc,
        base: usize,
        enabled: &mut Vec<EdgeId>,
    ) -> Result<EdgeId, Outcome> {
        let f: &'i Function = self.program.function(fid);
        let interp: &'i Interpreter<'i> = self.interp;
        let succ = interp.successors[fid.index()].of(loc);
        if let [only] = succ {
            if !matches!(f.edge(*only).op, Op::Assume(_)) {
                return Ok(*only);
            }
        }
        enabled.clear();
        for &e in succ {
            let on = match &f.edge(e).op {
                Op::Assume(c) => self.eval(c, f, base).0 != 0,
                _ => true,
            };
            if on {
                enabled.push(e);
            }
        }
        if self.asked_oracle {
            if let Some(why) = self.oracle_failure() {
                return Err(Outcome::Unreplayable(why));
            }
        }
        match enabled.len() {
            0 => Err(Outcome::Blocked { func: fid, loc }),
            1 => Ok(enabled[0]),
            n => {
                let c = self.oracle.choose(fid, enabled);
                if let Some(why) = self.oracle.failure() {
                    return Err(Outcome::Unreplayable(why));
                }
                if c >= n {
                    return Err(Outcome::Unreplayable(format!(
                        "the oracle chose edge {c} of {n} enabled edges"
                    )));
                }
                self.witness.choices.push(c as u32);
                Ok(enabled[c])
            }
        }
    }

    fn oracle_failure(&mut self) -> Option<String> {
        self.asked_oracle = false;
        self.oracle.failure()
    }

    fn push_frame(&mut self, func: FuncId, call: Option<(EdgeId, Option<VarRef>)>) {
        let f = self.program.function(func);
        let base = self.locals.len();
        self.locals.resize(base + f.locals.len(), 0);
        self.local_taint.resize(base + f.locals.len(), false);
        self.frames.push(Frame {
            func,
            loc: f.entry,
            base,
            call,
        });
    }

    /// The live heap objects no root reaches; with `frames`, every frame's locals and objects
    /// are roots too (the program ends by `exit` or `abort`).
    fn lost_heap_objects(&self, frames: bool) -> Vec<u32> {
        let table = &self.mem.table;
        let statics = 1..=self.program.objects.len() as u32;
        let mut root_objects: Vec<u32> = statics.collect();
        let mut roots = self.globals.clone();
        if frames {
            root_objects.extend(table.live_stack_objects(self.program));
            roots.extend(self.locals.iter().copied());
        }
        let mask = self.mem.pointer_mask();
        qicc_ir::memory::unreachable_heap(table, roots, root_objects, |a| {
            self.mem.lookup(a & mask).map(|(v, _)| v)
        })
    }

    /// Pops the innermost frame (at its exit); the run's outcome if it was the entry's.
    fn return_from_top(&mut self) -> Option<Outcome> {
        let frame = self.frames.pop().expect("called with a frame at its exit");
        let f = self.program.function(frame.func);
        let ret = f.ret.map(|r| {
            let i = frame.base + r.index();
            (self.locals[i], self.local_taint[i])
        });
        self.locals.truncate(frame.base);
        self.local_taint.truncate(frame.base);
        let Some((call_edge, dst)) = frame.call else {
            if ret.is_some_and(|(_, tainted)| tainted) {
                self.read_uninit = true;
            }
            return Some(Outcome::Returned {
                value: ret.map(|(v, _)| v),
            });
        };
        let caller = self.frames.last().expect("a called frame has a caller");
        let (cfunc, cbase) = (caller.func, caller.base);
        let mut written = None;
        if let (Some(d), Some((v, tainted))) = (dst, ret) {
            self.set_var(d, cbase, v, tainted);
            written = Some((d, v));
        }
        if self.config.record_trace {
            self.record(Step {
                func: cfunc,
                edge: call_edge,
                depth: self.frames.len() as u32 - 1,
                written,
                stored: None,
                input: None,
                kind: StepKind::Return,
                operands: ret.map(|(v, _)| v).into_iter().collect(),
                overflow: false,
            });
        }
        None
    }

    fn set_var(&mut self, v: VarRef, base: usize, value: u64, tainted: bool) {
        match v {
            VarRef::Local(l) => {
                self.locals[base + l.index()] = value;
                self.local_taint[base + l.index()] = tainted;
            }
            VarRef::Global(g) => {
                if self.globals[g.index()] != value {
                    self.globals_version += 1;
                }
                self.globals[g.index()] = value;
                self.global_taint[g.index()] = tainted;
            }
        }
    }

    /// Asks the oracle for a havoc's value, records it, and cuts it to the type's width.
    fn ask_havoc(
        &mut self,
        site: Option<(FuncId, EdgeId)>,
        var: VarRef,
        ty: Ty,
        kind: &HavocKind,
    ) -> Result<u64, String> {
        let req = HavocRequest {
            site,
            var,
            ty,
            kind,
            index: self.witness.havocs.len(),
        };
        let v = self.oracle.havoc(&req) & ty.mask();
        if let Some(why) = self.oracle.failure() {
            return Err(why);
        }
        self.witness.havocs.push(v);
        Ok(v)
    }

    /// Executes edge `eid` of the innermost frame (whose locals start at `base`).
    fn take(&mut self, fid: FuncId, eid: EdgeId, base: usize) -> Next {
        let program = self.program;
        let f: &'i Function = program.function(fid);
        let edge = f.edge(eid);
        let depth = self.frames.len() as u32 - 1;
        let mut step = Step {
            func: fid,
            edge: eid,
            depth,
            written: None,
            stored: None,
            input: None,
            kind: StepKind::Edge,
            operands: Vec::new(),
            overflow: false,
        };
        let record = self.config.record_trace;
        let mut next = Next::Continue;
        match &edge.op {
            // An assumption was evaluated when the enabled edges were.
            Op::Skip | Op::Assume(_) => {}
            Op::NoWrap(c) => {
                if self.eval(c, f, base).0 == 0 {
                    self.signed_overflow.get_or_insert((fid, eid));
                    step.overflow = true;
                }
            }
            Op::Assign(v, e) => {
                let (val, _) = self.eval(e, f, base);
                self.set_var(*v, base, val, false);
                step.written = Some((*v, val));
            }
            Op::Havoc(v, kind) => {
                let ty = program.env(f).var_ty(*v);
                let mut val = match self.ask_havoc(Some((fid, eid)), *v, ty, kind) {
                    Ok(val) => val,
                    Err(why) => return Next::Stop(Outcome::Unreplayable(why)),
                };
                if let HavocKind::Applied {
                    name,
                    args,
                    reads_memory,
                } = kind
                {
                    // The answer is asked for every application (so the witness has one per
                    // havoc), but a repeated one takes the earlier result.
                    let args: Vec<u64> = args.iter().map(|a| self.eval(a, f, base).0).collect();
                    let state = reads_memory.then_some((self.mem.version, self.globals_version));
                    val = *self
                        .applied
                        .entry((name.clone(), args, state))
                        .or_insert(val);
                    if let Some(last) = self.witness.havocs.last_mut() {
                        *last = val;
                    }
                }
                // A body-less function's result is no value of the C program, and the
                // platform's other choices (which zero `fmin` gives, `__builtin_constant_p`,
                // `argc`) are values a native run may choose differently; a computed NaN's
                // bits are the platform's choice of a value the program did compute.
                let platform = matches!(kind, HavocKind::Platform(n) if n != qicc_ir::COMPUTED_NAN);
                if kind.function().is_some() || platform {
                    self.read_uninit = true;
                }
                self.set_var(*v, base, val, matches!(kind, HavocKind::Uninit));
                step.written = Some((*v, val));
                step.input = Some(val);
            }
            Op::Store { ty, addr, value } => {
                let (a, _) = self.eval(addr, f, base);
                // Storing an uninitialised variable (how an uninitialised local in memory is
                // declared) copies its taint to the bytes instead of using its value.
                let state = match value {
                    qicc_ir::Expr::Var(v) if self.var_tainted(*v, base) => TAINTED,
                    _ => CLEAN,
                };
                let v = match value {
                    qicc_ir::Expr::Var(v) => self.var_value(*v, base),
                    _ => self.eval(value, f, base).0,
                };
                let n = (ty.bits() / 8) as u32;
                self.store_with(a, n, v, state);
                step.stored = Some((a, n, v));
            }
            Op::Alloc { dst, size, kind } => {
                let (size, _) = self.eval(size, f, base);
                let id = match self.alloc(fid, eid, size, *kind == qicc_ir::AllocKind::Heap) {
                    Ok(id) => id,
                    Err(why) => return Next::Stop(Outcome::Unreplayable(why)),
                };
                let addr = program.layout.base_address(id);
                self.set_var(*dst, base, addr, false);
                step.written = Some((*dst, addr));
                if record {
                    step.operands.push(size);
                }
            }
            Op::Free(a) => {
                let (a, _) = self.eval(a, f, base);
                self.mem.table.free(a);
                if record {
                    step.operands.push(a);
                }
            }
            Op::MemCopy { dst, src, len } => {
                let (d, _) = self.eval(dst, f, base);
                let (s, _) = self.eval(src, f, base);
                let (n, _) = self.eval(len, f, base);
                if let Err(why) = self.memcopy(d, s, n) {
                    return Next::Stop(Outcome::Unreplayable(why));
                }
                if record {
                    step.operands = vec![d, s, n];
                }
            }
            Op::HavocBytes { dst, len } => {
                let (d, _) = self.eval(dst, f, base);
                let (n, _) = self.eval(len, f, base);
                if let Err(why) = self.havoc_bytes(fid, eid, d, n) {
                    return Next::Stop(Outcome::Unreplayable(why));
                }
                if record {
                    step.operands = vec![d, n];
                }
            }
            Op::MemSet { dst, byte, len } => {
                let (d, _) = self.eval(dst, f, base);
                let (b, _) = self.eval(byte, f, base);
                let (n, _) = self.eval(len, f, base);
                if let Err(why) = self.memset(d, b as u8, n) {
                    return Next::Stop(Outcome::Unreplayable(why));
                }
                if record {
                    step.operands = vec![d, b, n];
                }
            }
            Op::HavocMemory | Op::HavocContents => self.mem.havoc(),
            Op::Call { dst, callee, args } => {
                let mut vals = std::mem::take(&mut self.scratch);
                vals.clear();
                for a in args {
                    vals.push(self.eval(a, f, base).0);
                }
                if depth >= self.config.max_call_depth {
                    self.scratch = vals;
                    return Next::Stop(Outcome::Unreplayable(format!(
                        "call depth exceeds {}",
                        self.config.max_call_depth
                    )));
                }
                self.frames.last_mut().expect("the caller's frame").loc = edge.to;
                self.push_frame(*callee, Some((eid, *dst)));
                let g = program.function(*callee);
                let cbase = self.frames.last().expect("just pushed").base;
                for (p, v) in g.params.iter().zip(&vals) {
                    self.locals[cbase + p.index()] = *v;
                }
                if record {
                    step.operands = vals.clone();
                }
                self.scratch = vals;
            }
            Op::Error(k) => {
                use qicc_ir::{AssertKind, MemProp};
                next = Next::Stop(Outcome::ErrorReached { assertion: *k });
                // A memory leak: the IR's condition (a heap object is live) over-approximates
                // it; the exact one is decided here (`qicc_ir::memory`, "Memory tracking").
                if let AssertKind::Memory(m @ (MemProp::Memtrack | MemProp::MemtrackAtHalt)) =
                    program.assertion(*k).kind
                {
                    let lost = self.lost_heap_objects(m == MemProp::MemtrackAtHalt);
                    if lost.is_empty() {
                        next = Next::Stop(Outcome::Blocked {
                            func: fid,
                            loc: edge.from,
                        });
                    } else if record {
                        step.operands = lost.iter().map(|&o| o as u64).collect();
                    }
                }
            }
            Op::Halt(code) => {
                let code = code.as_ref().map(|c| self.eval(c, f, base).0);
                if record {
                    step.operands.extend(code);
                }
                next = Next::Stop(Outcome::Halted { code });
            }
        }
        if !matches!(edge.op, Op::Call { .. }) {
            self.frames.last_mut().expect("the current frame").loc = edge.to;
        }
        if record {
            self.record(step);
        }
        next
    }

    /// Number of the object an `alloc` of `size` bytes creates, checked and recorded.
    fn alloc(&mut self, func: FuncId, edge: EdgeId, size: u64, heap: bool) -> Result<u32, String> {
        let req = AllocRequest {
            func,
            edge,
            size,
            index: self.witness.alloc_ids.len(),
        };
        let answer = self.oracle.alloc_id(&req);
        if let Some(why) = self.oracle.failure() {
            return Err(why);
        }
        // The IR's rule (`qicc_ir::memory`): the lowest number never used in this run. An
        // oracle's answer is the number its source (a counterexample) expects; a different
        // one means that source does not describe this run.
        let id = self.mem.alloc(size, heap)?;
        if let Some(expected) = answer.filter(|&a| a != id) {
            return Err(format!(
                "the counterexample expects object number {expected} where the program allocates {id}"
            ));
        }
        self.witness.alloc_ids.push(id);
        Ok(id)
    }

    /// `memmove(d, s, n)` byte by byte through the read path (bytes keep their taint).
    fn memcopy(&mut self, d: u64, s: u64, n: u64) -> Result<(), String> {
        check_bulk_len(n)?;
        let mask = self.mem.pointer_mask();
        let mut buf = std::mem::take(&mut self.copy_buf);
        buf.clear();
        for i in 0..n {
            buf.push(self.read_byte(s.wrapping_add(i) & mask));
        }
        for (i, (b, state)) in buf.iter().enumerate() {
            self.mem.put(d.wrapping_add(i as u64) & mask, *b, *state);
        }
        self.copy_buf = buf;
        Ok(())
    }

    /// `havoc_bytes(d, n)`: the oracle's bytes, recorded, as arbitrary (tainted) values.
    fn havoc_bytes(&mut self, func: FuncId, edge: EdgeId, d: u64, n: u64) -> Result<(), String> {
        check_bulk_len(n)?;
        let req = HavocBytesRequest {
            func,
            edge,
            len: n,
            index: self.witness.havoc_bytes.len(),
        };
        let mut bytes = self.oracle.havoc_bytes(&req);
        if let Some(why) = self.oracle.failure() {
            return Err(why);
        }
        bytes.resize(n as usize, 0);
        let mask = self.mem.pointer_mask();
        for (i, b) in bytes.iter().enumerate() {
            self.mem.put(d.wrapping_add(i as u64) & mask, *b, TAINTED);
        }
        self.witness.havoc_bytes.push(bytes);
        Ok(())
    }

    fn memset(&mut self, d: u64, b: u8, n: u64) -> Result<(), String> {
        check_bulk_len(n)?;
        let mask = self.mem.pointer_mask();
        for i in 0..n {
            self.mem.put(d.wrapping_add(i) & mask, b, CLEAN);
        }
        Ok(())
    }
}

/// Bulk operations longer than this are not interpreted (they would take minutes and
/// gigabytes; no object of a program we can verify is that large).
const MAX_BULK: u64 = crate::memory::DENSE_LIMIT;

fn check_bulk_len(n: u64) -> Result<(), String> {
    if n > MAX_BULK {
        Err(format!("unsupported: memcpy/memset of {n} bytes"))
    } else {
        Ok(())
    }
}
