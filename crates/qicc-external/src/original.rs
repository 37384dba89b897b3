//! [`verify_original`]: X on the user's own C files, as a user of X would run it.
//!
//! Qicc+X must never be weaker than X alone, and the C that qicc emits from its IR can be
//! harder for X than the program as written (floats, library calls, X's own models). So
//! beside the runs on emitted regions, X runs once on the original sources with its own
//! options (ESBMC: its SV-COMP configuration, [`ESBMC_SVCOMP_UNREACH_CALL`], or `--unwind K`
//! when qicc is given a bound; then the `--backend-arg`s and the user's `-I`/`-D`), plus one
//! small file of weak definitions of the SV-COMP functions X does
//! not know ([`prelude`]; the program's own definitions win).
//!
//! Soundness:
//! - X's success is a proof of the property assertions only (`reach_error`, `assert`,
//!   `__VERIFIER_assert`): qicc's undefined-behaviour checks are qicc's own (its memory
//!   model, its library models' gaps), which X does not check in qicc's terms, so they stay
//!   `Unknown` here for the other runs to settle. A success while X says it has no body for a
//!   function is no proof (X gave that function arbitrary results and no effects).
//! - X's violation becomes `Violated` only when its counterexample replays in qicc's
//!   interpreter to a property assertion (the values of ESBMC's text trace or of its witness,
//!   matched to `__VERIFIER_nondet_*` calls by line, and by file when the tool names one of
//!   several sources; calls it gives no value get a few fallback seeds): a witness of qicc's own, which
//!   the driver replays again. Otherwise every property assertion is listed in
//!   [`EngineResult::unconfirmed_violations`] with the reason.

use crate::process::run_in_group;
use crate::report::{read_whole_file, WholeFile};
use crate::run::{all_unknown, TempDir, WITNESS_FILE};
use crate::tools::{find_tool, ExternalBackend, Tool, ESBMC_SVCOMP_UNREACH_CALL};
use crate::witness::Returned;
use qicc_engine::{AssertionStatus, Budget, EngineResult, Stats, StopReason};
use qicc_interp::{
    AllocRequest, HavocBytesRequest, HavocRequest, Oracle, Outcome, RandomOracle, RunConfig,
};
use qicc_ir::{AssertionId, EdgeId, FuncId, HavocKind, Program, Witness};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Whether qicc runs `tool` on the original files (the tools whose command line, prelude and
/// output on a user's file are tested).
pub fn runs_on_original(tool: Tool) -> bool {
    tool == Tool::Esbmc
}

/// The definitions X needs beside the program: `__VERIFIER_assert` fails through
/// `reach_error` (ESBMC knows `reach_error`, `__VERIFIER_error`, `__VERIFIER_assume` and the
/// nondet functions, but gives a body-less `__VERIFIER_assert` no effect). Weak, so that a
/// program defining it keeps its own.
pub fn prelude(tool: Tool) -> &'static str {
    match tool {
        Tool::Esbmc | Tool::Cbmc | Tool::Ultimate => {
            "/* qicc: SV-COMP functions the program may call without defining them */\n\
             extern void reach_error(void);\n\
             __attribute__((weak)) void __VERIFIER_assert(int cond) { if (!cond) reach_error(); }\n"
        }
    }
}

/// Runs `backend` on the original `sources` of `program` (read with the preprocessor options
/// `cflags`); `unwind` bounds loops as for emitted runs.
pub fn verify_original(
    backend: &ExternalBackend,
    sources: &[PathBuf],
    cflags: &[String],
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
    let mut r = match run(
        backend, sources, cflags, program, budget, unwind, &mut stats,
    ) {
        Ok(r) => r,
        Err(why) => all_unknown(
            program,
            &format!("{} on the original file: {why}", tool.name()),
            stats,
        ),
    };
    r.stats.external_seconds = Some(start.elapsed().as_secs_f64());
    r
}

