//! Runs an engine on a loaded program and turns its answer into a [`Report`].
//!
//! The soundness gate lives here: an engine's violation becomes a FALSE verdict only after
//! [`qicc_interp::replay`] of its witness on the program the front-end produced reaches an
//! `error` edge of a property assertion (never of an undefined-behaviour check); otherwise the
//! verdict is UNKNOWN and says why. When a C compiler is present, the native replay
//! (`crate::confirm`) confirms every FALSE a second time, and decides alone only where the
//! interpreter's replay cannot finish. A TRUE verdict needs every assertion, UB checks included,
//! proven safe.

use crate::confirm::{self, Confirmer};
use crate::input::Loaded;
use crate::portfolio::{self, Found, Member, MemberKind};
use crate::report::{
    assertion_report, Argument, InternalError, Report, UbSummary, Verdict, Violation,
};
use qicc_engine::{AssertionStatus, Budget, EngineResult, LoopInvariant};
use qicc_interp::{trace, Outcome, RunConfig};
use qicc_ir::{AssertionId, Program, Witness};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// Bounded model checking with incremental deepening (`qicc-bmc`).
    Bmc,
    /// Qicc: gambling on regions of the Region Nesting Tree with the built-in verifier
    /// (`qicc-gamble`), with Impulse searching for deep counterexamples alongside.
    Qicc,
    /// Impulse alone: loop under-approximation, BMC at depth 2; finds bugs, proves nothing.
    Impulse,
    /// Corral: stratified inlining with call summaries (`qicc-corral`).
    Corral,
    /// Loop invariants (`qicc-invariants`): Houdini over candidates at loop heads, then the
    /// BMC on the program with its loops cut by them; proves, never finds.
    Invariants,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Bmc => "bmc",
            Engine::Qicc => "qicc",
            Engine::Impulse => "impulse",
            Engine::Corral => "corral",
            Engine::Invariants => "invariants",
        }
    }
}

pub type Progress = Arc<dyn Fn(&str) + Send + Sync>;

#[derive(Clone)]
pub struct VerifyOptions {
    pub engine: Engine,
    /// Fixed unwinding bound (no deepening).
    pub unwind: Option<u32>,
    /// Bounded mode (`--bound K`, see [`bounded_run`]): the answer "no violation within
    /// bound K" (never TRUE) unless a proof for every execution is found in the time.
    pub bound: Option<u32>,
    /// Cap for incremental deepening.
    pub max_unwind: Option<u32>,
    /// BMC: per-loop bounds (function, head location, bound).
    pub unwindset: Vec<(String, u32, u32)>,
    /// Corral: the last recursion bound (default: deepen up to `qicc_corral::DEFAULT_MAX_BOUND`).
    pub recursion_bound: Option<u32>,
    /// Corral: variable abstraction over the globals with hierarchical refinement.
    pub abstraction: bool,
    /// Corral: loops as tail-recursive procedures.
    pub loops_as_procedures: bool,
    /// BMC: write every solver query as SMT-LIB 2 to this file.
    pub dump_smt: Option<std::path::PathBuf>,
    pub all_violations: bool,
    /// Qicc: runs of the verifier at the same time (default: the number of cores).
    pub jobs: Option<usize>,
    /// Qicc: time limit of one run on a region.
    pub region_timeout: Option<std::time::Duration>,
    /// Qicc: assume interval facts at region heads.
    pub facts: bool,
    /// Qicc: the verifier X (`None`: the built-in bounded model checker).
    pub external: Option<qicc_external::ExternalBackend>,
    /// Qicc: run Impulse alongside, for deep counterexamples.
    pub impulse: bool,
    /// Qicc: run Corral alongside when static inlining of the program's calls blows up
    /// ([`qicc_corral::inlining_blows_up`]).
    pub corral: bool,
    /// Qicc: run the loop-invariant prover alongside when the program has a loop.
    pub invariants: bool,
    pub progress: Option<Progress>,
    /// Signed overflow wraps around (`gcc -fwrapv`): a counterexample through one is a
    /// FALSE. Default (C): undefined behaviour, so such a counterexample gives UNKNOWN.
    pub signed_overflow_wraps: bool,
    /// A counterexample may choose what body-less functions return and do (as if each were
    /// arbitrary): such a counterexample is a FALSE that says so. Default: it is no execution
    /// of the program as written (the real function may not behave so), so UNKNOWN, naming
    /// the functions.
    pub nondet_functions: bool,
    /// The C compiler of the native replay (`crate::native`).
    pub native: NativeCompiler,
    /// Qicc: the region runs as they finish (`qicc_gamble::GambleOptions::log`), which
    /// [`abandoned_report`] reports when the engine does not come back in time. Shared by
    /// clones of the options.
    pub attempt_log: qicc_gamble::AttemptLog,
    /// Qicc+X: also run X on the user's own files with X's options, beside the regions
    /// (`qicc_external::verify_original`; `--no-original-run` turns it off).
    pub x_on_original: bool,
    /// The user's files for that run; [`verify`] fills it in from what it loaded (only a
    /// program that starts at `main` is run so).
    pub original_files: Option<OriginalFiles>,
}

/// The C files a program was loaded from and their preprocessor options.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OriginalFiles {
    pub sources: Vec<std::path::PathBuf>,
    pub cflags: Vec<String>,
}

/// Which C compiler natively replays counterexamples.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum NativeCompiler {
    /// `gcc` or `cc` on the `PATH`, if there is one.
    #[default]
    Find,
    /// This one (a path that does not exist means no native replay, with the reason).
    Path(std::path::PathBuf),
    /// No native replay: the interpreter alone.
    Off,
}

impl NativeCompiler {
    fn native(&self, wraps: bool) -> Option<crate::native::Native> {
        match self {
            NativeCompiler::Find => crate::native::Native::find(wraps),
            NativeCompiler::Path(p) => Some(crate::native::Native {
                compiler: p.clone(),
                wraps,
                shifts: false,
                cflags: Vec::new(),
            }),
            NativeCompiler::Off => None,
        }
    }
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            engine: Engine::Qicc,
            unwind: None,
            bound: None,
            max_unwind: None,
            unwindset: Vec::new(),
            recursion_bound: None,
            abstraction: false,
            loops_as_procedures: false,
            dump_smt: None,
            all_violations: false,
            jobs: None,
            region_timeout: None,
            facts: true,
            signed_overflow_wraps: false,
            nondet_functions: false,
            external: None,
            impulse: true,
            corral: true,
            invariants: true,
            progress: None,
            native: NativeCompiler::Find,
            attempt_log: Default::default(),
            x_on_original: true,
            original_files: None,
        }
    }
}

/// An engine's answer plus what the report shows about how it was found.
struct EngineRun {
    result: EngineResult,
    /// Per assertion, what proved it (when the engine knows more than its own name).
    proved_by: BTreeMap<AssertionId, String>,
    /// Per assertion, the argument of its proof; `argument` for the others.
    arguments: BTreeMap<AssertionId, Argument>,
    argument: Option<Argument>,
    /// The loop invariants of the proofs whose argument is [`Argument::LoopInvariants`].
    invariants: Vec<LoopInvariant>,
    /// Qicc: every run of X, and how many runs included each assertion.
    attempts: Vec<qicc_gamble::Attempt>,
    tries: BTreeMap<AssertionId, usize>,
    /// Which run found `result.violation` (when the engine knows more than its own name).
    violation_by: Option<String>,
    /// Witnesses of violations of assertions the result says are safe, besides
    /// `result.violation`, with the run that found each: replayed only to report the
    /// contradiction.
    contradicting: Vec<(AssertionId, Witness, String)>,
}

