//! [`verify_external`]: an external verifier as a qicc engine.
//!
//! Emit the program as C (the tool's spelling of assertion sites), write it to a fresh
//! temporary directory (removed afterwards), run the tool there in its own process group
//! under the budget, and read its output back ([`crate::report`]). Every failure along the way
//! (tool missing, program not expressible in C, tool crashed) is an `Unknown` with the reason,
//! never a panic. Assertions without any site in the file (their `error` edges are in code the
//! entry cannot reach) are `Safe` whatever the tool does. A violation the tool reports is
//! replayed when the tool wrote a violation witness (ESBMC: `--witness-output-yaml`): its
//! nondet values ([`crate::witness`]) drive the interpreter on the program that was emitted
//! (every havoc is one nondet call there, in the same order); a run that reaches a property
//! assertion is the result's `violation` (a witness of qicc's own, which the driver replays
//! again on the user's program). A violation without a witness that replays stays in
//! [`EngineResult::unconfirmed_violations`], its status saying why.

use crate::emit::{emit_c_with_map, EmitOptions, EmittedC};
use crate::function::HAVOC_TEMP;
use crate::process::run_in_group;
use crate::report::{read_output, Reading};
use crate::tools::{command_args, find_tool, ExternalBackend, Tool, UNREACH_CALL_PRP};
use qicc_engine::{AssertionStatus, Budget, EngineResult, Stats, StopReason};
use qicc_interp::{InputOracle, Outcome, RunConfig};
use qicc_ir::{AssertionId, Program, Witness};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Runs `backend` on `program`; `unwind` bounds loops for the tools that take a bound.
pub fn verify_external(
    backend: &ExternalBackend,
    program: &Program,
    budget: &Budget,
    unwind: Option<u32>,
) -> EngineResult {
    let start = Instant::now();
    let tool = backend.tool;
    let mut stats = Stats {
        backend: Some(tool.name().to_string()),
        ..Default::default()
    };
    let exe = match find_tool(tool, backend.path.as_deref()) {
        Ok(e) => e,
        Err(why) => return all_unknown(program, &why, stats),
    };
    stats.external_tool = Some(exe.display().to_string());
    let opts = EmitOptions {
        spelling: tool.spelling(),
    };
    let emitted = match emit_c_with_map(program, &opts) {
        Ok(e) => e,
        Err(e) => {
            return all_unknown(
                program,
                &format!("cannot express the program in C: {e}"),
                stats,
            )
        }
    };
    let run = |stats: &mut Stats, extra: &[&str]| match run_tool(
        tool, &exe, backend, program, &emitted, budget, unwind, stats, extra,
    ) {
        Ok(r) => r,
        Err(why) => Reading::unknown(&emitted, &why),
    };
    let reading = run(&mut stats, &[]);
    let mut r = result(program, tool, &emitted, reading, stats.clone(), budget);
    // ESBMC's slicer drops the values of nondet calls the violation does not depend on
    // (an earlier iteration's), so its witness may not replay by position: once more without
    // slicing, for the witness (only when a violation needs it and time is left).
    if tool.writes_witness() && r.violation.is_none() && !r.unconfirmed_violations.is_empty() {
        if budget.exhausted().is_none() {
            let reading = run(&mut stats, &["--no-slice"]);
            let again = result(program, tool, &emitted, reading, stats.clone(), budget);
            if again.violation.is_some() {
                r = again;
            }
        }
    }
    r.stats.external_seconds = Some(start.elapsed().as_secs_f64());
    r
}

/// The name of the violation witness the tool is asked to write, in its directory.
pub(crate) const WITNESS_FILE: &str = "witness.yml";

/// Replays the tool's witness on `program`: the values of the nondet calls on the emitted
/// file's havoc lines (`{ T qicc_nondet = …; x = qicc_nondet; }`, one per IR havoc; the
/// helpers' calls for edge choices and unknown bytes are left to the interpreter), in order;
/// the violated property assertion with qicc's own witness of the run, or why it does not
/// replay.
fn replay_tool_witness(
    program: &Program,
    emitted: &EmittedC,
    yaml: Option<&str>,
    budget: &Budget,
) -> Result<(AssertionId, Witness), String> {
    let yaml = yaml.ok_or("the tool wrote no violation witness")?;
    let lines: Vec<&str> = emitted.text.lines().collect();
    let mark = format!("{HAVOC_TEMP} = __VERIFIER_nondet");
    let values: Vec<u64> = crate::witness::return_values(yaml)?
        .into_iter()
        .filter(|r| {
            (r.line as usize)
                .checked_sub(1)
                .and_then(|i| lines.get(i))
                .is_some_and(|l| l.contains(&mark))
        })
        .map(|r| r.value)
        .collect();
    let config = RunConfig {
        deadline: budget.deadline,
        stop: Some(qicc_interp::StopCheck::new(budget.stop_fn())),
        ..RunConfig::default()
    };
    let run = qicc_interp::run(
        program,
        &mut InputOracle::new(values.clone(), 0).every_havoc(),
        &config,
    );
    match run.outcome {
        Outcome::ErrorReached { assertion } if program.assertion(assertion).kind.is_property() => {
            Ok((assertion, run.witness))
        }
        other => Err(format!(
            "its witness does not replay (its {} nondet values lead to {other:?})",
            values.len()
        )),
    }
}

