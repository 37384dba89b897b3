//! Readable counterexample traces, modelled on CBMC's: every step the user would recognise,
//! with its source position, what it did and the value; the program inputs in order; how the
//! run ended.
//!
//! What is shown, per edge: assignments to user variables (`x = 5`); inputs — havocs of
//! `__VERIFIER_nondet_*` and results of undefined (`extern`) functions — always, also into
//! temporaries; uninitialised values of user variables; stores (`*(a + 12) = 5`, offsets in
//! bytes); allocations, `free`, `memcpy`, `memset`, `havoc_memory`; calls with their argument
//! values and returns with the returned value (at the source position of the callee's last
//! edge, usually its `return` statement), followed by the assignment of the result in the
//! caller; assumptions other than `true` (the branch taken); the error or halt that ended the
//! run. Hidden: `skip`, assignments to front-end temporaries (`tmp.N`) and to a function's
//! return variable (shown as the return instead). A local `x.3` shows as `x`.
//!
//! Step kinds: `assign`, `input`, `store`, `alloc`, `free`, `havoc`, `call`, `return`,
//! `assume`, `error`, `halt`.
//!
//! Input values ([`TraceInput::value`], and the value in an input step's text) are decimal in
//! the C type's signedness: signed for `__VERIFIER_nondet_int`, `_long`, `_short`, `_char`,
//! ..., unsigned for `_uint`, `_ulong`, `_bool`, `_pointer`, `_size_t`, ...; `extern` results
//! are shown signed. Inputs are numbered from 1 in execution order.

