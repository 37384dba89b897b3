//! `qicc verify`: the verdict, with Ctrl-C, `--timeout` and a progress line wired in.

use crate::common::TraceDetail;
use crate::common::{input_error, Format, InputArgs};
use crate::{EXIT_FALSE, EXIT_TRUE, EXIT_UNKNOWN};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use qicc_driver::{abandoned_report, verify, Engine, Report, Verdict, VerifyOptions};
use qicc_engine::{memory, Budget, StopReason};
use std::io::IsTerminal;
use std::sync::Arc;
use std::time::Duration;

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum EngineArg {
    /// Bounded model checking: unwind loops and recursion, deepen the bound until the answer is
    /// conclusive (complete unwinding proves TRUE; a replayed counterexample proves FALSE).
    Bmc,
    /// Qicc (default): verify each assertion in the innermost loop region that holds it,
    /// climbing to the enclosing region on failure, up to the whole program (bmc underneath),
    /// with Impulse looking for deep counterexamples at the same time.
    Qicc,
    /// Impulse alone: accelerate loops with closed forms and run bmc at depth 2 — finds bugs
    /// that need thousands of iterations fast; never answers TRUE.
    Impulse,
    /// Corral: stratified inlining — calls are summarised (what they may change made
    /// arbitrary) and inlined only where a counterexample needs them; the bound on recursion
    /// and loop unwinding deepens up to --recursion-bound. TRUE needs no bound: an
    /// over-approximation with nothing blocked that reaches no error.
    Corral,
    /// Loop invariants alone: candidates at every loop head (guards, intervals, relations
    /// with the entry values, constant steps, array cells, closed forms) proven by Houdini,
    /// then the program with every loop cut by them checked by bmc, then k-induction; proves
    /// TRUE for unbounded loops, never answers FALSE.
    Invariants,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum BackendArg {
    Builtin,
    Cbmc,
    Esbmc,
    Ultimate,
}

/// `--check`: a property by name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum CheckArg {
    /// No call of reach_error() (SV-COMP's unreach-call; the default).
    UnreachCall,
    /// No signed integer overflow (SV-COMP's no-overflow).
    Overflow,
    /// Memory safety (SV-COMP's valid-memsafety): every dereference valid, every free valid,
    /// no heap object lost when the program ends.
    Memsafety,
    /// As memsafety, with every heap object freed when the program ends (SV-COMP's
    /// valid-memcleanup).
    Memcleanup,
    /// No conversion to a signed integer type changes the value (as CBMC's
    /// --conversion-check; implementation-defined in C, not part of SV-COMP's no-overflow).
    Conversion,
}

