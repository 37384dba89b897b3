//! Round trip: IR → emitted C → qicc's own front-end → IR', and the built-in bounded model
//! checker gives the same verdicts on IR and IR': the same assertions proven safe and the
//! same ones violated, whenever both answers are conclusive (a disagreement between two
//! conclusive answers fails the test). IR' assertions map back to IR assertions through the
//! emitted file's line table; the front-end's own checks on the runtime code are not compared,
//! and a reachable `qicc unsupported` site makes the comparison inconclusive.
//!
//! Programs: the built ones (every operator at every width with SMT-LIB's edge cases, memory,
//! nondeterministic branching, calls, recursion, a region entry) and every extracted node of
//! the seed benchmarks.

mod common;

use common::*;
use qicc_bmc::BmcOptions;
use qicc_engine::{AssertionStatus, Budget, EngineResult};
use qicc_external::{emit_c_with_map, EmitOptions};
use qicc_ir::{AssertionId, Program};
use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

fn bmc(p: &Program, secs: u64) -> EngineResult {
    let opts = BmcOptions {
        all_violations: true,
        ..Default::default()
    };
    qicc_bmc::verify(p, &opts, &Budget::with_timeout(Duration::from_secs(secs)))
}

/// Whether the assertion is unreachable (`Some(true)`) or reachable (`Some(false)`). The
/// built-in engine never reports undefined behaviour as violated (UB gives UNKNOWN, "undefined
/// behaviour reachable"); in the emitted C its check is a `reach_error()` like any other, so
/// that answer counts as reachable.
fn conclusive(s: &AssertionStatus) -> Option<bool> {
    match s {
        AssertionStatus::Safe => Some(true),
        AssertionStatus::Violated => Some(false),
        AssertionStatus::Unknown(w) if w.starts_with("undefined behaviour reachable") => {
            Some(false)
        }
        AssertionStatus::Unknown(_) | AssertionStatus::SafeWithin(_) => None,
    }
}

#[derive(Default)]
struct Tally {
    programs: usize,
    /// Assertions conclusive on both sides, and agreeing.
    agreed_safe: usize,
    agreed_violated: usize,
    /// Conclusive on one side only: on the IR, or on the emitted C.
    ir_only: usize,
    c_only: usize,
    /// Why the other side was not conclusive, a few examples.
    why: Vec<String>,
    neither: usize,
    disagreements: Vec<String>,
    errors: Vec<String>,
}

