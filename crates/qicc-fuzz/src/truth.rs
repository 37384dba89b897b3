//! Ground truth: the front-end's program run by the IR interpreter on every input
//! combination, and a cross-check of those runs against the program compiled by gcc.

use qicc_driver::Loaded;
use qicc_frontend::task::Property;
use qicc_frontend::DataModel;
use qicc_frontend::{lower_source, Options};
use qicc_interp::{run, InputOracle, Outcome, RunConfig};
use qicc_ir::Program;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Lowers C text the way `qicc verify` lowers a file (UB checks on; `--32` when `ilp32`).
pub fn lower(text: &str, ilp32: bool) -> Result<Loaded, String> {
    lower_for(text, ilp32, Property::UnreachCall)
}

/// Lowers C text the way `qicc verify --property` lowers a file for `property`.
pub fn lower_for(text: &str, ilp32: bool, property: Property) -> Result<Loaded, String> {
    let opts = Options {
        data_model: if ilp32 {
            DataModel::Ilp32
        } else {
            DataModel::Lp64
        },
        ..Options::default()
    };
    let property = qicc_frontend::task::Properties::from(property);
    let opts = opts.for_properties(&property);
    let l = lower_source("fuzz.c", text, false, &opts).map_err(|d| d.to_string())?;
    let program = qicc_driver::input::with_property(&l.program, &property);
    Ok(Loaded {
        program,
        sources: vec![PathBuf::from("fuzz.c")],
        cflags: Vec::new(),
        task: None,
        property,
        warnings: l.warnings,
    })
}

/// How one concrete run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum End {
    Returned(u64),
    /// An error edge: a property assertion, or (`property: false`) an undefined-behaviour check.
    Error {
        property: bool,
    },
    /// Anything else (blocked assumption, step limit, unreplayable): never expected.
    Other(String),
}

/// Steps allowed per run: generated programs take a few thousand at most.
const MAX_STEPS: u64 = 2_000_000;

/// Runs `program` on `values`: the program's inputs and the results of its body-less
/// `const`/`pure` functions, in the order the run asks for them (the truth enumerates those
/// results like inputs); everything else from a fixed random oracle.
pub fn run_once(program: &Program, values: &[i64]) -> End {
    let values = values.iter().map(|v| *v as u64).collect();
    let mut oracle = InputOracle::new(values, 0).with_applied();
    let r = run(
        program,
        &mut oracle,
        &RunConfig {
            max_steps: MAX_STEPS,
            ..RunConfig::default()
        },
    );
    match r.outcome {
        Outcome::Returned { value } => End::Returned(value.unwrap_or(0)),
        // `abort()`: checking another property than unreach-call, a failing assertion aborts.
        Outcome::Halted { .. } => End::Returned(0),
        Outcome::ErrorReached { assertion } => End::Error {
            property: program.assertion(assertion).kind.is_property(),
        },
        // valid-memtrack: heap memory left at the end, all of it reachable.
        o if o.ended_without_leak(program) => End::Returned(0),
        other => End::Other(other.to_string()),
    }
}

/// The exhaustive verdict.
#[derive(Clone, Debug)]
pub struct Truth {
    /// No input reaches a failing assertion.
    pub safe: bool,
    /// Some input reaches an undefined-behaviour check first (only with `allow_ub`): no
    /// TRUE is right then, and a FALSE only through another input.
    pub ub: bool,
    /// Per input combination (in [`crate::build::combos`] order): reaches a failing assertion.
    pub errors: Vec<bool>,
    /// The first violating input combination.
    pub witness: Option<Vec<i64>>,
}

/// Runs `program` on every combination. A run that does not end normally is an error of the
/// generator, and so is undefined behaviour unless `allow_ub` (a program with a hazard).
pub fn exhaustive(program: &Program, combos: &[Vec<i64>], allow_ub: bool) -> Result<Truth, String> {
    let mut errors = Vec::with_capacity(combos.len());
    let mut witness = None;
    let mut ub = false;
    for c in combos {
        match run_once(program, c) {
            End::Returned(_) => errors.push(false),
            End::Error { property: true } => {
                if witness.is_none() {
                    witness = Some(c.clone());
                }
                errors.push(true);
            }
            End::Error { property: false } if allow_ub => {
                ub = true;
                errors.push(false);
            }
            End::Error { property: false } => {
                return Err(format!(
                    "generator bug: input {c:?} reaches an undefined-behaviour check"
                ))
            }
            End::Other(why) => return Err(format!("generator bug: input {c:?}: {why}")),
        }
    }
    Ok(Truth {
        safe: witness.is_none(),
        ub,
        errors,
        witness,
    })
}

/// Compiles the gcc rendering (`gcc -fwrapv`; for ILP32 `-m32` with SSE floats, the
/// README's ILP32 semantics) in `dir` and compares, input by input, whether `reach_error` is
/// reached with the interpreter's `errors`.
pub fn gcc_check(
    gcc_text: &str,
    errors: &[bool],
    dir: &Path,
    tag: &str,
    ilp32: bool,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let src = dir.join(format!("{tag}.c"));
    let exe = dir.join(tag);
    std::fs::write(&src, gcc_text).map_err(|e| format!("{}: {e}", src.display()))?;
    let mut gcc = Command::new("gcc");
    if ilp32 {
        gcc.args(["-m32", "-msse2", "-mfpmath=sse"]);
    }
    let out = gcc
        .args(["-fwrapv", "-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "gcc rejects the program: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    // Every run is short; `timeout` guards against a harness that does not end.
    let run = Command::new("timeout")
        .arg("120")
        .arg(&exe)
        .output()
        .map_err(|e| format!("cannot run the gcc build: {e}"))?;
    let _ = std::fs::remove_file(&exe);
    let _ = std::fs::remove_file(&src);
    let got = String::from_utf8_lossy(&run.stdout);
    let got = got.trim();
    let want: String = errors.iter().map(|e| if *e { 'E' } else { '.' }).collect();
    if got != want {
        let first = got
            .chars()
            .zip(want.chars())
            .position(|(a, b)| a != b)
            .unwrap_or(got.len().min(want.len()));
        return Err(format!(
            "gcc and the interpreter disagree at input combination #{first}: gcc {:?}, interpreter {:?} (gcc {} runs, interpreter {})",
            got.chars().nth(first),
            want.chars().nth(first),
            got.len(),
            want.len()
        ));
    }
    Ok(())
}