#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The property to check, an SV-COMP property file (.prp). qicc checks unreach-call
    /// (`CHECK( init(main()), LTL(G ! call(reach_error())) )`) and no-overflow (`LTL(G !
    /// overflow)`: no signed `+ - * / << ++ --` or unary minus leaves its type; a FALSE reads
    /// `FALSE(no-overflow)`, and reach_error() is then an ordinary function), valid-memsafety
    /// (`G valid-free`, `G valid-deref`, `G valid-memtrack`: a FALSE names the sub-property,
    /// `FALSE(valid-deref)`; leaks are checked where the program ends: return from main,
    /// exit, abort) and valid-memcleanup; any other property is answered "unsupported" (exit
    /// code 6). With a task .yml, the task's entry for this file gives the expected verdict.
    /// Default: unreach-call.
    #[arg(long, value_name = "FILE.prp", conflicts_with = "check")]
    pub property: Option<std::path::PathBuf>,
    /// The properties to check, by name (no .prp file needed), several at once separated by
    /// commas (`--check unreach-call,overflow,memsafety`: one run; a FALSE names the property
    /// its counterexample violates, a TRUE holds for all): `overflow` is SV-COMP's
    /// no-overflow (as CBMC's --signed-overflow-check), `memsafety` valid-memsafety (as
    /// CBMC's --pointer-check --bounds-check --memory-leak-check), `memcleanup`
    /// valid-memcleanup, `conversion` as CBMC's --conversion-check, `unreach-call` the
    /// default.
    #[arg(long, value_enum, value_name = "PROPERTY", value_delimiter = ',')]
    pub check: Vec<CheckArg>,
    /// Verification engine.
    #[arg(long, value_enum, default_value = "qicc")]
    pub engine: EngineArg,
    /// Unwind every loop and recursion exactly K times instead of deepening the bound.
    #[arg(long, value_name = "K")]
    pub unwind: Option<u32>,
    /// Bounded verification: search every execution that runs each loop body and each
    /// recursion at most K times. No violation there is the answer BOUNDED ("no violation
    /// within bound K", exit code 4, JSON `bounded: K`), never TRUE; the executions the
    /// bound cut are named per loop. The engine still tries to prove the program for every
    /// execution in the time left (TRUE replaces BOUNDED when it does), and a violation it
    /// finds beyond the bound is a FALSE.
    #[arg(long, value_name = "K", conflicts_with = "unwind")]
    pub bound: Option<u32>,
    /// CBMC's spelling of bounded verification: `--unwind K --no-unwinding-assertions` is
    /// `--bound K`.
    #[arg(long, requires = "unwind")]
    pub no_unwinding_assertions: bool,
    /// Largest bound incremental deepening tries.
    #[arg(long, value_name = "K")]
    pub max_unwind: Option<u32>,
    /// With --engine bmc: bound one loop, FUNC:LOC:K (FUNC:LOC as `--show-loops` lists the
    /// loop, e.g. main:L5:100; repeat the option or separate by commas). Other loops follow
    /// --unwind or the deepening.
    #[arg(long, value_name = "FUNC:LOC:K", value_delimiter = ',', value_parser = parse_unwindset)]
    pub unwindset: Vec<(String, u32, u32)>,
    /// With --engine bmc: write every solver query as SMT-LIB 2 to FILE (for studying or
    /// benchmarking the solver on qicc's queries).
    #[arg(long, value_name = "FILE")]
    pub dump_smt: Option<std::path::PathBuf>,
    /// With --engine corral: the largest recursion bound (a call site's cost: how many
    /// activations of its function it makes; loops are unwound as often).
    #[arg(long, value_name = "N")]
    pub recursion_bound: Option<u32>,
    /// With --engine corral: abstract the globals away and track only those a spurious
    /// counterexample needs (Corral's variable abstraction with hierarchical refinement).
    #[arg(long)]
    pub abstraction: bool,
    /// With --engine corral: turn loops into tail-recursive procedures, so that the recursion
    /// bound bounds them and summaries cover them (default: unwind them up to the bound).
    #[arg(long)]
    pub loops_as_procedures: bool,
    /// Wall-clock limit in seconds; when reached the answer is UNKNOWN (timeout).
    #[arg(long, value_name = "SECONDS", default_value_t = 900.0)]
    pub timeout: f64,
    /// Memory limit in MiB (resident memory of qicc with its in-process solver); when
    /// reached the answer is UNKNOWN (memory limit reached). 0: no limit. Default: half the
    /// machine's physical memory. A bounded model checking run stops when its unwinding
    /// would need more than half of it (about 1 KiB per term with the solver's copy),
    /// naming the loop and bound that grew.
    #[arg(long, value_name = "MIB")]
    pub memory_limit: Option<u64>,
    /// Report every violated assertion, not only the first.
    #[arg(long)]
    pub all_violations: bool,
    /// Qicc: runs of the verifier at the same time (default: number of cores).
    #[arg(long, value_name = "N")]
    pub jobs: Option<usize>,
    /// Qicc: time limit in seconds of one run on a region (default: a share of --timeout).
    #[arg(long, value_name = "SECONDS")]
    pub region_timeout: Option<f64>,
    /// Qicc: do not assume facts from static analysis (intervals, stack addresses) at region heads.
    #[arg(long)]
    pub no_facts: bool,
    /// Qicc: do not run Impulse alongside.
    #[arg(long)]
    pub no_impulse: bool,
    /// Qicc: do not run Corral alongside (it runs only when static inlining of the calls
    /// would make more than 256 call sites, or the program recurses).
    #[arg(long)]
    pub no_corral: bool,
    /// Qicc: do not run the loop-invariant prover alongside (it runs when the program has a
    /// loop).
    #[arg(long)]
    pub no_invariants: bool,
    /// The SMT solver of every engine's checks, in process: `z3` (Z3 5.4) or `bitwuzla`
    /// (Bitwuzla 0.8). The stats (`--format json`) name it and count the checks it decided.
    /// Default: the environment variable QICC_SOLVER, else bitwuzla (measured: it decides
    /// more programs in less time; Z3 is the other opinion).
    #[arg(long, value_enum, value_name = "SOLVER")]
    pub solver: Option<SolverArg>,
    /// The C compiler of the native replay of counterexamples (default: `gcc` or `cc` on
    /// the PATH; `off`: the interpreter's replay alone).
    #[arg(long, value_name = "PATH|off")]
    pub native_cc: Option<String>,
    /// What a signed integer overflow means. `ub` (default, as C): undefined behaviour, so a
    /// counterexample that overflows before the violation is not accepted (UNKNOWN, naming the
    /// overflow). `wrap` (as `gcc -fwrapv`): two's complement wrap-around, such a
    /// counterexample is a FALSE. Proofs hold for wrap-around either way.
    #[arg(long, value_enum, value_name = "MEANING", default_value = "ub")]
    pub signed_overflow: SignedOverflow,
    /// Treat functions without a body (declared, not defined: a library whose `.c` file is
    /// not given) as arbitrary: a counterexample may choose what they return and how they
    /// change globals and memory, and is then a FALSE with a note naming them. Default: such a
    /// counterexample is no execution of the program as written, so the verdict is UNKNOWN
    /// and names the functions. `__VERIFIER_nondet_*` and `nondet_*` are inputs either way;
    /// a TRUE holds for every behaviour of the body-less functions either way.
    #[arg(long)]
    pub nondet_functions: bool,
    /// Qicc: the verifier X that checks each region: the built-in bounded model checker, or an
    /// installed CBMC, ESBMC or Ultimate Automizer (each region is emitted as a C file and the
    /// tool runs as a child process with the region's time limit). ESBMC also runs at once on
    /// the program's own files with its own options, as a user of ESBMC would run it (its
    /// proof covers the assertions; qicc's undefined-behaviour checks are settled by the
    /// other runs), so Qicc+ESBMC is never weaker than ESBMC alone.
    #[arg(long, value_enum, default_value = "builtin")]
    pub backend: BackendArg,
    /// Qicc: the external verifier's executable (or its directory) if it is not on PATH.
    #[arg(long, value_name = "PATH")]
    pub backend_path: Option<std::path::PathBuf>,
    /// Qicc: an extra argument for the external verifier (repeatable).
    #[arg(long, value_name = "ARG", allow_hyphen_values = true)]
    pub backend_arg: Vec<String>,
    /// Qicc: do not run the external verifier on the program's own files (only on the C that
    /// qicc emits for the regions and the whole program).
    #[arg(long)]
    pub no_original_run: bool,
    /// Output format: readable text, one JSON object, or a SARIF 2.1.0 log (for code
    /// scanning: the violated assertion with its counterexample as a code flow) on stdout.
    #[arg(long, value_enum, default_value = "text")]
    pub format: Format,
    /// SARIF: locations are relative to DIR (`%SRCROOT%`, the root code scanning maps them
    /// onto). Default: the enclosing git repository's root, else the current directory.
    #[arg(long, value_name = "DIR")]
    pub sarif_root: Option<std::path::PathBuf>,
    /// Also write the SARIF 2.1.0 log to FILE, whatever `--format` prints (`qicc batch
    /// --sarif` keeps one per task beside its JSON result).
    #[arg(long, value_name = "FILE")]
    pub sarif_output: Option<std::path::PathBuf>,
    /// Also write the browsable report into DIR: `DIR/index.html`, a self-contained web page
    /// (no server or network) with the summary, the source with each assertion's status,
    /// the counterexample step by step, the proofs and loop invariants, and the Region
    /// Nesting Tree with the runs tried on it.
    #[arg(long, value_name = "DIR")]
    pub html: Option<std::path::PathBuf>,
    /// Write a witness in the SV-COMP format 2.0 (YAML) to FILE: for FALSE a violation
    /// witness (the replayed counterexample), for TRUE a correctness witness (the proven loop
    /// invariants); UNKNOWN writes none. SV-COMP expects `witness.yml`.
    #[arg(long, value_name = "FILE")]
    pub witness: Option<std::path::PathBuf>,
    /// How much of a counterexample to show: `program` (the steps of the program as
    /// written) or `full` (also compiler temporaries, the passing side of each
    /// undefined-behaviour check and the steps inside the C library's models).
    #[arg(long, value_enum, default_value = "program")]
    pub trace_detail: TraceDetail,
    /// List the program's loop heads (position, and the name `--unwindset` takes) and stop.
    #[arg(long)]
    pub show_loops: bool,
    /// No progress line on stderr (as `--progress none`).
    #[arg(long, short)]
    pub quiet: bool,
    /// Progress on stderr: `auto` (a live line on a terminal, nothing otherwise), `bar` (the
    /// live line), `plain` (one line every few seconds, for CI logs: elapsed time and what
    /// the engines do — the phase, the bound, the regions done) or `none`.
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: ProgressArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ProgressArg {
    Auto,
    Bar,
    Plain,
    None,
}