#[allow(clippy::too_many_arguments)]
fn run_tool(
    tool: Tool,
    exe: &Path,
    backend: &ExternalBackend,
    program: &Program,
    emitted: &EmittedC,
    budget: &Budget,
    unwind: Option<u32>,
    stats: &mut Stats,
    extra: &[&str],
) -> Result<Reading, String> {
    let dir = TempDir::new(tool.name())
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let file = dir.path.join("qicc_program.c");
    let prp = dir.path.join("unreach-call.prp");
    std::fs::write(&file, &emitted.text)
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    if tool == Tool::Ultimate {
        std::fs::write(&prp, UNREACH_CALL_PRP)
            .map_err(|e| format!("cannot write {}: {e}", prp.display()))?;
    }
    let mut args = command_args(
        tool,
        &file,
        &prp,
        program.data_model,
        unwind,
        &backend.extra_args,
    );
    let witness = dir.path.join(WITNESS_FILE);
    args.extend(extra.iter().map(|a| a.to_string()));
    args.extend(tool.witness_args(&witness).into_iter().flatten());
    let out = run_in_group(exe, &args, &dir.path, budget)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if let Some(code) = out.status.and_then(|s| s.code()) {
        stats.external_exit_code = Some(code);
    }
    match out.stopped {
        Some(StopReason::Timeout) => return Ok(Reading::unknown(emitted, "timeout")),
        Some(StopReason::Cancelled) => return Ok(Reading::unknown(emitted, "cancelled")),
        Some(StopReason::MemoryLimit) => {
            return Ok(Reading::unknown(emitted, "memory limit reached"))
        }
        None => {}
    }
    let text = format!("{}\n{}", out.stdout, out.stderr);
    let mut reading = read_output(tool, &text, emitted);
    if !reading.violated.is_empty() {
        reading.witness = std::fs::read_to_string(&witness).ok();
    }
    Ok(reading)
}

pub(crate) fn all_unknown(program: &Program, why: &str, stats: Stats) -> EngineResult {
    EngineResult::unknown(program, why, stats)
}

fn result(
    program: &Program,
    tool: Tool,
    emitted: &EmittedC,
    reading: Reading,
    stats: Stats,
    budget: &Budget,
) -> EngineResult {
    let mut violation = None;
    let mut unconfirmed = reading.violated.clone();
    let mut replay_failed = None;
    if !reading.violated.is_empty() && tool.writes_witness() {
        match replay_tool_witness(program, emitted, reading.witness.as_deref(), budget) {
            Ok((a, w)) => {
                unconfirmed.retain(|u| *u != a);
                violation = Some((a, w));
            }
            Err(why) => replay_failed = Some(why),
        }
    }
    let statuses: Vec<_> = program
        .assertion_ids()
        .map(|a| {
            // No site in the file: no execution reaches its error edge.
            let st = reading
                .statuses
                .get(&a)
                .cloned()
                .unwrap_or(AssertionStatus::Safe);
            let st = match (&violation, &replay_failed, st) {
                (Some((v, _)), _, _) if *v == a => AssertionStatus::Violated,
                (_, Some(why), AssertionStatus::Unknown(r)) if unconfirmed.contains(&a) => {
                    AssertionStatus::Unknown(format!("{r}: {why}"))
                }
                (_, _, st) => st,
            };
            (a, st)
        })
        .collect();
    let reason = statuses.iter().find_map(|(_, s)| match s {
        AssertionStatus::Unknown(w) => Some(w.clone()),
        _ => None,
    });
    let tool_witness = violation.as_ref().and(reading.witness.clone());
    EngineResult {
        statuses,
        violation,
        unconfirmed_violations: unconfirmed,
        ub_witness: None,
        tool_witness,
        invariants: Vec::new(),
        reason,
        stats,
    }
}

/// A directory under the system's temporary directory, removed with everything in it on drop.
pub(crate) struct TempDir {
    pub(crate) path: PathBuf,
}

impl TempDir {
    pub(crate) fn new(tag: &str) -> std::io::Result<TempDir> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let path = std::env::temp_dir().join(format!(
            "qicc-{tag}-{}-{nanos}-{}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir(&path)?;
        Ok(TempDir { path })
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}