fn run(
    backend: &ExternalBackend,
    sources: &[PathBuf],
    cflags: &[String],
    program: &Program,
    budget: &Budget,
    unwind: Option<u32>,
    stats: &mut Stats,
) -> Result<EngineResult, String> {
    let tool = backend.tool;
    if !runs_on_original(tool) {
        return Err("not supported for this tool".into());
    }
    let exe = find_tool(tool, backend.path.as_deref())?;
    stats.external_tool = Some(exe.display().to_string());
    let dir = TempDir::new(tool.name())
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let prelude_file = dir.path.join("qicc_prelude.c");
    std::fs::write(&prelude_file, prelude(tool))
        .map_err(|e| format!("cannot write {}: {e}", prelude_file.display()))?;
    let absolute: Vec<PathBuf> = sources
        .iter()
        .map(|s| std::path::absolute(s).unwrap_or_else(|_| s.clone()))
        .collect();
    let mut files: Vec<&Path> = absolute.iter().map(PathBuf::as_path).collect();
    files.push(&prelude_file);
    let mut args = vec![format!("--{}", program.data_model.pointer_bits())];
    match unwind {
        Some(k) => args.extend(["--unwind".to_string(), k.to_string()]),
        None => args.extend(ESBMC_SVCOMP_UNREACH_CALL.iter().map(|a| a.to_string())),
    }
    args.extend(backend.extra_args.iter().cloned());
    args.extend(cflags.iter().cloned());
    args.extend(files.iter().map(|f| f.display().to_string()));
    let witness = dir.path.join(WITNESS_FILE);
    args.extend(tool.witness_args(&witness).into_iter().flatten());
    let out = run_in_group(&exe, &args, &dir.path, budget)
        .map_err(|e| format!("cannot run {}: {e}", exe.display()))?;
    if let Some(code) = out.status.and_then(|s| s.code()) {
        stats.external_exit_code = Some(code);
    }
    match out.stopped {
        Some(StopReason::Timeout) => return Err("timeout".into()),
        Some(StopReason::Cancelled) => return Err("cancelled".into()),
        Some(StopReason::MemoryLimit) => return Err("memory limit reached".into()),
        None => {}
    }
    let text = format!("{}\n{}", out.stdout, out.stderr);
    let on = |what: String| format!("{} on the original file: {what}", tool.name());
    let properties: Vec<AssertionId> = program
        .assertion_ids()
        .filter(|a| program.assertion(*a).kind.is_property())
        .collect();
    let mut result = all_unknown(program, "", stats.clone());
    match read_whole_file(tool, &text) {
        WholeFile::Proven => {
            let ub = on("checks no undefined behaviour in qicc's terms".into());
            for (a, st) in result.statuses.iter_mut() {
                *st = if properties.contains(a) {
                    AssertionStatus::Safe
                } else {
                    AssertionStatus::Unknown(ub.clone())
                };
            }
        }
        WholeFile::Violated => {
            let yaml = std::fs::read_to_string(&witness).ok();
            match replay(program, &absolute, &text, yaml.as_deref(), budget) {
                Ok((a, w)) => {
                    for (id, st) in result.statuses.iter_mut() {
                        if *id == a {
                            *st = AssertionStatus::Violated;
                        }
                    }
                    result.violation = Some((a, w));
                    result.tool_witness = yaml;
                }
                Err(why) => {
                    let why = on(format!("a violation (not replayed: {why})"));
                    for (a, st) in result.statuses.iter_mut() {
                        if properties.contains(a) {
                            *st = AssertionStatus::Unknown(why.clone());
                        }
                    }
                    result.unconfirmed_violations = properties.clone();
                }
            }
        }
        WholeFile::Unknown(why) => {
            let why = on(why);
            for (_, st) in result.statuses.iter_mut() {
                *st = AssertionStatus::Unknown(why.clone());
            }
        }
    }
    for (_, st) in result.statuses.iter_mut() {
        if matches!(st, AssertionStatus::Unknown(w) if w.is_empty()) {
            *st = AssertionStatus::Unknown(on("no answer".into()));
        }
    }
    result.reason = result.statuses.iter().find_map(|(_, s)| match s {
        AssertionStatus::Unknown(w) => Some(w.clone()),
        _ => None,
    });
    Ok(result)
}