fn round_trip(name: &str, p: &Program, secs: u64, tally: &Mutex<Tally>) {
    let fail = |m: String| {
        tally
            .lock()
            .expect("no poisoning")
            .errors
            .push(format!("{name}: {m}"))
    };
    let emitted = match emit_c_with_map(p, &EmitOptions::default()) {
        Ok(e) => e,
        Err(e) => return fail(format!("emit: {e}")),
    };
    let opts = qicc_frontend::Options {
        data_model: p.data_model,
        ..Default::default()
    };
    let lowered = match qicc_frontend::lower_source("emitted.c", &emitted.text, false, &opts) {
        Ok(l) => l.program,
        Err(d) => return fail(format!("the front-end rejects the emitted C: {d}")),
    };
    let started = std::time::Instant::now();
    let r1 = bmc(p, secs);
    let ir_secs = started.elapsed().as_secs_f64();
    let r2 = bmc(&lowered, secs);
    let c_secs = started.elapsed().as_secs_f64() - ir_secs;
    // Slow programs are where this test's time goes: say which.
    if ir_secs + c_secs > 5.0 {
        println!("  slow: {name}: IR {ir_secs:.1} s, emitted C {c_secs:.1} s");
    }
    // IR' statuses by IR assertion; `None`: an unsupported site may be reachable.
    let mut mapped: BTreeMap<AssertionId, Vec<&AssertionStatus>> = BTreeMap::new();
    let mut model_left = false;
    for (a2, st) in &r2.statuses {
        let line = lowered.assertion(*a2).span.line;
        if let Some(k) = emitted.assertion_at(line) {
            mapped.entry(k).or_default().push(st);
        } else if emitted.unsupported_at(line).is_some() && *st != AssertionStatus::Safe {
            model_left = true;
        }
    }
    let mut t = tally.lock().expect("no poisoning");
    t.programs += 1;
    for (k, s1) in &r1.statuses {
        let Some(sts) = mapped.get(k) else { continue };
        let s2 = if sts.iter().any(|s| **s == AssertionStatus::Violated) {
            Some(false)
        } else if sts.iter().all(|s| **s == AssertionStatus::Safe) && !model_left {
            Some(true)
        } else {
            None
        };
        match (conclusive(s1), s2) {
            (Some(a), Some(b)) if a == b => {
                if a {
                    t.agreed_safe += 1
                } else {
                    t.agreed_violated += 1
                }
            }
            (Some(a), Some(b)) => t.disagreements.push(format!(
                "{name} assertion #{}: IR {}, emitted C {}",
                k.0,
                if a { "safe" } else { "violated" },
                if b { "safe" } else { "violated" }
            )),
            (None, None) => t.neither += 1,
            (Some(_), None) => {
                t.ir_only += 1;
                if t.why.len() < 6 {
                    let w = r2.reason.clone().unwrap_or_default();
                    t.why.push(format!("{name} #{} on C: {w}", k.0));
                }
            }
            (None, Some(_)) => {
                t.c_only += 1;
                if t.why.len() < 6 {
                    t.why.push(format!("{name} #{} on IR: {s1:?}", k.0));
                }
            }
        }
    }
}

fn run_all(jobs: Vec<(String, Program)>, secs: u64) -> Tally {
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((name, p)) = jobs.get(i) else { break };
                round_trip(name, p, secs, &tally);
            });
        }
    });
    tally.into_inner().expect("no poisoning")
}

fn report(t: &Tally, what: &str) {
    println!(
        "{what}: {} programs; assertions agreeing: {} safe, {} violated; conclusive only on the IR: {}, only on the C: {}; on neither: {}; disagreements: {}; errors: {}",
        t.programs,
        t.agreed_safe,
        t.agreed_violated,
        t.ir_only,
        t.c_only,
        t.neither,
        t.disagreements.len(),
        t.errors.len()
    );
    for d in t.disagreements.iter().chain(&t.errors).chain(&t.why) {
        println!("  {d}");
    }
}

#[test]
fn built_programs_keep_their_verdicts() {
    // The large memory program is too much for the built-in engine through the C runtime
    // (it times out at bound 1); the differential test covers it.
    let programs = build::all()
        .into_iter()
        .filter(|(n, _)| !n.starts_with("memory-ilp32") && !n.starts_with("memory-lp64"))
        .collect();
    let t = run_all(programs, 20);
    report(&t, "built programs");
    assert!(t.errors.is_empty() && t.disagreements.is_empty());
    assert!(
        t.agreed_safe >= 60,
        "too few proofs compared: {}",
        t.agreed_safe
    );
    assert!(
        t.agreed_violated >= 10,
        "too few violations compared: {}",
        t.agreed_violated
    );
}

#[test]
fn seed_regions_keep_their_verdicts() {
    let bench = require_benchmarks_dir();
    let (programs, _) = lower_tasks(&bench.join("seeds"));
    let mut jobs = Vec::new();
    for l in programs {
        for (node, ex) in extracted_nodes(&l.program) {
            if let Ok(p) = ex {
                jobs.push((format!("{} {node}", l.name), p));
            }
        }
    }
    // 3 s per side: the nodes that need more (the deep call trees' functions, the large
    // loops) time out on both sides even at 8 s, and cost CI most of this test's time.
    let t = run_all(jobs, 3);
    report(&t, "seed nodes");
    assert!(t.errors.is_empty() && t.disagreements.is_empty());
    assert!(
        t.agreed_safe + t.agreed_violated >= 10,
        "too few conclusive comparisons"
    );
}