impl EngineRun {
    /// The run of one engine that knows nothing beyond its result and the argument behind
    /// its proofs.
    fn of(result: EngineResult, argument: Option<Argument>) -> EngineRun {
        EngineRun {
            invariants: result.invariants.clone(),
            result,
            proved_by: BTreeMap::new(),
            arguments: BTreeMap::new(),
            argument,
            attempts: Vec::new(),
            tries: BTreeMap::new(),
            violation_by: None,
            contradicting: Vec::new(),
        }
    }
}

/// The driver's progress receiver as the solver engines take it (the BMC's and Corral's are
/// the same type).
fn progress_fn(opts: &VerifyOptions) -> Option<qicc_bmc::ProgressFn> {
    let p = opts.progress.clone()?;
    Some(Box::new(move |s: &str| p(s)))
}

fn run_engine(
    program: &Program,
    opts: &VerifyOptions,
    confirmer: &Confirmer,
    budget: &Budget,
) -> EngineRun {
    if let Some(k) = opts.bound {
        return bounded_run(program, opts, confirmer, budget, k);
    }
    match opts.engine {
        Engine::Bmc => {
            let mut bmc = qicc_bmc::BmcOptions {
                unwind: opts.unwind,
                loop_unwind: opts.unwindset.clone(),
                dump_smt: opts.dump_smt.clone(),
                all_violations: opts.all_violations,
                ..Default::default()
            };
            if let Some(m) = opts.max_unwind {
                bmc.max_unwind = m;
            }
            bmc.progress = progress_fn(opts);
            let r = qicc_bmc::verify(program, &bmc, budget);
            let bound = r.stats.bound;
            EngineRun::of(r, Some(Argument::CompleteUnwinding { bound }))
        }
        // Impulse never proves: no argument.
        Engine::Impulse => EngineRun::of(
            qicc_impulse::verify(program, &qicc_impulse::ImpulseOptions::default(), budget),
            None,
        ),
        Engine::Corral => {
            let mut corral = qicc_corral::CorralOptions {
                abstraction: opts.abstraction,
                loops_as_procedures: opts.loops_as_procedures,
                ..Default::default()
            };
            if let Some(r) = opts.recursion_bound {
                corral.max_bound = r;
            }
            corral.progress = progress_fn(opts);
            let r = qicc_corral::verify(program, &corral, budget);
            let arg = corral_argument(&r);
            EngineRun::of(r, Some(arg))
        }
        Engine::Invariants => {
            let r = qicc_invariants::verify(program, budget);
            let arg = invariants_argument(&r);
            EngineRun::of(r, Some(arg))
        }
        Engine::Qicc => {
            let (g, mut members) = qicc_portfolio(program, opts, budget);
            if confirmer.has_compiler() && confirm::without_inputs(program) {
                members.push(Member {
                    name: NATIVE,
                    proves: None,
                    kind: MemberKind::Bet,
                    run: Box::new(|b: &Budget| confirmer.deterministic_member(b)),
                });
            }
            let confirmed = |w: &Witness| confirms(program, opts, confirmer, w);
            let (r, found) = portfolio::run(program, &g, members, &confirmed, budget);
            gamble_run(program, r, found, &confirmed)
        }
    }
}

/// Bounded mode: first the search of every execution within bound `k` (the BMC at unwind
/// `k`, bounded: a violation there, a complete unwinding, or "safe within `k`" for each
/// assertion no such execution reaches); then, when something is only safe within the bound
/// and the chosen engine can prove (every engine but `bmc`, whose proof at `k` was the
/// complete unwinding, and Impulse, which never proves), that engine in the time left: its
/// proofs and replayed violations replace the bounded statuses, which stay for the rest.
fn bounded_run(
    program: &Program,
    opts: &VerifyOptions,
    confirmer: &Confirmer,
    budget: &Budget,
    k: u32,
) -> EngineRun {
    let mut bmc = qicc_bmc::BmcOptions {
        unwind: Some(k),
        bounded: true,
        all_violations: opts.all_violations,
        ..Default::default()
    };
    bmc.progress = progress_fn(opts);
    let first = qicc_bmc::verify(program, &bmc, budget);
    let within = |st: &AssertionStatus| matches!(st, AssertionStatus::SafeWithin(_));
    let bounded_only = first.statuses.iter().any(|(_, st)| within(st));
    let proves = !matches!(opts.engine, Engine::Bmc | Engine::Impulse);
    let bound = first.stats.bound;
    let first = EngineRun::of(first, Some(Argument::CompleteUnwinding { bound }));
    if first.result.violation.is_some() || !bounded_only || !proves || budget.exhausted().is_some()
    {
        return first;
    }
    let full = VerifyOptions {
        bound: None,
        ..opts.clone()
    };
    let mut run = run_engine(program, &full, confirmer, budget);
    if run.result.violation.is_some() {
        // A violation beyond the bound: the report replays it like any other.
        return run;
    }
    let mut left = false;
    for (a, st) in run.result.statuses.iter_mut() {
        if matches!(st, AssertionStatus::Unknown(_)) {
            if let Some((_, b)) = first.result.statuses.iter().find(|(x, _)| x == a) {
                if within(b) {
                    *st = b.clone();
                    left = true;
                }
            }
        }
    }
    if left {
        run.result.reason = first.result.reason.clone();
    }
    run
}

