//! The gambling loop: contexts climb the tree, a scheduler keeps up to `jobs` runs of X busy.
//!
//! A *context* is one (assertion, innermost node) pair; its current node starts at the
//! innermost node and moves to the parent after every failed attempt. Runs are keyed by the
//! *extraction* they verify ([`Key`]): nodes of the same function or region extract to the same
//! program in every calling context, so one result serves every context that reaches the key.

use crate::inject::inject_facts;
use crate::{AssertionHistory, Attempt, AttemptOutcome, Backend, GambleOptions, GambleResult};
use crossbeam_channel::{unbounded, RecvTimeoutError};
use qicc_analysis::extract::extract;
use qicc_analysis::rnt::{build_rnt, NodeId, NodeKind, Rnt};
use qicc_engine::{AssertionStatus, Budget, CancelToken, EngineResult, Stats};
use qicc_facts::Facts;
use qicc_ir::{AssertionId, FuncId, Loc, Program, Witness};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::time::{Duration, Instant};

/// What an extraction verifies: the whole program, a function alone, or a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    Root,
    Func(FuncId),
    Region(FuncId, Loc),
}

/// The first of `n` and its ancestors that is not inside one of the C library's models
/// ([`qicc_ir::Function::is_library_model`]). A model is not bet on alone: its checks depend
/// on the caller's buffers and lengths, which extracting the model makes arbitrary, so such
/// runs only spent the budget (`veris.c_OpenSER_cases1_stripFullBoth_arr`: 11 s of 23 s in
/// `strncpy` and its wrapper). Sound: a proof at an ancestor covers the node (the RNT's
/// theorem, see `qicc_analysis::rnt`).
fn outside_library_models(program: &Program, rnt: &Rnt, n: NodeId) -> NodeId {
    let mut n = n;
    while n != rnt.root {
        let f = match rnt.node(n).kind {
            NodeKind::Function(f) => f,
            NodeKind::Region(r) => r.func,
        };
        match rnt.node(n).parent {
            Some(p) if program.function(f).is_library_model() => n = p,
            _ => break,
        }
    }
    n
}

fn key_of(rnt: &Rnt, n: NodeId) -> Key {
    if n == rnt.root {
        return Key::Root;
    }
    match rnt.node(n).kind {
        NodeKind::Function(f) => Key::Func(f),
        NodeKind::Region(r) => Key::Region(r.func, r.head),
    }
}

/// What one run established about one assertion at one key.
#[derive(Clone, Debug)]
enum Found {
    Safe,
    /// Not proven here: the context climbs, or ends unknown at the root.
    NotSafe(NotProven),
    /// Violated in the program itself (root only), with the run's witness.
    Violated,
}

/// Why a run did not prove an assertion; its text is the assertion's reason when the
/// context cannot climb any further.
#[derive(Clone, Debug, PartialEq)]
enum NotProven {
    /// X found a counterexample in the region (whose entry is arbitrary, so it proves
    /// nothing about the program), named here.
    CounterexampleIn(String),
    /// X's own `Unknown`: an incomplete bound, a timeout, a tool's unreplayed violation.
    Unknown(String),
    /// X's result has no status for the assertion.
    NoAnswer,
    /// The run did not happen (the node could not be extracted).
    Error(String),
}

