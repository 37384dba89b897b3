//! Helpers shared by the integration tests.
#![allow(dead_code)]

use qicc_impulse::{ImpulseOptions, Instrumented};
use qicc_ir::{parse_program, print_function, verify_program, Program};
use std::fmt::Write;

pub fn parse(src: &str) -> Program {
    let p = parse_program(src).unwrap_or_else(|e| panic!("test IR does not parse: {e}"));
    if let Err(errs) = verify_program(&p) {
        panic!("test IR is ill-formed: {errs:#?}");
    }
    p
}

/// Instruments `p` and checks the result is well-formed.
pub fn instrument(p: &Program) -> Instrumented {
    let instr = qicc_impulse::instrument(p, &ImpulseOptions::default());
    if let Err(errs) = verify_program(&instr.program) {
        panic!(
            "instrumented program is ill-formed: {errs:#?}\n{}",
            qicc_ir::print_program(&instr.program)
        );
    }
    instr
}

/// What was accelerated (closed forms, splits, memory, ⊥) and the instrumented entry
/// function, as text for snapshots.
pub fn report(src: &str) -> String {
    let p = parse(src);
    let instr = instrument(&p);
    let mut out = String::new();
    for (k, a) in instr.accelerations.iter().enumerate() {
        let path: Vec<String> = a.path.iter().map(|e| format!("e{}", e.0)).collect();
        let _ = writeln!(
            out,
            "; acceleration {k} at {} path [{}]",
            a.head,
            path.join(" ")
        );
        if !a.split.is_empty() {
            let _ = writeln!(out, ";   split: {}", a.split);
        }
        for f in &a.closed_forms {
            let _ = writeln!(out, ";   {f}");
        }
        if !a.bottom.is_empty() {
            let _ = writeln!(out, ";   bottom: {}", a.bottom.join(", "));
        }
        let _ = writeln!(out, ";   memory: {}", a.memory);
    }
    for s in &instr.skipped {
        let _ = writeln!(out, "; skipped loop at {}: {}", s.head, s.reason);
    }
    let main = instr.program.function(instr.program.entry);
    out.push_str(&print_function(&instr.program, main));
    out
}
