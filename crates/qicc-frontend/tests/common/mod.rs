//! Shared by the integration tests: locating the benchmarks, and the differential harness
//! (a program compiled by gcc with `tests/diff/stub.c` against the front-end's IR run by the
//! interpreter, on the same inputs).
#![allow(dead_code)]

use qicc_frontend::{lower_file, Lowered, Options};
use qicc_interp::{Interpreter, Outcome, RandomOracle, RunConfig};
use qicc_ir::DataModel;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[allow(unused_imports)]
pub use qicc_testkit::{require_benchmarks_dir, task_files};

/// A fresh scratch directory under the system temp dir.
pub fn scratch_dir(tag: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("qicc-frontend-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir is writable");
    d
}

/// Functions the stub provides: the program's own definitions of them are renamed away.
const STUBBED: &[&str] = &[
    "reach_error",
    "__VERIFIER_error",
    "__assert_fail",
    "__VERIFIER_assume",
];

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Renames the *definitions* (not the calls) of the stubbed functions and of every
/// `__VERIFIER_nondet_*` function in preprocessed text.
pub fn rename_definitions(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut last = 0;
    while i < bytes.len() {
        if is_ident(bytes[i]) && (i == 0 || !is_ident(bytes[i - 1])) {
            let start = i;
            while i < bytes.len() && is_ident(bytes[i]) {
                i += 1;
            }
            let word = &text[start..i];
            if (STUBBED.contains(&word) || word.starts_with("__VERIFIER_nondet_"))
                && is_definition(bytes, i)
            {
                out.push_str(&text[last..start]);
                out.push_str("__qicc_orig_");
                out.push_str(word);
                last = i;
            }
        } else {
            i += 1;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// After a name at `i`: `( ... )` then `{` (a function definition).
fn is_definition(b: &[u8], mut i: usize) -> bool {
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    if i >= b.len() || b[i] != b'(' {
        return false;
    }
    let mut depth = 0;
    while i < b.len() {
        match b[i] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    i += 1;
                    break;
                }
            }
            _ => {}
        }
        i += 1;
    }
    while i < b.len() && b[i].is_ascii_whitespace() {
        i += 1;
    }
    i < b.len() && b[i] == b'{'
}

/// A program compiled by gcc against the stub.
pub struct Native {
    pub exe: PathBuf,
}

/// What one side of a comparison did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Behaviour {
    Error,
    Blocked,
    /// Normal termination with this exit status (mod 256).
    Exit(u8),
    Abort,
}

/// Why a run pair was not compared.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Skip {
    Uninit,
    StepLimit,
    Undefined,
    Unreplayable,
    NativeTimeout,
    NativeSignal,
}

pub fn compile(path: &Path, dm: DataModel, dir: &Path) -> Result<Native, String> {
    let text = if path.extension().and_then(|e| e.to_str()) == Some("i") {
        std::fs::read_to_string(path).map_err(|e| e.to_string())?
    } else {
        let mut cmd = Command::new("gcc");
        cmd.arg("-E");
        if dm == DataModel::Ilp32 {
            cmd.arg("-m32");
        }
        let out = cmd.arg(path).output().map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).into_owned());
        }
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let prog = dir.join("prog.i");
    std::fs::write(&prog, rename_definitions(&text)).map_err(|e| e.to_string())?;
    let exe = dir.join("prog");
    let mut cmd = Command::new("gcc");
    // Floats as qicc reads them: SSE arithmetic on ILP32 too (each operation rounded to its
    // type, FLT_EVAL_METHOD 0), no contraction into fused multiply-adds.
    cmd.args(["-fwrapv", "-w", "-O0", "-fno-builtin", "-ffp-contract=off"]);
    if dm == DataModel::Ilp32 {
        cmd.args(["-m32", "-msse2", "-mfpmath=sse"]);
    }
    cmd.arg("-o")
        .arg(&exe)
        .arg(&prog)
        .arg(crate_dir().join("tests/diff/stub.c"))
        .arg("-lm");
    let out = cmd.output().map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or("gcc failed")
            .to_string());
    }
    Ok(Native { exe })
}