/// The default engine's gamble options and members. The gamble and the loop-invariant
/// member share one [`qicc_engine::HeadFacts`] slot: the member publishes its proven
/// invariants there when its Houdini finishes, and every region run the gamble starts after
/// that assumes those at its head.
fn qicc_portfolio<'a>(
    program: &'a Program,
    opts: &VerifyOptions,
    budget: &Budget,
) -> (qicc_gamble::GambleOptions, Vec<Member<'a>>) {
    let backend = match &opts.external {
        Some(tool) => qicc_gamble::Backend::External {
            tool: tool.clone(),
            unwind: opts.unwind,
        },
        None => qicc_gamble::Backend::Builtin(qicc_gamble::BuiltinOptions {
            unwind: opts.unwind,
            max_unwind: opts.max_unwind,
        }),
    };
    let mut g = qicc_gamble::GambleOptions {
        backend,
        region_timeout: opts.region_timeout,
        facts: opts.facts,
        all_violations: opts.all_violations,
        progress: opts.progress.clone(),
        log: opts.attempt_log.clone(),
        ..Default::default()
    };
    let heads = g.head_facts.clone();
    if let Some(j) = opts.jobs {
        g.jobs = j.max(1);
    }
    let mut members = Vec::new();
    let invariants = opts.invariants && has_loop(program);
    // The invariant prover gets a core of its own until its Houdini is done (for at most
    // HOUDINI_HEAD_START once it has started, a bet's head start after the gamble), unless
    // the user chose the number of runs. Its first query over every check at once must answer
    // within vc's ALL_AT_ONCE, on a loaded core it does not (MADWiFi-encode_ie_ok: 9 s
    // instead of 3).
    let head_start = budget_share(budget, HOUDINI_HEAD_START);
    g.spare_core_for_facts =
        (invariants && opts.jobs.is_none()).then_some(head_start + portfolio::BET_HEAD_START);
    if opts.impulse {
        // Impulse only finds violations: on a machine with few cores, running from the start
        // it takes the CPU a quick proof needs. It waits until the invariant prover's Houdini
        // is done, at most HOUDINI_HEAD_START (a tenth of the budget at most).
        let wait = invariants.then_some(head_start);
        let houdini = heads.clone();
        members.push(Member {
            name: IMPULSE,
            proves: None,
            kind: MemberKind::Bet,
            run: Box::new(move |b: &Budget| {
                if let Some(wait) = wait {
                    b.wait(Some(wait), || houdini.is_finished());
                }
                qicc_impulse::verify(program, &qicc_impulse::ImpulseOptions::default(), b)
            }),
        });
    }
    if let (Some(tool), Some(files)) = (&opts.external, &opts.original_files) {
        if qicc_external::runs_on_original(tool.tool) {
            // X on the user's files is the whole-program run: X on the emitted whole program
            // beside it would only halve its CPU on two cores (ESBMC 0.37 s alone, 0.72 s
            // beside its twin). The emitted root still runs when the regions climb to it.
            g.early_root = false;
            let tool = tool.clone();
            let files = files.clone();
            let unwind = opts.unwind;
            // Set when X's run on the files ends: whether it proved every property assertion.
            let proved: Arc<OnceLock<bool>> = Arc::default();
            let publish = proved.clone();
            members.push(Member {
                name: original_run_name(tool.tool),
                proves: Some(|r: &EngineResult| Argument::Tool {
                    tool: r.stats.backend.clone().unwrap_or_default(),
                }),
                kind: MemberKind::WholeProgram,
                run: Box::new(move |b: &Budget| {
                    let r = qicc_external::verify_original(
                        &tool,
                        &files.sources,
                        &files.cflags,
                        program,
                        b,
                        unwind,
                    );
                    let r = with_confirmed_violation(r, program, b);
                    let _ = publish.set(r.statuses.iter().all(|(a, s)| {
                        *s == AssertionStatus::Safe || !program.assertion(*a).kind.is_property()
                    }));
                    r
                }),
            });
            if program.assertions.iter().any(|a| !a.kind.is_property()) {
                let builtin = qicc_gamble::GambleOptions {
                    backend: qicc_gamble::Backend::Builtin(qicc_gamble::BuiltinOptions {
                        unwind: opts.unwind,
                        max_unwind: opts.max_unwind,
                    }),
                    facts: opts.facts,
                    head_facts: heads.clone(),
                    ..Default::default()
                };
                members.push(ub_checks_member(program, proved, builtin));
            }
        }
    }
    if opts.corral && qicc_corral::inlining_blows_up(program) {
        members.push(Member {
            name: CORRAL,
            proves: Some(corral_argument),
            kind: MemberKind::Bet,
            run: Box::new(|b: &Budget| {
                qicc_corral::verify(program, &qicc_corral::CorralOptions::default(), b)
            }),
        });
    }
    if invariants {
        members.push(Member {
            name: INVARIANTS,
            proves: Some(invariants_argument),
            kind: MemberKind::BetAtNormalPriority,
            run: Box::new(move |b: &Budget| {
                // Its Houdini runs beside the whole-program run at normal priority (on two
                // cores a bet's share starved it: seeds/two_sum_variable's invariants took
                // over 10 s instead of 2), for at most half of the time (its stage of sampled
                // candidates, polynomial equalities on nested loops, ends after 3-4 s: a
                // third starved it at 10 s); then, and for k-induction, it is a bet.
                let finished = heads.clone();
                let half = b.remaining().map_or(Duration::from_secs(30), |r| r / 2);
                let _demote =
                    qicc_engine::priority::demote_later(move || finished.is_finished(), half);
                qicc_invariants::verify_publishing(program, b, &heads)
            }),
        });
    }
    (g, members)
}

/// qicc's undefined-behaviour checks under Qicc+X, once X has proven every property assertion
/// on the user's files (`proved`): those checks are qicc's semantics, which X does not know,
/// so Qicc with qicc's own verifier (`builtin`: gambling on the regions, the whole program
/// last, loop invariants shared through the head facts) settles them in the time left, at
/// normal priority (X's run has ended). A whole-program unwinding alone cannot prove a check
/// inside a loop with no bound (qicc-study's pointer_alias kernels: ESBMC proves the assertion
/// in 0.4 s, the checks stayed open); a region run proves them with the region's facts. Before
/// that, or when X's run proved less, it does nothing: the regions' runs of X on emitted C
/// settle them as before.
fn ub_checks_member(
    program: &Program,
    proved: Arc<OnceLock<bool>>,
    builtin: qicc_gamble::GambleOptions,
) -> Member<'_> {
    Member {
        name: UB_CHECKS,
        proves: Some(|_: &EngineResult| Argument::Region),
        kind: MemberKind::WholeProgram,
        run: Box::new(move |b: &Budget| {
            b.wait(None, || proved.get().is_some());
            if proved.get() != Some(&true) {
                let why =
                    "the external verifier did not prove the assertions on the program's own files";
                return EngineResult::unknown(program, why, Default::default());
            }
            qicc_gamble::verify(program, &builtin, b).result
        }),
    }
}

/// How the report names the built-in engine's run on qicc's undefined-behaviour checks under
/// Qicc+X.
const UB_CHECKS: &str =
    "qicc's own verifier on its undefined-behaviour checks (after the external verifier's proof)";

/// How reports name X's run on the user's own files.
fn original_run_name(tool: qicc_external::Tool) -> &'static str {
    match tool {
        qicc_external::Tool::Cbmc => "cbmc on the original program",
        qicc_external::Tool::Esbmc => "esbmc on the original program",
        qicc_external::Tool::Ultimate => "ultimate on the original program",
    }
}

/// `r` with a violation it could not replay re-checked by the built-in engine
/// ([`qicc_gamble::backend::confirm_at_root`]); only that engine's violation is taken (its
/// proofs are not X's, which the member's argument would claim).
fn with_confirmed_violation(r: EngineResult, program: &Program, budget: &Budget) -> EngineResult {
    if r.unconfirmed_violations.is_empty() {
        return r;
    }
    let c = qicc_gamble::backend::confirm_at_root(r.clone(), program, false, budget);
    match c.violation {
        Some((a, w)) => {
            let mut r = r;
            for (id, st) in r.statuses.iter_mut() {
                if *id == a {
                    *st = AssertionStatus::Violated;
                }
            }
            r.unconfirmed_violations.retain(|u| *u != a);
            r.violation = Some((a, w));
            r.reason = None;
            r
        }
        None => c,
    }
}

/// The head start of the invariant prover's Houdini, before Impulse runs and while the
/// gamble leaves it a core: at most this long, and at most a tenth of the time left.
const HOUDINI_HEAD_START: Duration = Duration::from_millis(1000);

/// `cap`, or a tenth of what `budget` has left when that is less.
fn budget_share(budget: &Budget, cap: Duration) -> Duration {
    budget.remaining().map_or(cap, |r| cap.min(r / 10))
}

/// Impulse's name in reports, as a member of the portfolio.
const IMPULSE: &str = "impulse (run alongside the region search)";
/// Corral's name in reports, as a member of the portfolio.
const CORRAL: &str = "corral (run alongside the region search)";
/// The native run of a program without inputs, as a member of the portfolio.
const NATIVE: &str = "native run of the program (it has no input)";
/// The loop-invariant prover's name in reports, as a member of the portfolio.
const INVARIANTS: &str = "loop invariants (run alongside the region search)";