impl fmt::Display for NotProven {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotProven::CounterexampleIn(node) => write!(f, "counterexample in {node}"),
            NotProven::Unknown(why) | NotProven::Error(why) => f.write_str(why),
            NotProven::NoAnswer => f.write_str("no answer"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum CtxState {
    Pending,
    /// Proven in the node named here.
    Proven(String),
    Violated,
    Unknown(NotProven),
}

struct Ctx {
    assertion: AssertionId,
    node: NodeId,
    state: CtxState,
}

struct Job {
    id: usize,
    key: Key,
    node: NodeId,
    assertions: Vec<AssertionId>,
    budget: Budget,
}

struct Done {
    id: usize,
    result: Result<EngineResult, String>,
    time: Duration,
    facts: Option<String>,
}

struct Running {
    key: Key,
    node: NodeId,
    assertions: Vec<AssertionId>,
    cancel: CancelToken,
    speculative: bool,
}

/// The share of the remaining budget one non-root run may use when no region timeout is set.
fn default_region_timeout(budget: &Budget) -> Duration {
    match budget.remaining() {
        Some(r) => (r / 5).clamp(Duration::from_secs(1), Duration::from_secs(30)),
        None => Duration::from_secs(30),
    }
}

fn depth(rnt: &Rnt, n: NodeId) -> usize {
    rnt.ancestors(n).len()
}

/// The state of one gamble: the contexts, what runs established per key, and what the
/// report needs (the root's witness and reason, every attempt).
struct Search<'a> {
    program: &'a Program,
    rnt: &'a Rnt,
    ctxs: Vec<Ctx>,
    cache: BTreeMap<(Key, AssertionId), Found>,
    witness: Option<(AssertionId, Witness)>,
    witness_by: Option<String>,
    /// A whole-program run's reachable undefined behaviour with its witness (for the trace).
    ub_witness: Option<(AssertionId, Witness)>,
    /// The external tool's own witness behind `witness`, when X was one.
    tool_witness: Option<String>,
    attempts: Vec<Attempt>,
    /// `GambleOptions::log`: each attempt is copied there as it is recorded.
    log: crate::AttemptLog,
    root_reason: Option<String>,
    stop_reason: Option<String>,
}

/// Runs Qicc on `program`.
pub fn verify(program: &Program, opts: &GambleOptions, budget: &Budget) -> GambleResult {
    let rnt = build_rnt(program);
    // Computed by the first run that assumes them (a region's or a function's): the
    // whole-program run needs none, and on a program with hundreds of globals the analysis
    // would delay it (many_globals_500: 0.4 s of a 1.3 s answer).
    let facts: std::sync::OnceLock<Option<Facts>> = std::sync::OnceLock::new();
    let mut ctxs: Vec<Ctx> = Vec::new();
    for a in program.assertion_ids() {
        for n in rnt.innermost_nodes(a) {
            ctxs.push(Ctx {
                assertion: a,
                node: outside_library_models(program, &rnt, n),
                state: CtxState::Pending,
            });
        }
    }
    let mut search = Search {
        program,
        rnt: &rnt,
        ctxs,
        cache: BTreeMap::new(),
        witness: None,
        witness_by: None,
        ub_witness: None,
        tool_witness: None,
        attempts: Vec::new(),
        log: opts.log.clone(),
        root_reason: None,
        stop_reason: None,
    };
    let jobs = opts.jobs.max(1);
    let started = Instant::now();
    let progress = |s: &str| {
        if let Some(p) = &opts.progress {
            p(s)
        }
    };

    let (job_tx, job_rx) = unbounded::<Job>();
    let (done_tx, done_rx) = unbounded::<Done>();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            let job_rx = job_rx.clone();
            let done_tx = done_tx.clone();
            let (rnt, facts) = (&rnt, &facts);
            scope.spawn(move || {
                while let Ok(job) = job_rx.recv() {
                    let start = Instant::now();
                    let (result, facts_text) = if job.key == Key::Root {
                        run_job(program, rnt, facts, opts, &job)
                    } else {
                        // A region's run is a bet: below the whole-program run's priority
                        // (`qicc_engine::priority`), on a thread of its own.
                        std::thread::scope(|s| {
                            s.spawn(|| {
                                qicc_engine::priority::lower_this_thread(
                                    qicc_engine::priority::BET_NICE,
                                );
                                run_job(program, rnt, facts, opts, &job)
                            })
                            .join()
                            .unwrap_or_else(|_| {
                                (
                                    Err("internal error: the region's run panicked".into()),
                                    None,
                                )
                            })
                        })
                    };
                    let _ = done_tx.send(Done {
                        id: job.id,
                        result,
                        time: start.elapsed(),
                        facts: facts_text,
                    });
                }
            });
        }
        drop(done_tx);