/// How often `--progress plain` prints.
const PLAIN_PROGRESS_EVERY: Duration = Duration::from_secs(5);

/// `--progress plain`: the engines' latest message, printed by a thread every
/// [`PLAIN_PROGRESS_EVERY`] until dropped.
struct PlainProgress {
    latest: Arc<std::sync::Mutex<String>>,
    done: Arc<std::sync::atomic::AtomicBool>,
}

impl PlainProgress {
    fn start() -> PlainProgress {
        let latest = Arc::new(std::sync::Mutex::new("loading".to_string()));
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (l, d) = (latest.clone(), done.clone());
        let start = std::time::Instant::now();
        std::thread::spawn(move || {
            let mut next = PLAIN_PROGRESS_EVERY;
            while !d.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                let t = start.elapsed();
                if t >= next && !d.load(std::sync::atomic::Ordering::Relaxed) {
                    next += PLAIN_PROGRESS_EVERY;
                    let msg = l.lock().map(|m| m.clone()).unwrap_or_default();
                    eprintln!("qicc: [{:>6.1} s] {msg}", t.as_secs_f64());
                }
            }
        });
        PlainProgress { latest, done }
    }

    fn callback(&self) -> qicc_driver::verify::Progress {
        let latest = self.latest.clone();
        Arc::new(move |s: &str| {
            if let Ok(mut m) = latest.lock() {
                *m = s.to_string();
            }
        })
    }
}