/// The argument of Corral's proofs.
fn corral_argument(r: &EngineResult) -> Argument {
    Argument::StratifiedInlining {
        recursion_bound: r.stats.recursion_bound,
    }
}

/// The argument of the invariant prover's proofs: the invariants, with k-induction when it
/// proved something.
fn invariants_argument(r: &EngineResult) -> Argument {
    match r.stats.k_induction {
        Some(k) => Argument::KInduction { k },
        None => Argument::LoopInvariants,
    }
}

/// Whether some function of `program` has a natural loop (the invariant prover cuts those).
fn has_loop(program: &Program) -> bool {
    program.functions.iter().any(|f| {
        !qicc_analysis::FunctionGraph::new(f)
            .natural_loops
            .is_empty()
    })
}

/// The answer of Qicc: the gamble's result with the members' proofs and violations combined
/// in ([`portfolio::combine`]), and which region (or member) proved each assertion.
fn gamble_run(
    program: &Program,
    mut r: qicc_gamble::GambleResult,
    found: Vec<Found>,
    confirmed: &dyn Fn(&Witness) -> bool,
) -> EngineRun {
    let combined = portfolio::combine(&mut r, found, confirmed);
    let mut proved_by: BTreeMap<AssertionId, String> = program
        .assertion_ids()
        .filter_map(|a| r.proved_in(a).map(|n| (a, n)))
        .collect();
    let mut arguments = BTreeMap::new();
    // Only assertions the prover had not proven are listed: the member's proof is the one.
    for (a, by, argument) in combined.proved_by {
        proved_by.insert(a, by);
        arguments.extend(argument.map(|g| (a, g)));
    }
    let (violation_by, contradicting) = (combined.violation_by, combined.contradicting);
    let tries = r
        .history
        .iter()
        .map(|h| (AssertionId(h.assertion), h.attempts))
        .collect();
    EngineRun {
        result: r.result,
        proved_by,
        arguments,
        // What the gamble proved, a run on a region proved.
        argument: Some(Argument::Region),
        invariants: combined.invariants,
        attempts: r.attempts,
        tries,
        violation_by,
        contradicting,
    }
}

pub fn verify(loaded: &Loaded, opts: &VerifyOptions, budget: &Budget) -> Report {
    let start = Instant::now();
    let answered_before = qicc_smt::checks_answered();
    let confirmer = confirmer(loaded, opts);
    let with_files;
    let mut opts = opts;
    // X on the user's files checks unreach-call in X's own configuration: for another
    // property it would prove or refute reach_error(), not that property.
    if opts.external.is_some()
        && opts.x_on_original
        && starts_at_main(&loaded.program)
        && loaded.property.is_unreach_call()
    {
        with_files = VerifyOptions {
            original_files: Some(OriginalFiles {
                sources: loaded.sources.clone(),
                cflags: loaded.cflags.clone(),
            }),
            ..opts.clone()
        };
        opts = &with_files;
    }
    // X on the user's files is the whole-program run, a process of its own, and its
    // counterexample is confirmed natively as soon as it is found: the program is compiled
    // for that meanwhile, on the core the bets share (a FALSE of X's otherwise waits for the
    // compiler: 0.15-0.2 s, half of what ESBMC takes on a quick task). Stopped, and not kept,
    // when the engines finish first.
    let prebuild = opts.original_files.is_some() && confirmer.has_compiler();
    let stop = budget.child(None);
    let run = std::thread::scope(|scope| {
        if prebuild {
            let stop = &stop;
            let confirmer = &confirmer;
            scope.spawn(move || {
                qicc_engine::priority::lower_this_thread(qicc_engine::priority::BET_NICE);
                confirmer.prebuild(stop)
            });
        }
        let run = run_engine(&loaded.program, opts, &confirmer, budget);
        stop.cancel.cancel();
        run
    });
    report(loaded, opts, &confirmer, run, (start, &answered_before))
}

/// The solver in the stats: the back-end engines were given (`solver`: name and version)
/// and how many checks each back-end decided since `before` was counted (`solver_checks`,
/// by back-end name; counted process-wide, so concurrent verifications in one process share
/// their counts).
fn solver_stats(
    stats: &mut serde_json::Map<String, serde_json::Value>,
    before: &[(qicc_smt::SolverKind, u64)],
) {
    stats.insert("solver".into(), qicc_smt::solver_kind().version().into());
    let after = qicc_smt::checks_answered();
    let checks: serde_json::Map<String, serde_json::Value> = after
        .iter()
        .map(|&(k, n)| {
            let was = before.iter().find(|(b, _)| *b == k).map_or(0, |&(_, m)| m);
            (k.name().to_string(), n.saturating_sub(was).into())
        })
        .collect();
    stats.insert("solver_checks".into(), checks.into());
}

/// The report of a run that did not come back in time (the engine is abandoned): every
/// assertion unknown, with `reason`, and the region runs that had finished
/// (`VerifyOptions::attempt_log`).
pub fn abandoned_report(
    loaded: &Loaded,
    opts: &VerifyOptions,
    reason: &str,
    start: Instant,
) -> Report {
    let result = EngineResult::unknown(&loaded.program, reason, Default::default());
    let confirmer = Confirmer::new(&loaded.program, &loaded.sources, None);
    let mut run = EngineRun::of(result, None);
    run.attempts = opts
        .attempt_log
        .lock()
        .map(|log| log.clone())
        .unwrap_or_default();
    run.tries = qicc_gamble::tries(&run.attempts);
    if opts.engine == Engine::Qicc {
        run.result.stats.regions_tried = Some(run.attempts.len() as u64);
    }
    // The checks counted since the process started: the CLI's one verification.
    report(loaded, opts, &confirmer, run, (start, &[]))
}

/// Whether the program's entry is the C program's `main` (not `--function NAME`'s wrapper):
/// only then do the user's files, compiled or given to another tool, run the same program.
fn starts_at_main(p: &Program) -> bool {
    p.functions
        .get(p.entry.index())
        .is_some_and(|f| f.name == "main")
}

fn confirmer<'a>(loaded: &'a Loaded, opts: &VerifyOptions) -> Confirmer<'a> {
    // The compiled program starts at `main`: from another entry (`--function`) it would run
    // something else, so only the interpreter replays.
    let from_main = starts_at_main(&loaded.program);
    // Checking no-overflow, the native run must trap on a signed overflow whatever
    // `--signed-overflow` says: that trap is how it confirms one.
    use qicc_frontend::task::Property;
    let wraps = opts.signed_overflow_wraps && !loaded.property.contains(Property::NoOverflow);
    // A memory-safety violation does not show in a native run (an invalid read returns
    // something, a leak ends quietly), nor does a conversion that changes a value (gcc has
    // no sanitizer for it): only the interpreter confirms one.
    let memory =
        loaded.property.memory().is_some() || loaded.property.contains(Property::Conversion);
    let native = opts
        .native
        .native(wraps)
        .filter(|_| from_main && !memory)
        .map(|n| crate::native::Native {
            cflags: loaded.cflags.clone(),
            shifts: loaded.property.contains(Property::NoOverflow),
            ..n
        });
    Confirmer::new(&loaded.program, &loaded.sources, native)
}

