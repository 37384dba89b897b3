//! The emitted C, compiled by gcc in its external environment with `tests/fixtures/env_stub.c`
//! and run, agrees with `qicc_interp` on the IR: same assertion reached, or same blocking,
//! return value, exit code or abort, on the same inputs. Both sides take every havoc and
//! every choice between enabled edges from one SplitMix64 stream (`RandomOracle`'s
//! generator) and every byte nobody wrote from a hash of the seed and its address.
//!
//! Programs: the built ones of `common::build` (every operator at every width, memory,
//! nondeterministic branching, calls, recursion, halt, a region entry), and every extracted
//! node of every benchmark program that lowers. Runs that hit the interpreter's step limit,
//! a time limit, or a `qicc unsupported` site are skipped and counted.

mod common;

use common::*;
use qicc_external::cexpr::FLOAT_EMISSION_GAP;
use qicc_external::{emit_c_with_map, EmitOptions};
use qicc_interp::{
    AllocRequest, HavocRequest, Interpreter, Oracle, Outcome, RunConfig, SplitMix64,
};
use qicc_ir::{DataModel, EdgeId, FuncId, Program};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The interpreter's side of `env_stub.c`.
struct StreamOracle {
    stream: SplitMix64,
    seed: u64,
}

impl StreamOracle {
    fn new(seed: u64) -> StreamOracle {
        StreamOracle {
            stream: SplitMix64::new(seed),
            seed,
        }
    }
}

impl Oracle for StreamOracle {
    fn havoc(&mut self, _req: &HavocRequest) -> u64 {
        self.stream.value()
    }
    fn uninit_byte(&mut self, addr: u64) -> u8 {
        SplitMix64::new(self.seed ^ addr.wrapping_mul(0xD6E8_FEB8_6659_FD93)).next_u64() as u8
    }
    fn alloc_id(&mut self, _req: &AllocRequest) -> Option<u32> {
        None
    }
    fn choose(&mut self, _func: FuncId, enabled: &[EdgeId]) -> usize {
        (self.stream.value() % enabled.len().max(1) as u64) as usize
    }
}

/// How a run ended, in terms both sides can express.
#[derive(Clone, Debug, PartialEq, Eq)]
enum End {
    Error(u32),
    Blocked,
    Returned(u64),
    /// Normal end without a value, or `exit(code)` (the low 8 bits).
    Exit(u64),
    Abort,
}

fn ir_end(o: &Outcome) -> Option<End> {
    Some(match o {
        Outcome::ErrorReached { assertion } => End::Error(assertion.0),
        Outcome::Blocked { .. } => End::Blocked,
        Outcome::Returned { value: Some(v) } => End::Returned(*v),
        Outcome::Returned { value: None } => End::Exit(0),
        Outcome::Halted { code: Some(c) } => End::Exit(c & 0xff),
        Outcome::Halted { code: None } => End::Abort,
        Outcome::StepLimit | Outcome::Unreplayable(_) => return None,
    })
}

