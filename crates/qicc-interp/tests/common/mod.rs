//! Helpers shared by the interpreter's tests: programs are written as IR text.
#![allow(dead_code)]

use qicc_interp::{run, InputOracle, Outcome, RandomOracle, Run, RunConfig, WitnessOracle};
use qicc_ir::{parse_program, verify_program, Program, Witness};

/// Parses and checks a program (panics with the errors: the test's own text is wrong).
pub fn prog(text: &str) -> Program {
    let p = parse_program(text).unwrap_or_else(|e| panic!("test program does not parse: {e}"));
    if let Err(errs) = verify_program(&p) {
        panic!("test program is ill-formed: {errs:?}");
    }
    p
}

/// A program whose `main` returns `expr` of type `ty`, after the given declarations.
pub fn expr_program(decls: &str, ty: &str, expr: &str) -> Program {
    prog(&format!(
        "data-model ilp32\n{decls}\nentry @main\nfn @main() -> %r {{\n  local %r: {ty}\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L1: %r := {expr}\n}}\n"
    ))
}

pub fn config() -> RunConfig {
    RunConfig {
        record_trace: true,
        ..RunConfig::default()
    }
}

pub fn run_seed(p: &Program, seed: u64) -> Run {
    run(p, &mut RandomOracle::new(seed), &config())
}

pub fn run_inputs(p: &Program, inputs: &[u64]) -> Run {
    run(p, &mut InputOracle::new(inputs.to_vec(), 0), &config())
}

pub fn run_witness(p: &Program, w: &Witness) -> Run {
    run(p, &mut WitnessOracle::new(w), &config())
}

/// The value `main` returned; panics with the outcome otherwise.
pub fn returned(r: &Run) -> u64 {
    match r.outcome {
        Outcome::Returned { value: Some(v) } => v,
        ref other => panic!("expected a return value, got {other:?}"),
    }
}

pub fn unreplayable(r: &Run) -> &str {
    match &r.outcome {
        Outcome::Unreplayable(why) => why,
        other => panic!("expected an unreplayable run, got {other:?}"),
    }
}