impl Native {
    pub fn run(&self, seed: u64, limit: Duration) -> Result<Behaviour, Skip> {
        let mut child = Command::new(&self.exe)
            .env("QICC_SEED", seed.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|_| Skip::NativeSignal)?;
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break st,
                Ok(None) if start.elapsed() > limit => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(Skip::NativeTimeout);
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(1)),
                Err(_) => return Err(Skip::NativeSignal),
            }
        };
        let mut err = String::new();
        if let Some(mut s) = child.stderr.take() {
            use std::io::Read;
            let _ = s.read_to_string(&mut err);
        }
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            return if sig == 6 {
                Ok(Behaviour::Abort)
            } else {
                Err(Skip::NativeSignal)
            };
        }
        let code = status.code().unwrap_or(-1);
        if code == 99 && err.contains("QICC_ERROR") {
            return Ok(Behaviour::Error);
        }
        if code == 98 && err.contains("QICC_BLOCKED") {
            return Ok(Behaviour::Blocked);
        }
        Ok(Behaviour::Exit((code & 0xff) as u8))
    }
}

pub fn run_ir(
    interp: &Interpreter,
    seed: u64,
    max_steps: u64,
    limit: Duration,
    notes: &mut Vec<String>,
) -> Result<Behaviour, Skip> {
    let config = RunConfig {
        max_steps,
        deadline: Some(Instant::now() + limit),
        ..Default::default()
    };
    let run = interp.run(&mut RandomOracle::new(seed), &config);
    if run.read_uninit {
        return Err(Skip::Uninit);
    }
    match run.outcome {
        Outcome::ErrorReached { assertion } => {
            let kind = interp.program().assertion(assertion).kind;
            if kind.is_property() {
                Ok(Behaviour::Error)
            } else {
                let p = interp.program();
                let a = p.assertion(assertion);
                notes.push(format!(
                    "seed {seed}: undefined behaviour {} at {}",
                    kind.name(),
                    p.span_str(a.span)
                ));
                Err(Skip::Undefined)
            }
        }
        Outcome::Returned { value } => Ok(Behaviour::Exit(value.unwrap_or(0) as u8)),
        Outcome::Halted { code: Some(c) } => Ok(Behaviour::Exit(c as u8)),
        Outcome::Halted { code: None } => Ok(Behaviour::Abort),
        Outcome::Blocked { .. } => Ok(Behaviour::Blocked),
        Outcome::StepLimit => Err(Skip::StepLimit),
        Outcome::Unreplayable(why) => {
            notes.push(format!("seed {seed}: unreplayable: {why}"));
            Err(Skip::Unreplayable)
        }
    }
}

/// The result of comparing one program on several seeds.
#[derive(Default, Debug)]
pub struct Comparison {
    pub compared: u32,
    pub skipped: Vec<Skip>,
    /// (seed, IR behaviour, native behaviour).
    pub mismatches: Vec<(u64, Behaviour, Behaviour)>,
    /// Why runs were skipped (undefined behaviour, unreplayable), for the report.
    pub notes: Vec<String>,
}

pub fn compare(
    lowered: &Lowered,
    native: &Native,
    seeds: impl IntoIterator<Item = u64>,
    max_steps: u64,
    limit: Duration,
) -> Result<Comparison, String> {
    let interp = Interpreter::new(&lowered.program)?;
    let mut c = Comparison::default();
    let mut expensive = 0;
    for seed in seeds {
        // A program that runs out of steps or time on three seeds would on the others too.
        if expensive >= 3 {
            break;
        }
        let ir = run_ir(&interp, seed, max_steps, limit, &mut c.notes);
        let ir = match ir {
            Ok(b) => b,
            Err(s) => {
                if matches!(s, Skip::StepLimit | Skip::Unreplayable) {
                    expensive += 1;
                }
                c.skipped.push(s);
                continue;
            }
        };
        match native.run(seed, limit) {
            Ok(n) => {
                if n == ir {
                    c.compared += 1;
                } else {
                    c.mismatches.push((seed, ir, n));
                }
            }
            Err(s) => c.skipped.push(s),
        }
    }
    Ok(c)
}

pub fn lower(path: &Path, dm: DataModel) -> Result<Lowered, qicc_frontend::Diagnostic> {
    lower_file(
        path,
        &Options {
            data_model: dm,
            ..Default::default()
        },
    )
}