use crate::exec::{replay, Interpreter};
use crate::pretty::{
    c_expr, display_name, input_decimal, is_temp, nondet_is_signed, var_debug, var_name, var_ty,
    var_unsigned, ObjectNames,
};
use crate::run::{Outcome, Run, RunConfig, Step, StepKind};
use qicc_ir::{AllocKind, AssertKind, FuncId, Function, HavocKind, Op, Program, Span, Ty, VarRef};
use serde::Serialize;
use std::fmt::Write;

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    pub steps: Vec<TraceStep>,
    pub inputs: Vec<TraceInput>,
    /// How the run ended, in words.
    pub outcome: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceStep {
    /// Source file ("" when unknown).
    pub file: String,
    /// 1-based line, 0 when unknown.
    pub line: u32,
    pub col: u32,
    pub function: String,
    /// Call depth (the entry function: 0).
    pub depth: u32,
    /// One of the kinds listed in the module documentation.
    pub kind: String,
    /// What happened, in C terms: `x = 5`, `call f(3, 4)`, `assertion violated: x < 10`.
    pub text: String,
    /// The value assigned, stored, input or returned.
    pub value: Option<String>,
    /// An `assume` step of a two-way branch: `true` for the branch on the condition (the
    /// front-end adds it first), `false` for the one on its negation. Internal (witnesses
    /// read it to say which way a branch went), not part of the JSON report.
    #[serde(skip)]
    pub branch: Option<bool>,
    /// A step of the machinery rather than of the program as written: a compiler temporary,
    /// the passing side of an undefined-behaviour check, a step inside a C library model.
    /// Shown only with `--trace-detail full` ([`Trace::shown`]); witnesses read every step.
    #[serde(skip)]
    pub internal: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TraceInput {
    /// 1-based, in execution order.
    pub index: usize,
    /// The `__VERIFIER_nondet_*` function, or the undefined function that returned the value,
    /// or what made a platform's choice ([`HavocKind::Platform`]).
    pub function: String,
    /// A body-less function's result ([`HavocKind::function`]): no value of the program as
    /// written, unless body-less functions are taken as arbitrary.
    pub bodyless: bool,
    /// Decimal, in the input type's signedness (see the module documentation).
    pub value: String,
    pub file: String,
    pub line: u32,
}

/// Runs longer than this are shown by their first [`HEAD_STEPS`] and last [`TAIL_STEPS`]
/// steps when their trace has to be recovered by a replay.
pub const FULL_TRACE_STEPS: u64 = 200_000;
pub const HEAD_STEPS: usize = 500;
pub const TAIL_STEPS: usize = 2_000;
/// `to_text` shows this many inputs at each end of a long input list.
const INPUTS_SHOWN_EACH_END: usize = 20;

/// The readable trace of `run`, a run of `program`. Uses the run's recorded steps; a run
/// recorded without them is replayed from its witness (up to its step count) to get them.
pub fn trace(program: &Program, run: &Run) -> Trace {
    let outcome = describe_outcome(program, run);
    if let Err(why) = Interpreter::new(program) {
        return Trace {
            steps: Vec::new(),
            inputs: Vec::new(),
            outcome: format!("{outcome} (no steps shown: {why})"),
        };
    }
    let mut b = Builder {
        p: program,
        names: ObjectNames::new(program),
        steps: Vec::new(),
        inputs: Vec::new(),
        allocs: 0,
        last_span: Span::UNKNOWN,
        last_depth: 0,
        model_call: None,
    };
    if run.steps.is_empty() && run.step_count > FULL_TRACE_STEPS {
        // Too long to keep every step (an accelerated counterexample expands to millions of
        // iterations): show the beginning and the end.
        let config = RunConfig {
            max_steps: run.step_count,
            max_call_depth: u32::MAX,
            record_trace: true,
            deadline: None,
            stop: None,
        };
        let (replayed, cut, omitted) = match Interpreter::new(program) {
            Ok(interp) => interp.replay_windowed(&run.witness, &config, HEAD_STEPS, TAIL_STEPS),
            Err(_) => (run.clone(), 0, 0),
        };
        for (i, st) in replayed.steps.iter().enumerate() {
            if i == cut && omitted > 0 {
                let span = b.last_span;
                b.push(
                    span,
                    "",
                    0,
                    "omitted",
                    format!("... {omitted} steps not shown ..."),
                    None,
                );
            }
            b.step(st);
        }
    } else {
        let replayed;
        let steps: &[Step] = if run.steps.is_empty() && run.step_count > 0 {
            let config = RunConfig {
                max_steps: run.step_count,
                max_call_depth: u32::MAX,
                record_trace: true,
                deadline: None,
                stop: None,
            };
            replayed = replay(program, &run.witness, &config);
            &replayed.steps
        } else {
            &run.steps
        };
        for st in steps {
            b.step(st);
        }
    }
    if let Outcome::Returned { value } = &run.outcome {
        let f = program.function(program.entry);
        let ty = f.ret.map_or(Ty::I32, |r| f.local(r).ty);
        let unsigned = f.ret.is_some_and(|r| f.local(r).unsigned);
        let text = match value {
            Some(v) => format!("return {}", b.names.value(*v, ty, unsigned)),
            None => "return".to_string(),
        };
        let value = value.map(|v| b.names.value(v, ty, unsigned));
        b.push(b.last_span, &f.name, 0, "return", text, value);
    }
    Trace {
        steps: b.steps,
        inputs: b.inputs,
        outcome,
    }
}

/// How the run ended, with the assertion's kind, position and text.
fn describe_outcome(p: &Program, run: &Run) -> String {
    match &run.outcome {
        Outcome::ErrorReached { assertion } => match p.assertions.get(assertion.index()) {
            Some(a) => {
                let mut s = format!(
                    "reached {} ({}) at {}",
                    p.assertion_label(*assertion),
                    a.kind.name(),
                    p.span_str(a.span)
                );
                if let AssertKind::Ub(k) = a.kind {
                    let _ = write!(s, ": undefined behaviour, {}", k.describe());
                }
                if let Some(t) = &a.text {
                    let _ = write!(s, ": {t}");
                }
                s
            }
            None => format!("reached {assertion}"),
        },
        Outcome::Returned { value } => {
            let name = p
                .functions
                .get(p.entry.index())
                .map_or("the entry function", |f| f.name.as_str());
            match value {
                Some(v) => format!("{name} returned {v}"),
                None => format!("{name} returned"),
            }
        }
        Outcome::Halted { code: Some(c) } => format!("halted: exit({c})"),
        Outcome::Halted { code: None } => "halted".to_string(),
        Outcome::Blocked { func, loc } => {
            let name = p
                .functions
                .get(func.index())
                .map_or("?", |f| f.name.as_str());
            format!("blocked in {name} at {loc}: no edge enabled")
        }
        Outcome::StepLimit => format!("step limit reached after {} steps", run.step_count),
        Outcome::Unreplayable(why) => format!("unreplayable: {why}"),
    }
}

struct Builder<'p> {
    p: &'p Program,
    names: ObjectNames<'p>,
    steps: Vec<TraceStep>,
    inputs: Vec<TraceInput>,
    allocs: usize,
    /// Span and depth of the last edge taken: where a return happens.
    last_span: Span,
    last_depth: u32,
    /// Inside a call of a C library model: the call's step, its depth and the model. The
    /// model's own steps are internal; its result is told on the call's step.
    model_call: Option<(usize, u32, FuncId)>,
}