        let mut running: BTreeMap<usize, Running> = BTreeMap::new();
        let mut next_id = 0usize;
        loop {
            search.climb();
            let violated = search.ctxs.iter().any(|c| c.state == CtxState::Violated);
            if (violated && !opts.all_violations)
                || search.ctxs.iter().all(|c| c.state != CtxState::Pending)
            {
                break;
            }
            if let Some(why) = budget.exhausted() {
                search.stop_reason = Some(why.describe().to_string());
                break;
            }
            search.cancel_unneeded(&running);
            // Re-read each turn: the scheduler wakes at least every 100 ms.
            let sparing = opts
                .spare_core_for_facts
                .is_some_and(|d| started.elapsed() < d && !opts.head_facts.is_finished());
            let all_jobs = jobs;
            let jobs = if sparing { (jobs - 1).max(1) } else { jobs };

            let mut start = |key: Key,
                             node: NodeId,
                             set: Vec<AssertionId>,
                             speculative: bool,
                             running: &mut BTreeMap<usize, Running>| {
                let timeout = (key != Key::Root).then(|| {
                    opts.region_timeout
                        .unwrap_or_else(|| default_region_timeout(budget))
                });
                let child = budget.child(timeout);
                let id = next_id;
                next_id += 1;
                progress(&format!(
                    "{}{} ({} assertion{})",
                    if speculative { "speculatively " } else { "" },
                    rnt.describe(program, node),
                    set.len(),
                    if set.len() == 1 { "" } else { "s" }
                ));
                running.insert(
                    id,
                    Running {
                        key,
                        node,
                        assertions: set.clone(),
                        cancel: child.cancel.clone(),
                        speculative,
                    },
                );
                let _ = job_tx.send(Job {
                    id,
                    key,
                    node,
                    assertions: set,
                    budget: child,
                });
            };
            // The whole-program run is not a bet: it starts at once even while a core is
            // spared for the facts (the bets run below its priority, `qicc_engine::priority`).
            if opts.early_root && all_jobs >= 2 && running.len() < all_jobs {
                if let Some(set) = search.early_root(&running) {
                    start(Key::Root, rnt.root, set, true, &mut running);
                }
            }
            for (key, node, set) in search.wanted(&running) {
                if running.len() >= jobs {
                    break;
                }
                start(key, node, set, false, &mut running);
            }
            if opts.speculate && running.len() < jobs {
                for (parent, set) in search.speculative(&running) {
                    if running.len() >= jobs {
                        break;
                    }
                    start(key_of(&rnt, parent), parent, set, true, &mut running);
                }
            }
            if running.is_empty() {
                // Nothing runs and nothing could start: every pending context waits for a key
                // that is cached (handled above) — cannot happen, but never spin.
                search
                    .stop_reason
                    .get_or_insert_with(|| "internal: no run could be started".into());
                break;
            }

            let done = match done_rx.recv_timeout(Duration::from_millis(100)) {
                Ok(d) => d,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => break,
            };
            if let Some(job) = running.remove(&done.id) {
                search.record(job, done);
            }
        }
        for r in running.values() {
            r.cancel.cancel();
        }
        drop(job_tx);
    });
    let mut r = search.finish();
    if let Backend::External { tool, .. } = &opts.backend {
        // Which verifier the run was, for the report's "found by".
        r.violation_found_by = r
            .violation_found_by
            .map(|by| format!("{by} with {}", tool.tool.name()));
    }
    r
}

