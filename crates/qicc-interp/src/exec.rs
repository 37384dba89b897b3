//! The entry points: a checked, prepared program ([`Interpreter`]) and [`run`] / [`replay`].
//!
//! The program is checked by `verify_program` (plus what that check leaves open: bit-vector
//! widths, a memory layout the object table can hold) when the [`Interpreter`] is made; after
//! that, variable, edge and function indices are internal invariants of a run.

use crate::init::{global_inits, StaticImage};
use crate::machine::Machine;
use crate::oracle::{Oracle, WitnessOracle};
use crate::run::{CallRun, Outcome, Run, RunConfig};
use qicc_ir::{verify_program, EdgeId, FuncId, Function, Loc, Op, Program, Ty, Witness};

/// Outgoing edges of every location of one function, in edge order.
pub(crate) struct Successors {
    /// `edges[start[l]..start[l + 1]]` leave location `l`.
    start: Vec<u32>,
    edges: Vec<EdgeId>,
}

impl Successors {
    fn new(f: &Function) -> Successors {
        let mut start = vec![0u32; f.num_locs as usize + 1];
        for e in &f.edges {
            start[e.from.index() + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut fill = start.clone();
        let mut edges = vec![EdgeId(0); f.edges.len()];
        for (i, e) in f.edges.iter().enumerate() {
            let slot = &mut fill[e.from.index()];
            edges[*slot as usize] = EdgeId(i as u32);
            *slot += 1;
        }
        Successors { start, edges }
    }

    pub(crate) fn of(&self, loc: Loc) -> &[EdgeId] {
        let i = loc.index();
        &self.edges[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// A checked program with everything a run needs precomputed; runs it any number of times.
pub struct Interpreter<'p> {
    pub(crate) program: &'p Program,
    pub(crate) successors: Vec<Successors>,
    pub(crate) statics: StaticImage,
    pub(crate) global_inits: Vec<Option<u64>>,
}

impl<'p> Interpreter<'p> {
    /// Checks the program (`verify_program`, and that its static objects fit the memory
    /// layout) and precomputes successor lists and initial memory contents.
    pub fn new(program: &'p Program) -> Result<Interpreter<'p>, String> {
        if let Err(errs) = verify_program(program) {
            let shown: Vec<&str> = errs.iter().take(3).map(String::as_str).collect();
            let more = errs.len().saturating_sub(3);
            let tail = if more > 0 {
                format!(" (and {more} more)")
            } else {
                String::new()
            };
            return Err(format!("ill-formed program: {}{tail}", shown.join("; ")));
        }
        let layout = program.layout;
        check_widths(program)?;
        if let Some(f) = program.functions.iter().find(|f| f.num_locs > MAX_LOCS) {
            return Err(format!(
                "unsupported: @{} has {} locations (at most {MAX_LOCS})",
                f.name, f.num_locs
            ));
        }
        if layout.pointer_bits > 64 || layout.object_bits > MAX_OBJECT_BITS {
            return Err(format!(
                "unsupported: memory layout with {} pointer bits and {} object bits \
                 (at most 64 and {MAX_OBJECT_BITS})",
                layout.pointer_bits, layout.object_bits
            ));
        }
        if program.objects.len() as u64 > layout.max_objects() {
            return Err(format!(
                "unsupported: {} static objects, the memory layout numbers at most {}",
                program.objects.len(),
                layout.max_objects()
            ));
        }
        if let Some(o) = program
            .objects
            .iter()
            .find(|o| o.size > layout.max_object_size())
        {
            return Err(format!(
                "unsupported: object @{} has {} bytes, the memory layout allows at most {}",
                o.name,
                o.size,
                layout.max_object_size()
            ));
        }
        Ok(Interpreter {
            program,
            successors: program.functions.iter().map(Successors::new).collect(),
            statics: StaticImage::new(program)?,
            global_inits: global_inits(program)?,
        })
    }

    pub fn program(&self) -> &'p Program {
        self.program
    }

    /// Runs the program from its entry function with the oracle's answers.
    pub fn run(&self, oracle: &mut dyn Oracle, config: &RunConfig) -> Run {
        Machine::new(self, oracle, config).run()
    }

    /// Replays a witness keeping only the first `head` and last `tail` steps; also returns
    /// where the omission is in `Run::steps` and how many steps were omitted.
    pub fn replay_windowed(
        &self,
        witness: &Witness,
        config: &RunConfig,
        head: usize,
        tail: usize,
    ) -> (Run, usize, u64) {
        let mut oracle = WitnessOracle::new(witness);
        Machine::new(self, &mut oracle, config)
            .windowed(head, tail)
            .run_windowed()
    }

    /// Runs the program as [`Interpreter::run`] does, and also returns the globals when the
    /// run ended (whatever the outcome): how a test or an analysis observes a run.
    pub fn run_with_globals(&self, oracle: &mut dyn Oracle, config: &RunConfig) -> (Run, Vec<u64>) {
        Machine::new(self, oracle, config).run_with_globals()
    }

    /// Runs one activation of `func` alone: its parameters `args`, the globals `globals` (one
    /// value per global), memory as at the program's start, the oracle's answers for anything
    /// nondeterministic. It ends as a run of the program does, with `Returned` when `func`
    /// returns. Evaluating a call whose callee touches no memory (see
    /// `qicc_analysis::modset`) with an oracle that refuses every question gives the call's
    /// one result, if it has one.
    pub fn call(
        &self,
        func: FuncId,
        args: &[u64],
        globals: &[u64],
        oracle: &mut dyn Oracle,
        config: &RunConfig,
    ) -> CallRun {
        if globals.len() != self.program.globals.len()
            || args.len() != self.program.function(func).params.len()
        {
            return CallRun {
                outcome: Outcome::Unreplayable("a call with the wrong number of values".into()),
                globals: globals.to_vec(),
                clean: false,
                step_count: 0,
            };
        }
        Machine::new(self, oracle, config).call(func, args, globals)
    }

    /// Runs the program on the answers of a witness ([`WitnessOracle`]).
    pub fn replay(&self, witness: &Witness, config: &RunConfig) -> Run {
        self.run(&mut WitnessOracle::new(witness), config)
    }
}

/// Runs `program` with the oracle's answers (see [`Interpreter::run`]). An ill-formed program
/// gives an [`Outcome::Unreplayable`] run.
pub fn run(program: &Program, oracle: &mut dyn Oracle, config: &RunConfig) -> Run {
    match Interpreter::new(program) {
        Ok(interp) => interp.run(oracle, config),
        Err(why) => Run {
            outcome: Outcome::Unreplayable(why),
            witness: Witness::default(),
            steps: Vec::new(),
            step_count: 0,
            read_uninit: false,
            signed_overflow: None,
        },
    }
}

/// Runs `program` on the answers of `witness`; a witness that runs out or gives an impossible
/// answer makes the run [`Outcome::Unreplayable`].
pub fn replay(program: &Program, witness: &Witness, config: &RunConfig) -> Run {
    run(program, &mut WitnessOracle::new(witness), config)
}

/// Successor lists are indexed by location: a function declaring more locations than this
/// would cost gigabytes before its first step.
const MAX_LOCS: u32 = 1 << 24;

/// The object table is a vector indexed by object number; more object bits than this would
/// let one oracle answer cost gigabytes.
const MAX_OBJECT_BITS: u16 = 20;

/// Rejects bit-vector widths outside `1..=64`, which `verify_program` does not check and the
/// operator semantics cannot evaluate.
fn check_widths(program: &Program) -> Result<(), String> {
    let bad = |t: Ty| matches!(t, Ty::Int(w) if w == 0 || w > 64);
    let mut found: Option<Ty> = None;
    let mut note = |t: Ty| {
        if bad(t) && found.is_none() {
            found = Some(t);
        }
    };
    let mut visit = |e: &qicc_ir::Expr| {
        e.visit(&mut |x| match x {
            qicc_ir::Expr::Const { ty, .. }
            | qicc_ir::Expr::Cast(_, ty, _)
            | qicc_ir::Expr::Load(ty, _) => note(*ty),
            _ => {}
        })
    };
    for g in &program.globals {
        if bad(g.ty) {
            return Err(format!("unsupported: global ${} has type {}", g.name, g.ty));
        }
        if let Some(e) = &g.init {
            visit(e);
        }
    }
    for o in &program.objects {
        for item in &o.init {
            if let qicc_ir::InitItem::Value { value, .. } = item {
                visit(value);
            }
        }
    }
    for f in &program.functions {
        if let Some(l) = f.locals.iter().find(|l| bad(l.ty)) {
            return Err(format!(
                "unsupported: local %{} of @{} has type {}",
                l.name, f.name, l.ty
            ));
        }
        for e in &f.edges {
            if let Op::Store { ty, .. } = &e.op {
                if bad(*ty) {
                    return Err(format!("unsupported: store of type {ty} in @{}", f.name));
                }
            }
            e.op.exprs(&mut visit);
        }
    }
    match found {
        Some(t) => Err(format!(
            "unsupported: bit-vector type {t} (widths are 1..=64)"
        )),
        None => Ok(()),
    }
}