/// Replays the tool's counterexample on `program`: the values of its text trace (`output`:
/// assignments by line, exact bits), else those of its witness (`yaml`: nondet calls' return
/// values), each with a few fallback seeds for the calls neither gives a value; the violated
/// property assertion with qicc's own witness of the first run that reaches one, or why none
/// does.
fn replay(
    program: &Program,
    sources: &[PathBuf],
    output: &str,
    yaml: Option<&str>,
    budget: &Budget,
) -> Result<(AssertionId, Witness), String> {
    let from_witness = match yaml {
        Some(y) => crate::witness::return_values(y).unwrap_or_default(),
        None => Vec::new(),
    };
    let candidates = [crate::witness::esbmc_trace_values(output), from_witness];
    let config = RunConfig {
        deadline: budget.deadline,
        stop: Some(qicc_interp::StopCheck::new(budget.stop_fn())),
        ..RunConfig::default()
    };
    let mut last = String::from("the tool gave no values");
    for values in candidates.iter().filter(|v| !v.is_empty()) {
        for seed in 0..FALLBACK_SEEDS {
            let mut oracle = LineOracle {
                program,
                sources,
                values,
                used: vec![false; values.len()],
                fallback: RandomOracle::new(seed),
            };
            let run = qicc_interp::run(program, &mut oracle, &config);
            match run.outcome {
                Outcome::ErrorReached { assertion }
                    if program.assertion(assertion).kind.is_property() =>
                {
                    return Ok((assertion, run.witness));
                }
                other => {
                    last = format!("its {} values lead to {other:?}", values.len());
                }
            }
            if budget.exhausted().is_some() {
                return Err(last);
            }
        }
    }
    Err(last)
}

/// How many fallback seeds a replay tries for the calls the tool's trace gives no value.
const FALLBACK_SEEDS: u64 = 3;

/// Gives each `__VERIFIER_nondet_*` call the first unused witness value recorded for its file
/// and line (the witness lists them in execution order); everything else, and calls the
/// witness gives no value, come from a fixed random oracle. Only proposes: the replay decides.
struct LineOracle<'a> {
    program: &'a Program,
    sources: &'a [PathBuf],
    values: &'a [Returned],
    used: Vec<bool>,
    fallback: RandomOracle,
}

impl LineOracle<'_> {
    /// Whether a value the witness records in `witness_file` may be for a call in the
    /// program's file `file`. ESBMC 8.4 names the last file of its command line (qicc's
    /// prelude) for every waypoint, so a name that is none of the sources says nothing, and
    /// neither does any name when there is one source.
    fn same_file(&self, witness_file: Option<&str>, file: u16) -> bool {
        let (Some(w), Some(mine)) = (witness_file, self.program.files.get(file as usize)) else {
            return true;
        };
        let base = |p: &Path| p.file_name().map(|n| n.to_os_string());
        let names = |src: &Path| src == Path::new(w) || base(src) == base(Path::new(w));
        match self.sources.iter().find(|s| names(s)) {
            Some(named) if self.sources.len() > 1 => {
                named.ends_with(mine) || base(named) == base(Path::new(mine))
            }
            _ => true,
        }
    }

    fn span_of(&self, site: (FuncId, EdgeId)) -> Option<qicc_ir::Span> {
        let f = self.program.functions.get(site.0.index())?;
        f.edges.get(site.1.index()).map(|e| e.span)
    }
}

impl Oracle for LineOracle<'_> {
    fn havoc(&mut self, req: &HavocRequest) -> u64 {
        if let (HavocKind::Nondet(_), Some(site)) = (req.kind, req.site) {
            if let Some(span) = self.span_of(site) {
                let found = (0..self.values.len()).find(|&i| {
                    !self.used[i]
                        && self.values[i].line == span.line
                        && self.same_file(self.values[i].file.as_deref(), span.file)
                });
                if let Some(i) = found {
                    self.used[i] = true;
                    return self.values[i].value;
                }
            }
        }
        self.fallback.havoc(req)
    }

    fn uninit_byte(&mut self, addr: u64) -> u8 {
        self.fallback.uninit_byte(addr)
    }

    fn havoc_bytes(&mut self, req: &HavocBytesRequest) -> Vec<u8> {
        self.fallback.havoc_bytes(req)
    }

    fn alloc_id(&mut self, req: &AllocRequest) -> Option<u32> {
        self.fallback.alloc_id(req)
    }

    fn choose(&mut self, func: FuncId, enabled: &[EdgeId]) -> usize {
        self.fallback.choose(func, enabled)
    }
}