/// Whether a witness is a counterexample the report will give as FALSE: its replay reaches a
/// property assertion, as a C execution (no signed overflow on the way, unless it wraps), and
/// a faithful native replay does not disagree; or the interpreter could not finish and the
/// native replay reached the error (`crate::confirm`).
fn confirms(
    program: &Program,
    opts: &VerifyOptions,
    confirmer: &Confirmer,
    witness: &Witness,
) -> bool {
    let c = confirmer.check(witness);
    if c.disagreement(program).is_some() {
        return false;
    }
    let run = &c.run;
    let interp = matches!(run.outcome, Outcome::ErrorReached { assertion }
        if program.assertion(assertion).kind.is_property()
            && (opts.signed_overflow_wraps || run.signed_overflow.is_none()));
    interp || (run.signed_overflow.is_none() && c.native_only(None).is_some())
}

/// How long the replay of a reachable undefined behaviour's run may take (its trace is shown
/// when it finishes in time).
const UB_TRACE_TIME: Duration = Duration::from_secs(2);

/// `since`: when the verification started, and the solver checks counted then.
fn report(
    loaded: &Loaded,
    opts: &VerifyOptions,
    confirmer: &Confirmer,
    run: EngineRun,
    since: (Instant, &[(qicc_smt::SolverKind, u64)]),
) -> Report {
    let (start, answered_before) = since;
    let program = &loaded.program;
    let EngineRun {
        result,
        proved_by: engine_proofs,
        arguments,
        argument,
        invariants,
        attempts,
        tries,
        violation_by,
        contradicting,
    } = run;

    let status_of = |id: AssertionId| -> AssertionStatus {
        result
            .statuses
            .iter()
            .find(|(a, _)| *a == id)
            .map(|(_, s)| s.clone())
            .unwrap_or_else(|| AssertionStatus::Unknown("not checked".into()))
    };

    let mut violation = None;
    let mut verdict;
    let mut bounded = None;
    let mut reason = result.reason.clone();
    let mut replay_failed = None;
    // The counterexample reaches the violation only after a signed overflow (its location).
    let mut overflow_only: Option<String> = None;
    // A replayed violation of an assertion the engine proved safe: one of the two runs is
    // unsound. Never resolved silently (ARCHITECTURE.md, "Engines and verdicts").
    let mut internal_error: Option<InternalError> = None;
    let contradiction = |reached: AssertionId, by: &str, run: &qicc_interp::Run| {
        let a = program.assertion(reached);
        let proved_safe_by = engine_proofs
            .get(&reached)
            .cloned()
            .unwrap_or_else(|| opts.engine.name().to_string());
        InternalError {
            message: format!(
                "contradictory results for assertion {} at {}: proven safe by {proved_safe_by}, \
                 but {by} found a violation that replays on the program",
                program.assertion_label(reached),
                program.span_str(a.span)
            ),
            assertion: reached.0,
            proved_safe_by,
            violated_by: by.to_string(),
            trace: trace(program, run),
        }
    };
    let engine_name = opts.engine.name().to_string();
    for (_, witness, by) in &contradicting {
        let run = &confirmer.check(witness).run;
        if let Outcome::ErrorReached { assertion } = run.outcome {
            if status_of(assertion) == AssertionStatus::Safe && internal_error.is_none() {
                internal_error = Some(contradiction(assertion, by, run));
            }
        }
    }
    // The native replay's verdict where the interpreter could not finish, or its
    // disagreement with the interpreter's (`crate::confirm`).
    if let Some((claimed, witness)) = &result.violation {
        let c = confirmer.check(witness);
        let run = &c.run;
        let native_only = c
            .native_only(Some(*claimed))
            .filter(|_| run.signed_overflow.is_none());
        if let Some(why) = c.disagreement(program) {
            internal_error.get_or_insert_with(|| InternalError {
                message: format!("the replays of the counterexample disagree: {why}"),
                assertion: claimed.0,
                proved_safe_by: "native replay".into(),
                violated_by: "interpreter replay".into(),
                trace: trace(program, run),
            });
        }
        if let Some(assertion) = native_only {
            if status_of(assertion) == AssertionStatus::Safe {
                let by = violation_by.as_deref().unwrap_or(&engine_name);
                internal_error.get_or_insert_with(|| contradiction(assertion, by, run));
            }
            let mut v = Violation::new(assertion.0, trace(program, run));
            v.found_by = violation_by.clone();
            violation = Some(v);
            reason = Some(format!(
                "assertion {} at {} violated: confirmed by native replay (the \
                     interpreter's replay stopped after {} steps: {})",
                program.assertion_label(assertion),
                program.span_str(program.assertion(assertion).span),
                run.step_count,
                run.outcome
            ));
        } else {
            match run.outcome {
                Outcome::ErrorReached { assertion }
                    if status_of(assertion) == AssertionStatus::Safe =>
                {
                    let by = violation_by.as_deref().unwrap_or(&engine_name);
                    internal_error.get_or_insert_with(|| contradiction(assertion, by, run));
                }
                Outcome::ErrorReached { assertion }
                    if program.assertion(assertion).kind.is_property()
                        && !opts.signed_overflow_wraps
                        && run.signed_overflow.is_some() =>
                {
                    // C leaves the rest of this execution undefined: not a counterexample.
                    overflow_only = run
                        .signed_overflow
                        .map(|(f, e)| program.span_str(program.function(f).edge(e).span));
                }
                Outcome::ErrorReached { assertion }
                    if program.assertion(assertion).kind.is_property() =>
                {
                    let mut v = Violation::new(assertion.0, trace(program, run));
                    v.tool_witness = result.tool_witness.clone();
                    v.found_by = violation_by.clone();
                    violation = Some(v);
                    if assertion != *claimed {
                        reason = Some(format!(
                            "the witness for assertion {claimed} replays to assertion {assertion}"
                        ));
                    }
                }
                ref other => replay_failed = Some(format!("{other:?}")),
            }
        }
    }

    // A counterexample that chose what a body-less function returns or does is no execution
    // of the program as written, unless the user says those functions are arbitrary.
    let mut bodyless_only: Option<Vec<String>> = None;
    if !opts.nondet_functions {
        if let Some(v) = violation.take_if(|v| !v.assumes_bodyless.is_empty()) {
            bodyless_only = Some(v.assumes_bodyless);
        }
    }

    let mut assertions = Vec::new();
    let mut ub = UbSummary {
        checks: 0,
        safe: 0,
        open: Vec::new(),
    };
    let mut all_safe = true;
    // Bounded mode: every assertion safe or safe within a bound (the smallest one).
    let mut all_within = true;
    let mut within: Option<u32> = None;
    let mut invariants_used = false;
    for id in program.assertion_ids() {
        let mut status = status_of(id);
        if internal_error.as_ref().is_some_and(|e| e.assertion == id.0) {
            status = AssertionStatus::Unknown(
                "contradictory results (internal error): proven safe, and violated by a \
                 replayed witness"
                    .into(),
            );
        }
        if status == AssertionStatus::Violated && overflow_only.is_some() {
            status = AssertionStatus::Unknown(
                "violated only through a signed overflow (undefined in C)".into(),
            );
        } else if status == AssertionStatus::Violated && bodyless_only.is_some() {
            status = AssertionStatus::Unknown(
                "violated only through choices for body-less functions".into(),
            );
        } else if status == AssertionStatus::Violated
            && violation.as_ref().map(|v| v.assertion) != Some(id.0)
        {
            // Only the replayed violation is reported as such.
            status = AssertionStatus::Unknown("violation not replayed".into());
        }
        match status {
            AssertionStatus::Safe => {}
            AssertionStatus::SafeWithin(k) => {
                all_safe = false;
                within = Some(within.map_or(k, |w| w.min(k)));
            }
            _ => {
                all_safe = false;
                all_within = false;
            }
        }
        let proved_by = (status == AssertionStatus::Safe).then(|| {
            engine_proofs
                .get(&id)
                .filter(|by| !by.is_empty())
                .cloned()
                .unwrap_or_else(|| opts.engine.name().to_string())
        });
        let mut rep = assertion_report(program, id, &status, proved_by);
        if status == AssertionStatus::Safe {
            rep.argument = arguments.get(&id).or(argument.as_ref()).cloned();
            rep.argument_text = rep.argument.as_ref().map(|a| a.to_string());
        }
        // The invariants are shown when a proof in the report stands on them.
        invariants_used |= matches!(
            rep.argument,
            Some(Argument::LoopInvariants | Argument::KInduction { .. })
        );
        rep.tries = tries.get(&id).copied();
        if program.assertion(id).kind.is_property() {
            assertions.push(rep);
        } else {
            ub.checks += 1;
            if status == AssertionStatus::Safe {
                ub.safe += 1;
            } else {
                ub.open.push(rep);
            }
        }
    }

    if let Some(e) = &internal_error {
        verdict = Verdict::Unknown;
        reason = Some(format!("internal error: {}", e.message));
        violation = None;
    } else if let Some(v) = &violation {
        verdict = Verdict::False;
        let a = program.assertion(AssertionId(v.assertion));
        reason.get_or_insert_with(|| {
            format!(
                "assertion {} at {} violated{}",
                program.assertion_label(AssertionId(v.assertion)),
                program.span_str(a.span),
                a.text
                    .as_deref()
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default()
            )
        });
    } else if let Some(fns) = bodyless_only {
        verdict = Verdict::Unknown;
        reason = Some(format!(
            "the counterexample depends on the behaviour of body-less functions {}: give \
             their definitions, or --nondet-functions to treat them as arbitrary",
            fns.iter()
                .map(|f| format!("'{f}'"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    } else if let Some(at) = overflow_only {
        verdict = Verdict::Unknown;
        reason = Some(format!(
            "the counterexample reaches the violation only after a signed overflow at {at}, \
             which C leaves undefined (--signed-overflow wrap accepts it)"
        ));
    } else if let Some(why) = replay_failed {
        verdict = Verdict::Unknown;
        reason = Some(format!(
            "the engine's counterexample did not replay on the original program ({why})"
        ));
    } else if all_safe {
        verdict = Verdict::True;
        reason = None;
    } else if let (true, Some(k)) = (all_within, within) {
        verdict = Verdict::Bounded;
        bounded = Some(k);
        reason = Some(match result.reason.as_deref() {
            Some(cut) if cut.starts_with("no violation within bound") => cut.to_string(),
            _ => format!("no violation within bound {k}"),
        });
    } else {
        verdict = Verdict::Unknown;
        if reason.is_none() {
            reason = Some(match ub.open.first() {
                Some(u) if assertions.iter().all(|a| a.status == "safe") => format!(
                    "possible undefined behaviour ({}) at {}:{}:{}",
                    u.kind, u.file, u.line, u.col
                ),
                _ => "not all assertions were decided".into(),
            });
        }
    }
    if program.assertions.iter().all(|a| !a.kind.is_property()) && verdict == Verdict::True {
        reason = Some(loaded.property.vacuous());
        verdict = Verdict::True;
    }

    // Reachable undefined behaviour makes the verdict UNKNOWN; the engine's run that reaches
    // it, replayed here, is the report's trace (its `assertion` is the check, never a
    // property: the verdict stays what it is).
    if verdict == Verdict::Unknown && violation.is_none() && internal_error.is_none() {
        if let Some((_, w)) = &result.ub_witness {
            let run = qicc_interp::replay(
                program,
                w,
                &RunConfig {
                    max_steps: 10_000_000,
                    record_trace: true,
                    deadline: Some(Instant::now() + UB_TRACE_TIME),
                    ..RunConfig::default()
                },
            );
            if let Outcome::ErrorReached { assertion } = run.outcome {
                if !program.assertion(assertion).kind.is_property() {
                    violation = Some(Violation::new(assertion.0, trace(program, &run)));
                }
            }
        }
    }

    let mut stats = result.stats.to_json();
    stats.insert(
        "time_ms".into(),
        (start.elapsed().as_millis() as u64).into(),
    );
    // Present whatever the outcome, as every key of the report (null when unknown).
    stats.insert(
        "peak_rss_kib".into(),
        qicc_engine::memory::peak_rss_kib().into(),
    );
    solver_stats(&mut stats, answered_before);
    Report {
        verdict,
        reason,
        bounded,
        file: loaded
            .sources
            .first()
            .map(|s| s.display().to_string())
            .unwrap_or_default(),
        files: loaded
            .sources
            .iter()
            .map(|s| s.display().to_string())
            .collect(),
        task: loaded.task.as_ref().map(|t| t.path.display().to_string()),
        expected_verdict: loaded.task.as_ref().and_then(|t| t.expected_verdict),
        property: loaded.property.clone(),
        violated_property: violation
            .as_ref()
            .filter(|_| verdict == Verdict::False)
            .map(|v| {
                loaded
                    .property
                    .violated_name(program.assertion(AssertionId(v.assertion)).kind)
            }),
        engine: opts.engine.name().to_string(),
        data_model: program.data_model.name(),
        assertions,
        ub_checks: ub,
        violation,
        internal_error,
        warnings: loaded.warnings.iter().map(|w| w.to_string()).collect(),
        attempts,
        // Under FALSE the counterexample is the answer: proofs of other assertions do not
        // need their invariants shown.
        invariants: if invariants_used && verdict != Verdict::False {
            invariants
        } else {
            Vec::new()
        },
        regions: crate::report::region_nodes(program),
        stats,
        labels: program
            .assertions
            .iter()
            .enumerate()
            .map(|(i, _)| (i as u32, program.assertion_label(AssertionId(i as u32))))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{load, LoadOptions};
    use qicc_gamble::{AssertionHistory, GambleResult};

    const PROGRAM: &str = "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assert(x != 5);
  return 0;
}
";

    fn loaded() -> Loaded {
        loaded_from(PROGRAM)
    }

    fn loaded_from(source: &str) -> Loaded {
        // A directory per call: the tests run in parallel threads of one process, and one
        // test reading the file while another rewrites it fails to lower it.
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir =
            std::env::temp_dir().join(format!("qicc-driver-merge-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.c");
        std::fs::write(&path, source).unwrap();
        load(
            std::slice::from_ref(&path),
            &LoadOptions {
                ub_checks: true,
                ..Default::default()
            },
        )
        .expect("the program lowers")
    }

    /// The report of `run` with the default options (and the native replay beside the
    /// interpreter's when a compiler is present).
    fn report_of(l: &Loaded, run: EngineRun) -> Report {
        let opts = VerifyOptions::default();
        let confirmer = confirmer(l, &opts);
        report(l, &opts, &confirmer, run, (Instant::now(), &[]))
    }

    /// A real witness of the violation (from the bounded model checker).
    fn witness(l: &Loaded) -> (AssertionId, Witness) {
        let r = qicc_bmc::verify(&l.program, &Default::default(), &Budget::unlimited());
        r.violation.expect("x == 5 violates the assertion")
    }

    /// A gamble result in which every assertion was proven in a region.
    fn gamble(l: &Loaded, own: Option<(AssertionId, Witness)>) -> GambleResult {
        let ids: Vec<AssertionId> = l.program.assertion_ids().collect();
        GambleResult {
            result: EngineResult {
                statuses: ids.iter().map(|a| (*a, AssertionStatus::Safe)).collect(),
                violation: own.clone(),
                unconfirmed_violations: Vec::new(),
                ub_witness: None,
                tool_witness: None,
                invariants: Vec::new(),
                reason: None,
                stats: Default::default(),
            },
            attempts: Vec::new(),
            history: ids
                .iter()
                .map(|a| AssertionHistory {
                    assertion: a.0,
                    proved_in: vec![Some("function main".to_string())],
                    attempts: 1,
                })
                .collect(),
            violation_found_by: own.map(|_| "the run on the whole program (early start)".into()),
        }
    }

    fn check_internal_error(rep: &Report, violated_by: &str) {
        let e = rep.internal_error.as_ref().expect("an internal error");
        assert_eq!(rep.verdict, Verdict::Unknown);
        assert!(
            rep.violation.is_none(),
            "no FALSE from contradictory results"
        );
        assert_eq!(e.proved_safe_by, "function main");
        assert_eq!(e.violated_by, violated_by);
        assert!(!e.trace.steps.is_empty());
        let text = rep.to_text();
        assert!(
            text.contains("INTERNAL ERROR: contradictory results"),
            "{text}"
        );
        assert!(
            text.contains("function main") && text.contains(violated_by),
            "{text}"
        );
        assert!(!text.contains("VERDICT: FALSE"), "{text}");
        let json = serde_json::to_value(rep).unwrap();
        assert_eq!(json["internal_error"]["violated_by"], violated_by);
        assert_eq!(json["verdict"], "unknown");
        assert!(
            rep.assertions.iter().all(|a| a.status != "safe"),
            "{:?}",
            rep.assertions
        );
    }

    #[test]
    fn a_speculative_whole_program_violation_of_a_proven_assertion_is_an_internal_error() {
        let l = loaded();
        let w = witness(&l);
        let run = gamble_run(&l.program, gamble(&l, Some(w)), Vec::new(), &|_| true);
        let rep = report_of(&l, run);
        check_internal_error(&rep, "the run on the whole program (early start)");
    }

    #[test]
    fn impulse_contradicting_a_proof_is_an_internal_error() {
        let l = loaded();
        let w = witness(&l);
        let run = gamble_run(&l.program, gamble(&l, None), vec![found(w, true)], &|_| {
            true
        });
        let rep = report_of(&l, run);
        check_internal_error(&rep, "impulse (run alongside the region search)");
    }

    /// Impulse's violation as the portfolio hands it over.
    fn found(violation: (AssertionId, Witness), confirmed: bool) -> Found {
        Found {
            by: IMPULSE.to_string(),
            violation: Some(violation),
            tool_witness: None,
            confirmed,
            safe: Vec::new(),
            argument: None,
            invariants: Vec::new(),
        }
    }

    /// The gamble's violation only through a signed overflow (not confirmed) gives way to
    /// Impulse's confirmed one; a confirmed one of the gamble's stays.
    #[test]
    fn a_confirmed_finder_violation_replaces_an_unconfirmed_one() {
        let l = loaded();
        let (a, w) = witness(&l);
        let mut unconfirmed = w.clone();
        unconfirmed.havocs = vec![0x7fff_ffff];
        let mut g = gamble(&l, Some((a, unconfirmed.clone())));
        for (_, s) in g.result.statuses.iter_mut() {
            *s = AssertionStatus::Violated;
        }
        let only_w = |x: &Witness| *x == w;
        let run = gamble_run(
            &l.program,
            g.clone(),
            vec![found((a, w.clone()), true)],
            &only_w,
        );
        assert_eq!(run.result.violation, Some((a, w.clone())));
        assert_eq!(run.violation_by.as_deref(), Some(IMPULSE));
        // When the gamble's own violation is confirmed, it stays.
        let mut g2 = gamble(&l, Some((a, w.clone())));
        for (_, s) in g2.result.statuses.iter_mut() {
            *s = AssertionStatus::Violated;
        }
        let run = gamble_run(
            &l.program,
            g2,
            vec![found((a, unconfirmed), false)],
            &only_w,
        );
        assert_eq!(run.result.violation, Some((a, w)));
        assert_ne!(run.violation_by.as_deref(), Some(IMPULSE));
    }

    #[test]
    fn impulse_still_decides_what_the_gamble_left_open() {
        let l = loaded();
        let w = witness(&l);
        let mut g = gamble(&l, None);
        for (_, s) in g.result.statuses.iter_mut() {
            *s = AssertionStatus::Unknown("time limit reached".into());
        }
        let run = gamble_run(&l.program, g, vec![found(w, true)], &|_| true);
        let rep = report_of(&l, run);
        assert!(rep.internal_error.is_none());
        assert_eq!(rep.verdict, Verdict::False);
        assert!(rep.violation.is_some());
    }

    /// Corral's proof as the portfolio hands it over (a stand-in: these tests check how
    /// answers combine, not Corral).
    fn proof(l: &Loaded) -> Found {
        Found {
            by: CORRAL.to_string(),
            violation: None,
            tool_witness: None,
            confirmed: false,
            safe: l.program.assertion_ids().collect(),
            argument: Some(Argument::StratifiedInlining {
                recursion_bound: None,
            }),
            invariants: Vec::new(),
        }
    }

    #[test]
    fn a_members_proof_settles_what_the_gamble_left_open() {
        let l = loaded();
        let mut g = gamble(&l, None);
        for (_, s) in g.result.statuses.iter_mut() {
            *s = AssertionStatus::Unknown("time limit reached".into());
        }
        g.result.reason = Some("time limit reached".into());
        let run = gamble_run(&l.program, g, vec![proof(&l)], &|_| true);
        let rep = report_of(&l, run);
        assert!(rep.internal_error.is_none());
        assert_eq!(rep.verdict, Verdict::True, "{}", rep.to_text());
        assert!(rep
            .assertions
            .iter()
            .all(|a| a.proved_by.as_deref() == Some(CORRAL)));
    }

    #[test]
    fn a_members_proof_against_the_gambles_violation_is_an_internal_error() {
        let l = loaded();
        let w = witness(&l);
        let mut g = gamble(&l, Some(w));
        for (_, s) in g.result.statuses.iter_mut() {
            *s = AssertionStatus::Violated;
        }
        let run = gamble_run(&l.program, g, vec![proof(&l)], &|_| true);
        let rep = report_of(&l, run);
        let e = rep.internal_error.as_ref().expect("an internal error");
        assert_eq!(rep.verdict, Verdict::Unknown);
        assert!(
            rep.violation.is_none(),
            "no FALSE from contradictory results"
        );
        assert_eq!(e.proved_safe_by, CORRAL);
        assert_eq!(e.violated_by, "the run on the whole program (early start)");
    }

    /// The loop-invariant member's proof of every assertion, as the portfolio hands it over.
    fn invariant_proof(l: &Loaded) -> Found {
        Found {
            by: INVARIANTS.to_string(),
            violation: None,
            tool_witness: None,
            confirmed: false,
            safe: l.program.assertion_ids().collect(),
            argument: Some(Argument::LoopInvariants),
            invariants: vec![LoopInvariant {
                function: "main".into(),
                file: "t.c".into(),
                line: 3,
                col: 10,
                exact_acceleration: false,
                conditions: vec![qicc_engine::InvariantCondition {
                    text: "x <= 5".into(),
                    c: true,
                    quantified: false,
                }],
            }],
        }
    }

    #[test]
    fn a_members_invariant_proof_brings_its_invariants_into_the_report() {
        let l = loaded();
        let mut g = gamble(&l, None);
        for (_, s) in g.result.statuses.iter_mut() {
            *s = AssertionStatus::Unknown("time limit reached".into());
        }
        let run = gamble_run(&l.program, g, vec![invariant_proof(&l)], &|_| true);
        let rep = report_of(&l, run);
        assert_eq!(rep.verdict, Verdict::True);
        assert!(rep.assertions.iter().all(|a| {
            a.proved_by.as_deref() == Some(INVARIANTS)
                && a.argument == Some(Argument::LoopInvariants)
        }));
        assert_eq!(rep.invariants.len(), 1);
        let text = rep.to_text();
        assert!(
            text.contains("loop invariants, see \"Loop invariants\""),
            "{text}"
        );
        assert!(text.contains("\nLoop invariants"), "{text}");
        assert!(text.contains("\n  main t.c:3:10\n    x <= 5\n"), "{text}");
        let json = serde_json::to_value(&rep).unwrap();
        assert_eq!(json["invariants"][0]["conditions"][0]["text"], "x <= 5");
        assert_eq!(json["invariants"][0]["line"], 3);
        assert_eq!(json["assertions"][0]["argument"]["kind"], "loop_invariants");
        assert_eq!(json["assertions"][0]["proved_by"], INVARIANTS);
    }

    /// The gamble proved everything first: its region proofs stand, and the member's
    /// invariants, which no proof in the report uses, stay out of it.
    #[test]
    fn invariants_no_proof_used_stay_out_of_the_report() {
        let l = loaded();
        let run = gamble_run(
            &l.program,
            gamble(&l, None),
            vec![invariant_proof(&l)],
            &|_| true,
        );
        let rep = report_of(&l, run);
        assert_eq!(rep.verdict, Verdict::True);
        assert!(rep.assertions.iter().all(|a| {
            a.proved_by.as_deref() == Some("function main") && a.argument == Some(Argument::Region)
        }));
        assert!(rep.invariants.is_empty());
        let json = serde_json::to_value(&rep).unwrap();
        assert_eq!(json["invariants"], serde_json::json!([]), "{json}");
        assert_eq!(json["assertions"][0]["argument"]["kind"], "region");
        assert!(!rep.to_text().contains("Loop invariants"));
    }

    #[test]
    fn a_bmc_proof_is_complete_unwinding_at_its_bound() {
        let l = loaded_from(
            "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 3) x = 3;
  __VERIFIER_assert(x <= 3);
  return 0;
}
",
        );
        let opts = VerifyOptions {
            engine: Engine::Bmc,
            ..Default::default()
        };
        let rep = verify(&l, &opts, &Budget::unlimited());
        assert_eq!(rep.verdict, Verdict::True, "{}", rep.to_text());
        let a = &rep.assertions[0];
        assert_eq!(a.proved_by.as_deref(), Some("bmc"));
        assert!(
            matches!(
                a.argument,
                Some(Argument::CompleteUnwinding { bound: Some(_) })
            ),
            "{:?}",
            a.argument
        );
        assert!(rep.to_text().contains("[bmc; complete unwinding at bound "));
        assert!(rep.invariants.is_empty());
    }

    /// `x` and `y` step together; the assertion in the loop holds only given `x == y` at
    /// the head, which the region's arbitrary entry does not give.
    const LOCKSTEP: &str = "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned x = 0, y = 0;
  while (__VERIFIER_nondet_int()) {
    __VERIFIER_assert(x == y);
    x++;
    y++;
  }
  return 0;
}
";

    /// The default portfolio shares one head-facts slot between the loop-invariant member
    /// and the gamble: once the member's Houdini finishes, a region run that starts later
    /// assumes the invariants, shows them in its facts, and proves the region with them.
    #[test]
    fn the_portfolio_hands_the_members_invariants_to_later_region_runs() {
        let l = loaded_from(LOCKSTEP);
        let opts = VerifyOptions {
            impulse: false,
            corral: false,
            jobs: Some(1),
            ..Default::default()
        };
        let (mut g, members) = qicc_portfolio(&l.program, &opts, &Budget::unlimited());
        assert!(g.head_facts.is_empty());
        let member = members
            .into_iter()
            .find(|m| m.name == INVARIANTS)
            .expect("the program has a loop, so the invariants member runs");
        let budget = Budget::with_timeout(std::time::Duration::from_secs(60));
        let proof = (member.run)(&budget);
        assert!(
            !proof.invariants.is_empty(),
            "Houdini proved something: {proof:?}"
        );
        assert!(
            !g.head_facts.is_empty(),
            "the member's invariants reach the gamble's slot"
        );
        // The root cannot prove the unbounded loop: keep its run short.
        g.backend = qicc_gamble::Backend::Builtin(qicc_gamble::BuiltinOptions {
            unwind: None,
            max_unwind: Some(3),
        });
        g.speculate = false;
        let r = qicc_gamble::verify(&l.program, &g, &budget);
        let region = r
            .attempts
            .iter()
            .find(|a| a.node.starts_with("region"))
            .unwrap_or_else(|| panic!("no region attempt: {:?}", r.attempts));
        let facts = region.facts.as_deref().unwrap_or("");
        let inv = facts
            .split_once("loop invariants: ")
            .map(|(_, inv)| inv)
            .unwrap_or_else(|| panic!("the region assumed no invariant: {facts:?}"));
        assert!(inv.contains("%x") && inv.contains("%y"), "{inv}");
        assert!(!region.proved.is_empty(), "{region:?}");
        assert!(
            r.result
                .statuses
                .iter()
                .all(|(_, s)| *s == AssertionStatus::Safe),
            "{:?}",
            r.attempts
        );
    }

    #[test]
    fn an_abandoned_report_keeps_the_region_runs_that_had_finished() {
        // A program with a loop in a function, so the gamble runs regions before the root.
        let l = loaded_from(
            "extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int f(int n) { int s = 0; for (int i = 0; i < n && i < 4; i++) s += i; return s; }
int main(void) { int s = f(__VERIFIER_nondet_int()); __VERIFIER_assert(s <= 6); return 0; }
",
        );
        let opts = VerifyOptions::default();
        let finished = verify(&l, &opts, &Budget::with_timeout(Duration::from_secs(30)));
        assert!(
            !finished.attempts.is_empty(),
            "the gamble ran: {:?}",
            finished.verdict
        );
        // The same options (their log) after the engine was given up on.
        let gone = abandoned_report(&l, &opts, "time limit reached", Instant::now());
        assert_eq!(gone.verdict, Verdict::Unknown);
        let nodes = |r: &Report| {
            r.attempts
                .iter()
                .map(|a| a.node.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(nodes(&gone), nodes(&finished));
        assert_eq!(
            gone.stats.get("regions_tried"),
            Some(&serde_json::json!(finished.attempts.len()))
        );
    }
}