impl<'p> Builder<'p> {
    fn file(&self, span: Span) -> String {
        self.p
            .files
            .get(span.file as usize)
            .cloned()
            .unwrap_or_default()
    }

    /// A step of the program; internal when inside a library model.
    fn push(
        &mut self,
        span: Span,
        function: &str,
        depth: u32,
        kind: &str,
        text: String,
        value: Option<String>,
    ) {
        self.steps.push(TraceStep {
            file: if span.is_known() {
                self.file(span)
            } else {
                String::new()
            },
            line: span.line,
            col: span.col,
            function: function.to_string(),
            depth,
            kind: kind.to_string(),
            text,
            value,
            branch: None,
            // Inside a library model, its inputs (`rand()`'s value) and its errors are the
            // program's too.
            internal: self.model_call.is_some() && !matches!(kind, "input" | "error"),
        });
    }

    /// Marks the last step as the machinery's (see [`TraceStep::internal`]).
    fn mark_internal(&mut self) {
        if let Some(last) = self.steps.last_mut() {
            last.internal = true;
        }
    }

    fn step(&mut self, s: &Step) {
        let p = self.p;
        let Some(f) = p.functions.get(s.func.index()) else {
            return;
        };
        let Some(edge) = f.edges.get(s.edge.index()) else {
            return;
        };
        match s.kind {
            StepKind::Edge if s.overflow => {
                let text =
                    "signed overflow: C leaves the result undefined (computed on with wrap-around)";
                self.push(
                    edge.span,
                    f.name.as_str(),
                    s.depth,
                    "overflow",
                    text.to_string(),
                    None,
                );
                self.last_span = edge.span;
                self.last_depth = s.depth;
            }
            StepKind::Edge => {
                self.edge(f, &edge.op, edge.span, s);
                self.last_span = edge.span;
                self.last_depth = s.depth;
            }
            StepKind::Return => self.ret(f, &edge.op, edge.span, s),
        }
    }