/// `Err`: the run is not comparable (why).
fn native_end(bin: &Path, seed: u64, timeout: Duration) -> Result<End, String> {
    let mut child = Command::new(bin)
        .env("QICC_SEED", seed.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run: {e}"))?;
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if start.elapsed() > timeout => {
                let _ = child.kill();
                let _ = child.wait();
                return Err("timeout".into());
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(e) => return Err(format!("wait: {e}")),
        }
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("output: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if let Some(rest) = stderr.lines().find_map(|l| l.strip_prefix("QICC_FAIL ")) {
        if let Some(k) = rest.strip_prefix("qicc assertion #") {
            return k
                .trim()
                .parse()
                .map(End::Error)
                .map_err(|e| format!("{rest}: {e}"));
        }
        return Err(format!("not comparable: {rest}"));
    }
    if stderr.contains("QICC_BLOCKED") {
        return Ok(End::Blocked);
    }
    use std::os::unix::process::ExitStatusExt;
    if out.status.signal() == Some(6) {
        return Ok(End::Abort);
    }
    if let Some(v) = stdout.lines().find_map(|l| l.strip_prefix("QICC_RETURN ")) {
        return v
            .trim()
            .parse()
            .map(End::Returned)
            .map_err(|e| format!("{v}: {e}"));
    }
    match out.status.code() {
        Some(c) => Ok(End::Exit(c as u64 & 0xff)),
        None => Err(format!("killed by {:?}: {stderr}", out.status.signal())),
    }
}

fn compile_native(c_file: &Path, dm: DataModel) -> Result<PathBuf, String> {
    let bin = c_file.with_extension("bin");
    let out = Command::new("gcc")
        .args(["-std=gnu99", "-O0", "-w", "-DQICC_EXTERNAL_ENVIRONMENT"])
        .arg(gcc_model_flag(dm))
        .arg(c_file)
        .arg(crate_dir().join("tests/fixtures/env_stub.c"))
        .arg("-o")
        .arg(&bin)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    if out.status.success() {
        Ok(bin)
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

#[derive(Default)]
struct Tally {
    compared: usize,
    skipped: usize,
    mismatches: Vec<String>,
    errors: Vec<String>,
    /// How the compared runs ended, by kind.
    ends: std::collections::BTreeMap<&'static str, usize>,
}

fn compare(
    job: usize,
    name: &str,
    p: &Program,
    seeds: std::ops::Range<u64>,
    dir: &Path,
    tally: &Mutex<Tally>,
) {
    let fail = |msg: String| {
        tally
            .lock()
            .expect("no poisoning")
            .errors
            .push(format!("{name}: {msg}"))
    };
    let emitted = match emit_c_with_map(p, &EmitOptions::default()) {
        Ok(e) => e,
        Err(e) => return fail(format!("emit: {e}")),
    };
    // Names repeat (a function node per calling context): the job number keeps files apart.
    let file = dir.join(format!("{job}_{}.c", name.replace(['/', ' ', '.'], "_")));
    if let Err(e) = std::fs::write(&file, &emitted.text) {
        return fail(format!("write: {e}"));
    }
    let bin = match compile_native(&file, p.data_model) {
        Ok(b) => b,
        Err(e) => return fail(format!("gcc: {e}")),
    };
    let interp = match Interpreter::new(p) {
        Ok(i) => i,
        Err(e) => return fail(format!("interpreter: {e}")),
    };
    for seed in seeds {
        let config = RunConfig {
            max_steps: 2_000_000,
            deadline: Some(Instant::now() + Duration::from_secs(5)),
            ..Default::default()
        };
        let run = interp.run(&mut StreamOracle::new(seed), &config);
        let Some(ir) = ir_end(&run.outcome) else {
            tally.lock().expect("no poisoning").skipped += 1;
            continue;
        };
        let mut t = tally.lock().expect("no poisoning");
        drop(t);
        let native = native_end(&bin, seed, Duration::from_secs(5));
        t = tally.lock().expect("no poisoning");
        match native {
            Ok(n) if n == ir => {
                t.compared += 1;
                let kind = match n {
                    End::Error(_) => "error",
                    End::Blocked => "blocked",
                    End::Returned(_) => "returned",
                    End::Exit(_) => "exit",
                    End::Abort => "abort",
                };
                *t.ends.entry(kind).or_default() += 1;
            }
            Ok(n) => t.mismatches.push(format!(
                "{name} seed {seed}: IR {ir:?}, C {n:?} ({})",
                file.display()
            )),
            Err(_) => t.skipped += 1,
        }
    }
    let _ = std::fs::remove_file(&bin);
}

fn run_all(jobs: Vec<(String, Program, std::ops::Range<u64>)>, tag: &str) -> Tally {
    let dir = scratch_dir(tag);
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((name, p, seeds)) = jobs.get(i) else {
                    break;
                };
                compare(i, name, p, seeds.clone(), &dir, &tally);
            });
        }
    });
    let t = tally.into_inner().expect("no poisoning");
    if t.mismatches.is_empty() && t.errors.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    t
}

fn check(t: &Tally, what: &str, min_compared: usize) {
    println!(
        "{what}: {} runs compared {:?}, {} skipped, {} mismatches, {} errors",
        t.compared,
        t.ends,
        t.skipped,
        t.mismatches.len(),
        t.errors.len()
    );
    let mut problems: Vec<&String> = t.mismatches.iter().chain(&t.errors).collect();
    problems.truncate(15);
    assert!(
        t.mismatches.is_empty() && t.errors.is_empty(),
        "{what}:\n{}",
        problems
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        t.compared >= min_compared,
        "{what}: only {} runs compared",
        t.compared
    );
}

#[test]
fn built_programs_run_like_the_interpreter() {
    let jobs: Vec<_> = build::all()
        .into_iter()
        .map(|(name, p)| (name, p, 0..150u64))
        .collect();
    let n = jobs.len();
    let t = run_all(jobs, "diff-built");
    check(&t, "built programs", n * 100);
    for kind in ["error", "returned", "exit", "abort"] {
        assert!(
            t.ends.get(kind).copied().unwrap_or(0) > 0,
            "no run ended with {kind}"
        );
    }
}

#[test]
fn benchmark_nodes_run_like_the_interpreter() {
    let bench = require_benchmarks_dir();
    let mut jobs = Vec::new();
    let mut floats = 0;
    for (sub, seeds) in [("seeds", 0..12u64), ("sv-comp/c", 0..4u64)] {
        let (programs, _) = lower_tasks(&bench.join(sub));
        for l in programs {
            for (node, ex) in extracted_nodes(&l.program) {
                if let Ok(p) = ex {
                    // The one known gap: programs with floats are not emitted.
                    if emit_c_with_map(&p, &EmitOptions::default())
                        .is_err_and(|e| e.to_string().contains(FLOAT_EMISSION_GAP))
                    {
                        floats += 1;
                        continue;
                    }
                    jobs.push((format!("{} {node}", l.name), p, seeds.clone()));
                }
            }
        }
    }
    let n = jobs.len();
    let t = run_all(jobs, "diff-bench");
    println!("{n} benchmark nodes ({floats} with floats not emitted)");
    check(&t, "benchmark nodes", n);
}
