//! Every node of every benchmark program that lowers, extracted with all its assertions and
//! emitted as C, compiles with gcc (`-std=gnu99 -Wall -Werror=implicit-function-declaration`,
//! `-m32` for ILP32) without a single warning, in the verifier environment (with each of the
//! three spellings of assertion sites) and in the external environment used to run it.

mod common;

use common::*;
use qicc_external::cexpr::FLOAT_EMISSION_GAP;
use qicc_external::{emit_c_with_map, EmitOptions, ErrorSpelling};
use std::sync::Mutex;

#[test]
fn every_extracted_benchmark_node_compiles_without_warnings() {
    let bench = require_benchmarks_dir();
    let mut programs = Vec::new();
    let mut not_lowered = Vec::new();
    for sub in ["seeds", "sv-comp/c"] {
        let (ok, failed) = lower_tasks(&bench.join(sub));
        programs.extend(ok);
        not_lowered.extend(failed);
    }
    let dir = scratch_dir("compile");
    // (file, data model, name) of every emitted file.
    let mut files = Vec::new();
    let mut failures = Vec::new();
    let mut refused = Vec::new();
    let mut nodes = 0;
    for (pi, l) in programs.iter().enumerate() {
        for (ni, (node, ex)) in extracted_nodes(&l.program).into_iter().enumerate() {
            nodes += 1;
            let name = format!("{} node {node}", l.name);
            let ex = match ex {
                Ok(p) => p,
                Err(e) => {
                    failures.push(format!("{name}: extraction failed: {e}"));
                    continue;
                }
            };
            // Spellings rotate over the nodes so that each is compiled on many files.
            let spelling = [
                ErrorSpelling::ReachError,
                ErrorSpelling::Cbmc,
                ErrorSpelling::Esbmc,
            ][ni % 3];
            match emit_c_with_map(&ex, &EmitOptions { spelling }) {
                Ok(c) => {
                    let f = dir.join(format!("p{pi}_n{ni}.c"));
                    std::fs::write(&f, &c.text).expect("scratch is writable");
                    files.push((f, ex.data_model, name));
                }
                Err(e) => refused.push(format!("{name}: {e}")),
            }
        }
    }
    let results = Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some((f, dm, name)) = files.get(i) else {
                    break;
                };
                for extra in [&[][..], &["-DQICC_EXTERNAL_ENVIRONMENT"][..]] {
                    let r = gcc_compile(f, *dm, extra);
                    let verdict = match r {
                        Ok(w) if w.trim().is_empty() => None,
                        Ok(w) => Some(format!("{name} {extra:?}: warnings:\n{w}")),
                        Err(e) => Some(format!("{name} {extra:?}: does not compile:\n{e}")),
                    };
                    results.lock().expect("no poisoning").push(verdict);
                }
            });
        }
    });
    let results = results.into_inner().expect("no poisoning");
    let compiled = results.iter().filter(|r| r.is_none()).count();
    failures.extend(results.into_iter().flatten());
    println!(
        "{} programs lowered ({} not), {nodes} nodes, {} emitted ({} refused), {compiled} gcc runs clean",
        programs.len(),
        not_lowered.len(),
        files.len(),
        refused.len()
    );
    for r in &refused {
        println!("refused: {r}");
    }
    if failures.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        failures.is_empty(),
        "{} failures (files kept in {}):\n{}",
        failures.len(),
        dir.display(),
        failures
            .iter()
            .take(10)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(files.len() > 100, "too few files emitted: {}", files.len());
    // The one known gap: programs with floats are not emitted (`FLOAT_EMISSION_GAP`).
    refused.retain(|r| !r.contains(FLOAT_EMISSION_GAP));
    assert!(refused.is_empty(), "refused: {refused:?}");
}