    fn ret(&mut self, caller: &'p Function, op: &Op, call_span: Span, s: &Step) {
        let Op::Call { callee, .. } = op else {
            return;
        };
        let Some(g) = self.p.functions.get(callee.index()) else {
            return;
        };
        let ret = g.ret.and_then(|r| g.locals.get(r.index()));
        let (text, value) = match (s.operands.first(), ret) {
            (Some(v), Some(r)) => {
                let shown = self.names.typed_value(*v, r.ty, r.debug_type, r.unsigned);
                (format!("return {shown}"), Some(shown))
            }
            _ => ("return".to_string(), None),
        };
        self.push(
            self.last_span,
            &g.name,
            s.depth + 1,
            "return",
            text,
            value.clone(),
        );
        if let Some((at, depth, model)) = self.model_call {
            if depth == s.depth && model == *callee {
                self.model_call = None;
                if let (Some(call), Some(v)) = (self.steps.get_mut(at), value) {
                    call.text = format!("{} returns {v}", call.text);
                    call.value = Some(v);
                }
            }
        }
        if let Some((d, v)) = s.written {
            let name = var_name(self.p, caller, d);
            if !is_temp(name) {
                self.names.saw_pointer(v, var_debug(self.p, caller, d));
                let shown = self.names.typed_value(
                    v,
                    var_ty(self.p, caller, d),
                    var_debug(self.p, caller, d),
                    var_unsigned(self.p, caller, d),
                );
                let text = format!("{} = {shown}", display_name(name));
                self.push(
                    call_span,
                    &caller.name,
                    s.depth,
                    "assign",
                    text,
                    Some(shown),
                );
            }
        }
        self.last_span = call_span;
        self.last_depth = s.depth;
    }