impl Search<'_> {
    /// Moves every pending context as far up the tree as the cache allows: to its answer, or
    /// past every node whose key is known not to prove it. A proof at an ancestor (a run
    /// started early or speculatively) settles the context at once: it covers every node
    /// below it (the RNT's theorem), so the runs below are no longer needed.
    fn climb(&mut self) {
        let (rnt, program) = (self.rnt, self.program);
        for c in self
            .ctxs
            .iter_mut()
            .filter(|c| c.state == CtxState::Pending)
        {
            let proven_above = rnt.ancestors(c.node).into_iter().find(|n| {
                matches!(
                    self.cache.get(&(key_of(rnt, *n), c.assertion)),
                    Some(Found::Safe)
                )
            });
            if let Some(n) = proven_above {
                c.state = CtxState::Proven(rnt.describe(program, n));
                continue;
            }
            // A whole-program run (started early) that found a violation of the assertion
            // settles every context of it at once: the program violates it, and climbing the
            // context's remaining nodes could only prove it in a region (a contradiction the
            // driver would report) — base64_alphabet_false waited 1.2 s for a region run.
            if matches!(
                self.cache.get(&(Key::Root, c.assertion)),
                Some(Found::Violated)
            ) {
                c.state = CtxState::Violated;
                continue;
            }
            loop {
                let key = key_of(rnt, c.node);
                match self.cache.get(&(key, c.assertion)) {
                    None => break,
                    Some(Found::Safe) => {
                        c.state = CtxState::Proven(rnt.describe(program, c.node));
                        break;
                    }
                    Some(Found::Violated) => {
                        c.state = CtxState::Violated;
                        break;
                    }
                    Some(Found::NotSafe(why)) => match rnt.node(c.node).parent {
                        Some(p) if key != Key::Root => c.node = p,
                        _ => {
                            c.state = CtxState::Unknown(why.clone());
                            break;
                        }
                    },
                }
            }
        }
    }

    /// Cancels runs nobody waits for any more: a run is needed while one of its assertions
    /// has a pending context whose climb (current node and ancestors) passes through the
    /// run's key.
    fn cancel_unneeded(&self, running: &BTreeMap<usize, Running>) {
        let rnt = self.rnt;
        for r in running.values() {
            let needed = self.ctxs.iter().any(|c| {
                c.state == CtxState::Pending
                    && r.assertions.contains(&c.assertion)
                    && std::iter::once(c.node)
                        .chain(rnt.ancestors(c.node))
                        .any(|n| key_of(rnt, n) == r.key)
            });
            if !needed {
                r.cancel.cancel();
            }
        }
    }

    /// The runs the pending contexts want now and no running run covers, deepest nodes
    /// first: (key, node, assertions).
    fn wanted(&self, running: &BTreeMap<usize, Running>) -> Vec<(Key, NodeId, Vec<AssertionId>)> {
        let rnt = self.rnt;
        let mut wanted: BTreeMap<(std::cmp::Reverse<usize>, Key), (NodeId, BTreeSet<AssertionId>)> =
            BTreeMap::new();
        for c in self.ctxs.iter().filter(|c| c.state == CtxState::Pending) {
            let key = key_of(rnt, c.node);
            let covered = running
                .values()
                .any(|r| r.key == key && r.assertions.contains(&c.assertion));
            if !covered {
                wanted
                    .entry((std::cmp::Reverse(depth(rnt, c.node)), key))
                    .or_insert_with(|| (c.node, BTreeSet::new()))
                    .1
                    .insert(c.assertion);
            }
        }
        wanted
            .into_iter()
            .map(|((_, key), (node, set))| (key, node, set.into_iter().collect()))
            .collect()
    }

    /// Speculation: the parents of the running nodes, deepest first, each with the
    /// assertions that would climb there if the child fails (not yet known or running there).
    fn speculative(&self, running: &BTreeMap<usize, Running>) -> Vec<(NodeId, Vec<AssertionId>)> {
        let rnt = self.rnt;
        let mut cands: Vec<(usize, NodeId, Vec<AssertionId>)> = running
            .values()
            .filter_map(|r| {
                let parent = rnt.node(r.node).parent?;
                let pkey = key_of(rnt, parent);
                let set: Vec<AssertionId> = r
                    .assertions
                    .iter()
                    .copied()
                    .filter(|a| !self.cache.contains_key(&(pkey, *a)))
                    .filter(|a| {
                        !running
                            .values()
                            .any(|o| o.key == pkey && o.assertions.contains(a))
                    })
                    .collect();
                (!set.is_empty()).then(|| (depth(rnt, parent), parent, set))
            })
            .collect();
        cands.sort_by_key(|c| std::cmp::Reverse(c.0));
        cands.into_iter().map(|(_, p, set)| (p, set)).collect()
    }

    /// The assertions the whole program's run could settle now, if none runs: those of the
    /// pending contexts the root has no answer for.
    fn early_root(&self, running: &BTreeMap<usize, Running>) -> Option<Vec<AssertionId>> {
        if running.values().any(|r| r.key == Key::Root) {
            return None;
        }
        let set: BTreeSet<AssertionId> = self
            .ctxs
            .iter()
            .filter(|c| c.state == CtxState::Pending)
            .map(|c| c.assertion)
            .filter(|a| !self.cache.contains_key(&(Key::Root, *a)))
            .collect();
        (!set.is_empty()).then(|| set.into_iter().collect())
    }

    /// Records what a finished run established: the cache per (key, assertion), the root's
    /// witness and reason, and the attempt for the report.
    fn record(&mut self, job: Running, done: Done) {
        let name = self.rnt.describe(self.program, job.node);
        let mut proved = Vec::new();
        let mut solver_ms = None;
        let outcome;
        match done.result {
            Err(e) => {
                for a in &job.assertions {
                    self.cache
                        .entry((job.key, *a))
                        .or_insert_with(|| Found::NotSafe(NotProven::Error(e.clone())));
                }
                outcome = AttemptOutcome::Error(e);
            }
            Ok(r) => {
                solver_ms = r.stats.solver_time_ms;
                let cancelled = job.cancel.is_cancelled();
                for a in &job.assertions {
                    let status = r
                        .statuses
                        .iter()
                        .find(|(x, _)| x == a)
                        .map(|(_, s)| s.clone());
                    let found = match status {
                        Some(AssertionStatus::Safe) => {
                            proved.push(a.0);
                            Found::Safe
                        }
                        Some(AssertionStatus::Violated) if job.key == Key::Root => Found::Violated,
                        Some(AssertionStatus::Violated) => {
                            Found::NotSafe(NotProven::CounterexampleIn(name.clone()))
                        }
                        Some(AssertionStatus::Unknown(why)) => {
                            Found::NotSafe(NotProven::Unknown(why))
                        }
                        // A region's bounded answer proves nothing about the region (the
                        // gamble never runs in bounded mode; the driver's bounded run does).
                        Some(AssertionStatus::SafeWithin(k)) => Found::NotSafe(NotProven::Unknown(
                            format!("no violation within bound {k}"),
                        )),
                        None => Found::NotSafe(NotProven::NoAnswer),
                    };
                    if job.key == Key::Root {
                        if let Found::NotSafe(why) = &found {
                            self.root_reason.get_or_insert_with(|| why.to_string());
                        }
                    }
                    // A cancelled run's "unknown" says nothing; keep it out of the cache so
                    // the key can be tried again if a context still needs it. A proof, or a
                    // violation of the program itself with its witness, stays true however
                    // the run ended (without it a violation kept below would leave its
                    // assertion "unknown: cancelled" beside a FALSE).
                    if cancelled && !matches!(found, Found::Safe | Found::Violated) {
                        continue;
                    }
                    self.cache.entry((job.key, *a)).or_insert(found);
                }
                if job.key == Key::Root {
                    if self.ub_witness.is_none() {
                        self.ub_witness = r.ub_witness.clone();
                    }
                    if let Some(v) = r.violation {
                        if self.witness.is_none() {
                            self.witness = Some(v);
                            self.tool_witness = r.tool_witness.clone();
                            self.witness_by = Some(format!(
                                "the run on {name}{}",
                                if job.speculative {
                                    " (early start)"
                                } else {
                                    ""
                                }
                            ));
                        }
                    }
                    if self.root_reason.is_none() {
                        self.root_reason = r.reason.clone();
                    }
                }
                outcome = if cancelled {
                    AttemptOutcome::Cancelled
                } else if proved.len() == job.assertions.len() {
                    AttemptOutcome::ProvedAll
                } else if !proved.is_empty() {
                    AttemptOutcome::ProvedSome
                } else {
                    AttemptOutcome::Failed(r.reason.clone())
                };
            }
        }
        let attempt = Attempt {
            node: name,
            assertions: job.assertions.iter().map(|a| a.0).collect(),
            proved,
            outcome,
            time_ms: done.time.as_millis() as u64,
            solver_ms,
            speculative: job.speculative,
            facts: done.facts,
        };
        if let Ok(mut log) = self.log.lock() {
            log.push(attempt.clone());
        }
        self.attempts.push(attempt);
    }

    /// The answer: a status per assertion from its contexts, the root's witness, statistics.
    fn finish(self) -> GambleResult {
        let Search {
            program,
            rnt,
            ctxs,
            witness,
            witness_by,
            ub_witness,
            tool_witness,
            attempts,
            root_reason,
            stop_reason,
            ..
        } = self;
        // Runs that were still going when the search ended are not in `attempts` and do not
        // count as tries.
        let tries = crate::tries(&attempts);
        let mut statuses = Vec::new();
        let mut history = Vec::new();
        for a in program.assertion_ids() {
            let mine: Vec<&Ctx> = ctxs.iter().filter(|c| c.assertion == a).collect();
            // Every context proven is `Safe` even when a (speculative) whole-program run
            // carries a violation of the same assertion: the contradiction is not resolved
            // here; the driver replays the witness and reports a replayed violation of a
            // proven assertion as an internal error naming both runs (`violation_found_by`,
            // `proved_in`).
            let status = if mine.iter().all(|c| matches!(c.state, CtxState::Proven(_))) {
                AssertionStatus::Safe
            } else if mine.iter().any(|c| c.state == CtxState::Violated)
                && witness.as_ref().is_some_and(|(w, _)| *w == a)
            {
                AssertionStatus::Violated
            } else {
                let why = mine
                    .iter()
                    .find_map(|c| match &c.state {
                        CtxState::Unknown(w) => Some(w.to_string()),
                        _ => None,
                    })
                    .or_else(|| stop_reason.clone())
                    .unwrap_or_else(|| {
                        "not decided (the search stopped at the first violation)".into()
                    });
                AssertionStatus::Unknown(why)
            };
            statuses.push((a, status));
            history.push(AssertionHistory {
                assertion: a.0,
                proved_in: mine
                    .iter()
                    .map(|c| match &c.state {
                        CtxState::Proven(n) => Some(n.clone()),
                        _ => None,
                    })
                    .collect(),
                attempts: tries.get(&a).copied().unwrap_or(0),
            });
        }
        let all_safe = statuses.iter().all(|(_, s)| *s == AssertionStatus::Safe);
        let reason = if all_safe || witness.is_some() {
            None
        } else {
            stop_reason
                .or(root_reason)
                .or_else(|| Some("not every assertion was proven in a region".into()))
        };
        let stats = Stats {
            regions_tried: Some(attempts.len() as u64),
            rnt_nodes: Some(rnt.nodes.len() as u64),
            solver_time_ms: Some(attempts.iter().filter_map(|a| a.solver_ms).sum::<u64>()),
            speculative_runs: Some(attempts.iter().filter(|a| a.speculative).count() as u64),
            ..Default::default()
        };
        GambleResult {
            result: EngineResult {
                statuses,
                violation: witness,
                // A tool's unreplayed violation at the root is in the status's reason, and the
                // built-in engine has already tried to confirm it (`Backend::run`).
                unconfirmed_violations: Vec::new(),
                ub_witness,
                tool_witness,
                invariants: Vec::new(),
                reason,
                stats,
            },
            attempts,
            history,
            violation_found_by: witness_by,
        }
    }
}

/// Extracts the job's node, adds facts, runs X.
fn run_job(
    program: &Program,
    rnt: &Rnt,
    facts: &std::sync::OnceLock<Option<Facts>>,
    opts: &GambleOptions,
    job: &Job,
) -> (Result<EngineResult, String>, Option<String>) {
    let mut ex = match extract(program, rnt, job.node, &job.assertions) {
        Ok(ex) => ex,
        Err(e) => return (Err(e.to_string()), None),
    };
    // The head facts are read now, at the start of the run: invariants proven meanwhile
    // serve the runs that start later, and no run waits for them.
    let facts_text = match job.key {
        Key::Root => None,
        _ => inject_facts(
            &mut ex,
            program,
            facts
                .get_or_init(|| opts.facts.then(|| Facts::analyze(program)))
                .as_ref(),
            &opts.head_facts,
            rnt.node(job.node),
        ),
    };
    let batch = job.key != Key::Root || opts.all_violations;
    (
        Ok(opts
            .backend
            .run(&ex.program, batch, job.key == Key::Root, &job.budget)),
        facts_text,
    )
}