impl Drop for PlainProgress {
    fn drop(&mut self) {
        self.done.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

pub fn run(args: VerifyArgs) -> u8 {
    if let Some(s) = args.solver {
        qicc_driver::set_solver_kind(match s {
            SolverArg::Z3 => qicc_driver::SolverKind::Z3,
            SolverArg::Bitwuzla => qicc_driver::SolverKind::Bitwuzla,
        });
    }
    // The time limit counts from here: loading the input is part of the user's wait.
    let budget = if args.timeout > 0.0 && args.timeout.is_finite() {
        Budget::with_timeout(Duration::from_secs_f64(args.timeout))
    } else {
        Budget::unlimited()
    };
    if args.engine != EngineArg::Bmc && (!args.unwindset.is_empty() || args.dump_smt.is_some()) {
        eprintln!("qicc: --unwindset and --dump-smt need --engine bmc");
        return crate::EXIT_USAGE;
    }
    if args.engine != EngineArg::Corral
        && (args.recursion_bound.is_some() || args.abstraction || args.loops_as_procedures)
    {
        eprintln!(
            "qicc: --recursion-bound, --abstraction and --loops-as-procedures need --engine corral"
        );
        return crate::EXIT_USAGE;
    }
    let external = match args.backend {
        BackendArg::Builtin => None,
        b => {
            let tool = match b {
                BackendArg::Cbmc => qicc_external::Tool::Cbmc,
                BackendArg::Esbmc => qicc_external::Tool::Esbmc,
                _ => qicc_external::Tool::Ultimate,
            };
            if args.engine != EngineArg::Qicc {
                eprintln!("qicc: --backend {} needs --engine qicc", tool.name());
                return crate::EXIT_USAGE;
            }
            // Resolve now: the tool runs in a temporary directory, where a relative path
            // would mean something else.
            let exe = match qicc_external::find_tool(tool, args.backend_path.as_deref()) {
                Ok(p) => std::fs::canonicalize(&p).unwrap_or(p),
                Err(e) => {
                    eprintln!("qicc: {e}");
                    return crate::EXIT_USAGE;
                }
            };
            Some(qicc_external::ExternalBackend {
                tool,
                path: Some(exe),
                extra_args: args.backend_arg.clone(),
            })
        }
    };
    let check = if args.check.is_empty() {
        None
    } else {
        let list: Vec<_> = args
            .check
            .iter()
            .map(|c| match c {
                CheckArg::UnreachCall => qicc_frontend::task::Property::UnreachCall,
                CheckArg::Overflow => qicc_frontend::task::Property::NoOverflow,
                CheckArg::Memsafety => qicc_frontend::task::Property::MemSafety,
                CheckArg::Memcleanup => qicc_frontend::task::Property::MemCleanup,
                CheckArg::Conversion => qicc_frontend::task::Property::Conversion,
            })
            .collect();
        match qicc_frontend::task::Properties::new(&list) {
            Ok(p) => Some(p),
            Err(why) => {
                eprintln!("qicc: --check: {why}\n\nFor more information, try '--help'.");
                return crate::EXIT_USAGE;
            }
        }
    };
    let loaded = match args.input.load_for_property(args.property.clone(), check) {
        Ok(l) => l,
        Err(d) => return input_error(&d, args.format, args.sarif_root.as_deref()),
    };
    if args.show_loops {
        print!("{}", qicc_driver::loop_heads::loops_text(&loaded.program));
        return 0;
    }
    if let Err(e) = qicc_driver::loop_heads::check_unwindset(&loaded.program, &args.unwindset) {
        eprintln!("qicc: {e}\n\nFor more information, try '--help'.");
        return crate::EXIT_USAGE;
    }
    let cancel = budget.cancel.clone();
    // First Ctrl-C: stop the engines and report UNKNOWN; a second one exits at once.
    let _ = ctrlc::set_handler(move || {
        if cancel.is_cancelled() {
            std::process::exit(130);
        }
        cancel.cancel();
    });

    let progress_mode = match args.progress {
        _ if args.quiet => ProgressArg::None,
        ProgressArg::Auto if std::io::stderr().is_terminal() => ProgressArg::Bar,
        ProgressArg::Auto => ProgressArg::None,
        p => p,
    };
    let plain = (progress_mode == ProgressArg::Plain).then(PlainProgress::start);
    let bar = (progress_mode == ProgressArg::Bar).then(|| {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} [{elapsed}] {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        bar
    });
    let progress = bar
        .clone()
        .map(|b| {
            Arc::new(move |s: &str| b.set_message(s.to_string())) as qicc_driver::verify::Progress
        })
        .or_else(|| plain.as_ref().map(PlainProgress::callback));

    let opts = VerifyOptions {
        engine: match args.engine {
            EngineArg::Bmc => Engine::Bmc,
            EngineArg::Qicc => Engine::Qicc,
            EngineArg::Impulse => Engine::Impulse,
            EngineArg::Corral => Engine::Corral,
            EngineArg::Invariants => Engine::Invariants,
        },
        unwind: args.unwind.filter(|_| !args.no_unwinding_assertions),
        bound: args
            .bound
            .or(args.unwind.filter(|_| args.no_unwinding_assertions)),
        max_unwind: args.max_unwind,
        unwindset: args.unwindset.clone(),
        recursion_bound: args.recursion_bound,
        abstraction: args.abstraction,
        loops_as_procedures: args.loops_as_procedures,
        dump_smt: args.dump_smt.clone(),
        all_violations: args.all_violations,
        jobs: args.jobs,
        region_timeout: args
            .region_timeout
            .filter(|t| *t > 0.0 && t.is_finite())
            .map(Duration::from_secs_f64),
        facts: !args.no_facts,
        external,
        impulse: !args.no_impulse,
        corral: !args.no_corral,
        invariants: !args.no_invariants,
        progress,
        signed_overflow_wraps: args.signed_overflow == SignedOverflow::Wrap,
        nondet_functions: args.nondet_functions,
        native: match args.native_cc.as_deref() {
            None => qicc_driver::NativeCompiler::Find,
            Some("off") => qicc_driver::NativeCompiler::Off,
            Some(p) => qicc_driver::NativeCompiler::Path(p.into()),
        },
        attempt_log: Default::default(),
        x_on_original: !args.no_original_run,
        original_files: None,
    };
    let memory_limit = match args.memory_limit {
        Some(0) => None,
        Some(mib) => Some(mib),
        None => memory::physical_mib().map(|m| m / 2),
    };
    let _watch = memory_limit.map(|mib| memory::MemoryWatch::start(mib, budget.cancel.clone()));
    let budget = budget.with_memory_limit(memory_limit);
    let report = verify_with_deadline(loaded, opts, &budget);
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    drop(plain);
    let shown = report.shown(args.trace_detail == TraceDetail::Full);
    let sarif = || {
        qicc_driver::sarif::to_sarif(
            &shown,
            env!("CARGO_PKG_VERSION"),
            &qicc_driver::sarif::SrcRoot::new(args.sarif_root.as_deref()),
        )
        .map_err(|e| {
            eprintln!("qicc: internal error: cannot serialise the SARIF log: {e}");
            crate::EXIT_INTERNAL
        })
    };
    if let Some(path) = &args.sarif_output {
        let log = match sarif() {
            Ok(log) => log,
            Err(code) => return code,
        };
        if let Err(e) = std::fs::write(path, format!("{log:#}\n")) {
            eprintln!("qicc: cannot write the SARIF log {}: {e}", path.display());
            return crate::EXIT_INPUT_ERROR;
        }
    }
    if let Some(dir) = &args.html {
        if let Err(code) = crate::cmd_report::write_run_page(&shown, dir) {
            return code;
        }
    }
    match args.format {
        Format::Text => print!("{}", shown.to_text()),
        Format::Json => match serde_json::to_string_pretty(&shown) {
            Ok(s) => println!("{s}"),
            Err(e) => {
                eprintln!("qicc: internal error: cannot serialise the report: {e}");
                return crate::EXIT_INTERNAL;
            }
        },
        Format::Sarif => match sarif() {
            Ok(log) => println!("{log:#}"),
            Err(code) => return code,
        },
    }
    if let Some(path) = &args.witness {
        if let Err(code) = write_witness(&report, path) {
            return code;
        }
    }
    if report.internal_error.is_some() {
        // Contradictory results (a proof and a replayed violation of one assertion): one
        // engine is unsound; the report names both runs.
        return crate::EXIT_INTERNAL;
    }
    match report.verdict {
        Verdict::True => EXIT_TRUE,
        Verdict::False => EXIT_FALSE,
        Verdict::Unknown => EXIT_UNKNOWN,
        Verdict::Bounded => crate::EXIT_BOUNDED,
    }
}

/// `--witness`: writes the report's witness to `path` (none for UNKNOWN, said on stderr).
/// A file that cannot be written is an I/O error (exit code as for an unreadable input).
fn write_witness(report: &Report, path: &std::path::Path) -> Result<(), u8> {
    match qicc_driver::witness::to_witness(report, env!("CARGO_PKG_VERSION")) {
        Ok(Some(yaml)) => std::fs::write(path, yaml).map_err(|e| {
            eprintln!("qicc: cannot write the witness {}: {e}", path.display());
            crate::EXIT_INPUT_ERROR
        }),
        Ok(None) => {
            eprintln!(
                "qicc: no witness written to {}: the answer is {}",
                path.display(),
                report.verdict.as_str()
            );
            Ok(())
        }
        Err(e) => {
            eprintln!("qicc: {e}");
            Err(crate::EXIT_INPUT_ERROR)
        }
    }
}

/// How long an engine may overrun the deadline or a Ctrl-C before it is abandoned: the
/// answer comes within 1.5 s of the deadline on a busy machine (this; then printing, and
/// the exit, which frees a large solver context's memory).
const GRACE: Duration = Duration::from_millis(800);

/// Runs the verification on a worker thread and returns its report — or, if the engine does
/// not stop within [`GRACE`] of the deadline or of a Ctrl-C (a solver call deep in
/// preprocessing may not look at its interrupt flag for a while), an UNKNOWN report at once.
/// The abandoned worker ends with the process.
fn verify_with_deadline(
    loaded: qicc_driver::Loaded,
    opts: VerifyOptions,
    budget: &Budget,
) -> Report {
    let start = std::time::Instant::now();
    let loaded = Arc::new(loaded);
    let (tx, rx) = std::sync::mpsc::channel();
    {
        let (loaded, opts, budget) = (loaded.clone(), opts.clone(), budget.clone());
        std::thread::spawn(move || {
            let _ = tx.send(verify(&loaded, &opts, &budget));
        });
    }
    let mut cancelled_at = None;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(report) => return report,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                return abandoned_report(
                    &loaded,
                    &opts,
                    "internal error: the engine stopped without an answer",
                    start,
                )
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {}
        }
        let now = std::time::Instant::now();
        if budget.cancel.is_cancelled() && cancelled_at.is_none() {
            cancelled_at = Some(now);
        }
        if cancelled_at.is_some_and(|t| now >= t + GRACE) {
            let why = budget.cancel.reason().unwrap_or(StopReason::Cancelled);
            return abandoned_report(&loaded, &opts, why.describe(), start);
        }
        if budget.deadline.is_some_and(|d| now >= d + GRACE) {
            return abandoned_report(&loaded, &opts, StopReason::Timeout.describe(), start);
        }
    }
}