    fn edge(&mut self, f: &'p Function, op: &Op, span: Span, s: &Step) {
        let p = self.p;
        let depth = s.depth;
        let fname = f.name.as_str();
        let ptr_ty = p.pointer_ty();
        match op {
            Op::Assign(v, _) => {
                let name = var_name(p, f, *v);
                let is_ret = matches!(v, VarRef::Local(l) if f.ret == Some(*l));
                if is_temp(name) || is_ret {
                    return;
                }
                if let Some((_, val)) = s.written {
                    self.names.saw_pointer(val, var_debug(p, f, *v));
                    let shown = self.names.typed_value(
                        val,
                        var_ty(p, f, *v),
                        var_debug(p, f, *v),
                        var_unsigned(p, f, *v),
                    );
                    let text = format!("{} = {shown}", display_name(name));
                    self.push(span, fname, depth, "assign", text, Some(shown));
                }
            }
            Op::Havoc(v, kind) => {
                let Some(val) = s.input else { return };
                let name = var_name(p, f, *v);
                let ty = var_ty(p, f, *v);
                let visible = !is_temp(name);
                match kind {
                    HavocKind::Nondet(func)
                    | HavocKind::Extern(func)
                    | HavocKind::Platform(func)
                    | HavocKind::Applied { name: func, .. } => {
                        let signed = match kind {
                            HavocKind::Nondet(_) => nondet_is_signed(func),
                            _ => true,
                        };
                        let index = self.inputs.len() + 1;
                        // A `_Bool` result is 0 or 1 in C whatever bits the input carried.
                        let is_bool = matches!(kind, HavocKind::Nondet(_))
                            && matches!(qicc_ir::input_function_type(func), Some("bool" | "_Bool"));
                        let val = if is_bool { u64::from(val != 0) } else { val };
                        let decimal = input_decimal(val, ty, signed);
                        let shown = match ty {
                            Ty::Int(_) if val > 0xffff => format!("{decimal} ({val:#x})"),
                            Ty::Float(_) => format!("{decimal} ({val:#x})"),
                            _ => decimal.clone(),
                        };
                        let text = if func == qicc_ir::COMPUTED_NAN {
                            // The bits the quiet NaN is made of (its sign and payload).
                            format!(
                                "computed NaN: sign and payload chosen by the platform (bits {val:#x})  (input #{index})"
                            )
                        } else if visible {
                            format!("{} = {shown}  (input #{index}: {func})", display_name(name))
                        } else {
                            format!("{func}() = {shown}  (input #{index})")
                        };
                        self.push(span, fname, depth, "input", text, Some(shown));
                        self.inputs.push(TraceInput {
                            index,
                            function: func.clone(),
                            bodyless: kind.function().is_some(),
                            value: decimal,
                            file: self.file(span),
                            line: span.line,
                        });
                    }
                    HavocKind::Uninit | HavocKind::Region if visible => {
                        let why = if matches!(kind, HavocKind::Uninit) {
                            "uninitialised"
                        } else {
                            "arbitrary at region entry"
                        };
                        let shown = self.names.typed_value(
                            val,
                            ty,
                            var_debug(p, f, *v),
                            var_unsigned(p, f, *v),
                        );
                        let text = format!("{} = {shown}  ({why})", display_name(name));
                        self.push(span, fname, depth, "assign", text, Some(shown));
                    }
                    _ => {}
                }
            }
            Op::Store { ty, .. } => {
                if let Some((addr, n, val)) = s.stored {
                    // Memory of no known source type is shown signed, with the bits in hex.
                    let (lvalue, debug) = self.names.lvalue(addr, n);
                    self.names.saw_pointer(val, debug);
                    let shown = self.names.typed_value(val, *ty, debug, false);
                    let text = format!("{lvalue} = {shown}");
                    self.push(span, fname, depth, "store", text, Some(shown));
                }
            }
            Op::Alloc { dst, kind, .. } => {
                let Some((_, addr)) = s.written else { return };
                self.allocs += 1;
                let k = self.allocs;
                let obj = p.layout.object_of(addr);
                let dname = var_name(p, f, *dst);
                let (base, what) = match kind {
                    AllocKind::Heap => (format!("malloc#{k}"), "heap"),
                    AllocKind::Frame | AllocKind::Stack if !is_temp(dname) => {
                        (display_name(dname).to_string(), "stack")
                    }
                    AllocKind::Frame | AllocKind::Stack => (format!("stack#{k}"), "stack"),
                };
                let oname = if self.names.is_taken(&base) {
                    format!("{base}#{k}")
                } else {
                    base
                };
                let heap = matches!(kind, AllocKind::Heap);
                let debug = if heap { None } else { var_debug(p, f, *dst) };
                let size = s.operands.first().copied().unwrap_or(0);
                if heap {
                    self.names.add_heap(obj, oname.clone(), size);
                } else {
                    self.names.add(obj, oname.clone(), debug);
                }
                let text = if is_temp(dname) || !heap {
                    format!("new {what} object {oname} ({size} bytes)")
                } else {
                    format!(
                        "{} = &{oname}  (new {what} object, {size} bytes)",
                        display_name(dname)
                    )
                };
                let value = Some(format!("&{oname}"));
                // A variable's object is the program's; a temporary's (a struct copy, a
                // compound literal) is the compiler's.
                self.push(span, fname, depth, "alloc", text, value);
                if debug.is_none() && !heap {
                    self.mark_internal();
                }
            }
            Op::Free(_) => {
                let a = s.operands.first().copied().unwrap_or(0);
                let text = format!("free({})", self.names.short_value(a, ptr_ty));
                self.push(span, fname, depth, "free", text, None);
            }
            Op::MemCopy { .. } | Op::MemSet { .. } => {
                if let [d, x, n] = s.operands[..] {
                    let text = if matches!(op, Op::MemCopy { .. }) {
                        format!(
                            "memcpy({}, {}, {n})",
                            self.names.short_value(d, ptr_ty),
                            self.names.short_value(x, ptr_ty)
                        )
                    } else {
                        format!("memset({}, {}, {n})", self.names.short_value(d, ptr_ty), x)
                    };
                    self.push(span, fname, depth, "store", text, None);
                }
            }
            Op::HavocBytes { .. } => {
                if let [d, n] = s.operands[..] {
                    let text = format!(
                        "{n} bytes at {} become indeterminate",
                        self.names.short_value(d, ptr_ty)
                    );
                    self.push(span, fname, depth, "havoc", text, None);
                }
            }
            Op::HavocMemory => {
                let text = "all memory becomes arbitrary".to_string();
                self.push(span, fname, depth, "havoc", text, None);
            }
            Op::HavocContents => {
                let text = "all memory contents become arbitrary".to_string();
                self.push(span, fname, depth, "havoc", text, None);
            }
            Op::Call { callee, .. } => {
                let Some(g) = p.functions.get(callee.index()) else {
                    return;
                };
                let args: Vec<String> = g
                    .params
                    .iter()
                    .zip(&s.operands)
                    .map(|(prm, v)| match g.locals.get(prm.index()) {
                        Some(l) => {
                            let shown = if l.unsigned {
                                self.names.short_unsigned(*v, l.ty)
                            } else {
                                self.names.short_value(*v, l.ty)
                            };
                            self.names.with_enumerator(shown, *v, l.debug_type)
                        }
                        None => self.names.short_value(*v, Ty::I64),
                    })
                    .collect();
                let model = p.is_library_model(g);
                let name = match g.name.strip_prefix("__qicc_") {
                    Some(n) if model => n,
                    _ => g.name.as_str(),
                };
                let text = format!("call {name}({})", args.join(", "));
                self.push(span, fname, depth, "call", text, None);
                if model && self.model_call.is_none() {
                    self.model_call = Some((self.steps.len() - 1, depth, *callee));
                }
            }
            Op::Assume(c) => {
                if !c.is_true() {
                    let text = format!("assume {}", c_expr(p, f, c));
                    self.push(span, fname, depth, "assume", text, None);
                    if machinery_condition(p, f, c) {
                        self.mark_internal();
                    }
                    // `FnBuilder::branch` adds `assume c` before `assume !c` at the same
                    // location: the lower edge id is the condition's side.
                    let from = f.edges.get(s.edge.index()).map(|e| e.from);
                    let sides: Vec<usize> = f
                        .edges
                        .iter()
                        .enumerate()
                        .filter(|(_, e)| Some(e.from) == from && matches!(e.op, Op::Assume(_)))
                        .map(|(i, _)| i)
                        .collect();
                    if let (2, Some(last)) = (sides.len(), self.steps.last_mut()) {
                        last.branch = Some(sides[0] == s.edge.index());
                    }
                }
            }
            Op::Error(k) => {
                let text = match p.assertions.get(k.index()) {
                    Some(a) => {
                        let mut t = match a.kind {
                            AssertKind::ReachError => "reach_error() called".to_string(),
                            AssertKind::AssertFail | AssertKind::VerifierAssert => {
                                "assertion violated".to_string()
                            }
                            AssertKind::Overflow => "overflow".to_string(),
                            AssertKind::Conversion => "conversion changes the value".to_string(),
                            AssertKind::Memory(m) => m.describe().to_string(),
                            AssertKind::Ub(u) => format!("undefined behaviour: {}", u.describe()),
                        };
                        if !s.operands.is_empty() {
                            // The heap objects a leak lost (`qicc_ir::memory`).
                            let lost: Vec<String> = s
                                .operands
                                .iter()
                                .map(|&o| match self.names.name(o as u32) {
                                    Some(n) => n.to_string(),
                                    None => format!("object #{o}"),
                                })
                                .collect();
                            let _ = write!(t, " ({} lost)", lost.join(", "));
                        } else if let Some(text) = &a.text {
                            let _ = write!(t, ": {text}");
                        }
                        t
                    }
                    None => format!("error {k}"),
                };
                self.push(span, fname, depth, "error", text, None);
            }
            Op::Halt(code) => {
                let text = match (code, s.operands.first()) {
                    (Some(c), Some(v)) => {
                        let ty = c.ty(&p.env(f));
                        format!("exit({})", self.names.short_value(*v, ty))
                    }
                    _ => "halt".to_string(),
                };
                self.push(span, fname, depth, "halt", text, None);
            }
            Op::Skip | Op::NoWrap(_) => {}
        }
    }
}

