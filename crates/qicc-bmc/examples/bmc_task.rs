//! Runs the BMC engine on SV-COMP task files or C files and prints one line per input:
//! `verdict expected time-ms bound reason`. For measurements; not the qicc CLI.
//!
//! Usage: `bmc_task [--timeout SECS] [--unwind K] [--progress] FILE...`

use qicc_bmc::{verify, BmcOptions};
use qicc_engine::Budget;
use qicc_frontend::{lower_file, task::load_task, Options};
use qicc_ir::DataModel;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn main() {
    let mut timeout = 10u64;
    let mut unwind = None;
    let mut progress = false;
    let mut dump = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--timeout" => timeout = args.next().and_then(|s| s.parse().ok()).unwrap_or(10),
            "--unwind" => unwind = args.next().and_then(|s| s.parse().ok()),
            "--progress" => progress = true,
            "--dump" => dump = args.next().map(PathBuf::from),
            _ => files.push(PathBuf::from(a)),
        }
    }
    for f in files {
        let (input, model, expected) = if f.extension().is_some_and(|e| e == "yml") {
            match load_task(&f) {
                Ok(t) => (t.input_file, t.data_model, t.expected_verdict),
                Err(e) => {
                    println!("{}\tERROR\t-\t0\t-\ttask: {e}", f.display());
                    continue;
                }
            }
        } else {
            (f.clone(), None, None)
        };
        let opts = Options {
            data_model: model.unwrap_or(DataModel::Ilp32),
            ..Options::default()
        };
        let t0 = Instant::now();
        let lowered = match lower_file(&input, &opts) {
            Ok(l) => l,
            Err(e) => {
                println!("{}\tERROR\t{expected:?}\t0\t-\tfront-end: {e}", f.display());
                continue;
            }
        };
        let bopts = BmcOptions {
            unwind,
            dump_smt: dump.clone(),
            progress: progress.then(|| {
                let start = Instant::now();
                Box::new(move |m: &str| eprintln!("  {:>7} ms  {m}", start.elapsed().as_millis()))
                    as qicc_bmc::ProgressFn
            }),
            ..BmcOptions::default()
        };
        let t1 = Instant::now();
        let r = verify(
            &lowered.program,
            &bopts,
            &Budget::with_timeout(Duration::from_secs(timeout)),
        );
        if progress {
            eprintln!("  verify returned after {} ms", t1.elapsed().as_millis());
        }
        let verdict = if r.violation.is_some() {
            "FALSE"
        } else if r.reason.is_none() {
            "TRUE"
        } else {
            "UNKNOWN"
        };
        let bound = r.stats.bound.map(|b| b.to_string()).unwrap_or_default();
        println!(
            "{}\t{verdict}\t{}\t{}\t{bound}\t{}",
            f.display(),
            expected
                .map(|e| if e { "TRUE" } else { "FALSE" })
                .unwrap_or("-"),
            t0.elapsed().as_millis(),
            r.reason.unwrap_or_default()
        );
    }
}