/// `--solver`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SolverArg {
    Z3,
    Bitwuzla,
}

/// `--signed-overflow`: undefined behaviour (C) or wrap-around (`-fwrapv`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum SignedOverflow {
    Ub,
    Wrap,
}

/// `FUNC:LOC:K` of `--unwindset` (LOC as `L5` or `5`).
fn parse_unwindset(s: &str) -> Result<(String, u32, u32), String> {
    let bad = || format!("`{s}` is not FUNC:LOC:K (e.g. main:L5:100)");
    let mut parts = s.rsplitn(3, ':');
    let k = parts.next().ok_or_else(bad)?;
    let loc = parts.next().ok_or_else(bad)?;
    let func = parts.next().filter(|f| !f.is_empty()).ok_or_else(bad)?;
    let loc: u32 = loc
        .strip_prefix('L')
        .unwrap_or(loc)
        .parse()
        .map_err(|_| bad())?;
    let k: u32 = k.parse().map_err(|_| bad())?;
    Ok((func.to_string(), loc, k))
}

#[cfg(test)]
mod tests {
    use super::parse_unwindset;

    #[test]
    fn unwindset_entries() {
        assert_eq!(parse_unwindset("main:L5:100"), Ok(("main".into(), 5, 100)));
        assert_eq!(parse_unwindset("f:7:0"), Ok(("f".into(), 7, 0)));
        for bad in ["main:L5", ":L5:3", "main:Lx:3", "main:L5:-1", ""] {
            assert!(parse_unwindset(bad).is_err(), "{bad}");
        }
    }
}