impl Trace {
    /// The steps a reader of the program needs: the machinery's steps
    /// ([`TraceStep::internal`]) only when `full` (`--trace-detail full`).
    pub fn shown(&self, full: bool) -> Trace {
        let mut t = self.clone();
        if !full {
            t.steps.retain(|s| !s.internal);
        }
        t
    }

    /// The trace as aligned columns, one step per line (location, function indented by call
    /// depth, kind, text), then the inputs and the outcome.
    pub fn to_text(&self) -> String {
        let loc = |s: &TraceStep| {
            if s.line == 0 {
                "-".to_string()
            } else {
                format!("{}:{}:{}", s.file, s.line, s.col)
            }
        };
        let func =
            |s: &TraceStep| format!("{}{}", "  ".repeat(s.depth.min(8) as usize), s.function);
        let w_loc = self
            .steps
            .iter()
            .map(|s| loc(s).len())
            .max()
            .unwrap_or(0)
            .max(8);
        let w_fn = self
            .steps
            .iter()
            .map(|s| func(s).len())
            .max()
            .unwrap_or(0)
            .max(8);
        let w_kind = self
            .steps
            .iter()
            .map(|s| s.kind.len())
            .max()
            .unwrap_or(0)
            .max(4);
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{:w_loc$}  {:w_fn$}  {:w_kind$}  step",
            "location", "function", "kind"
        );
        for s in &self.steps {
            let line = format!(
                "{:w_loc$}  {:w_fn$}  {:w_kind$}  {}",
                loc(s),
                func(s),
                s.kind,
                s.text
            );
            let _ = writeln!(out, "{}", line.trim_end());
        }
        out.push('\n');
        if self.inputs.is_empty() {
            out.push_str("inputs: none\n");
        } else {
            out.push_str("inputs:\n");
            let w_f = self
                .inputs
                .iter()
                .map(|i| i.function.len())
                .max()
                .unwrap_or(0);
            let w_v = self.inputs.iter().map(|i| i.value.len()).max().unwrap_or(0);
            // Thousands of inputs (deep counterexamples) do not help a reader: show both ends.
            let n = self.inputs.len();
            let shown = |k: usize| {
                n <= 2 * INPUTS_SHOWN_EACH_END
                    || k < INPUTS_SHOWN_EACH_END
                    || k >= n - INPUTS_SHOWN_EACH_END
            };
            for (k, i) in self.inputs.iter().enumerate() {
                if !shown(k) {
                    if k == INPUTS_SHOWN_EACH_END {
                        let _ = writeln!(
                            out,
                            "  ... {} more inputs (all in the JSON output) ...",
                            n - 2 * INPUTS_SHOWN_EACH_END
                        );
                    }
                    continue;
                }
                let at = if i.line == 0 {
                    String::new()
                } else {
                    format!("  ({}:{})", i.file, i.line)
                };
                let _ = writeln!(
                    out,
                    "  #{:<3} {:w_f$}  {:>w_v$}{at}",
                    i.index, i.function, i.value
                );
            }
        }
        out.push('\n');
        let _ = writeln!(out, "outcome: {}", self.outcome);
        out
    }
}

/// Whether a branch condition is the machinery's rather than the program's: the passing side
/// of an undefined-behaviour check (`valid(p, 4)`), or a test of compiler temporaries alone
/// (`tmp != 0` after the condition itself was shown where it was computed).
fn machinery_condition(p: &Program, f: &Function, c: &qicc_ir::Expr) -> bool {
    let mut valid = false;
    let mut loads = false;
    c.visit(&mut |e| match e {
        qicc_ir::Expr::Valid(..) => valid = true,
        qicc_ir::Expr::Load(..) => loads = true,
        _ => {}
    });
    let vars = c.vars();
    valid || !loads && !vars.is_empty() && vars.iter().all(|v| is_temp(var_name(p, f, *v)))
}
