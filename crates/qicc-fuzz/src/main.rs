//! `qicc-fuzz`: a fuzzing campaign over fresh seeds through every engine and mode.
//!
//! ```text
//! cargo run --release -p qicc-fuzz -- --seeds N --start S --time-cap SECS [--timeout SECS]
//!     [--out DIR] [--gcc-every K] [--modes bmc,qicc-j1,...] [--print SEED]
//! ```
//! Prints one line per program, a table at the end, and writes every failing program to
//! `--out` (default `target/fuzz-failures`). Exit code 1 when anything failed.

use qicc_fuzz::engines::Mode;
use qicc_fuzz::gen::Profile;
use qicc_fuzz::{check_seed, save_failure, CheckOptions, Property, Tally};
use std::path::PathBuf;
use std::time::{Duration, Instant};

struct Args {
    seeds: u64,
    start: u64,
    time_cap: Option<f64>,
    timeout: f64,
    out: PathBuf,
    gcc_every: u64,
    modes: Vec<Mode>,
    overflow_modes: Vec<Mode>,
    memsafety_modes: Vec<Mode>,
    print: Option<u64>,
    profile: Profile,
}

const USAGE: &str = "usage: qicc-fuzz [--seeds N] [--start S] [--time-cap SECS] [--timeout SECS] [--out DIR] [--gcc-every K] [--modes bmc,qicc-j1,qicc-j2,qicc-nofacts,impulse,corral,corral-x] [--overflow-modes bmc,qicc-j2|none] [--memsafety-modes bmc,qicc-j2|none] [--print SEED] [--profile small|normal]";

fn parse() -> Result<Args, String> {
    let mut a = Args {
        seeds: 100,
        start: 1_000_000,
        time_cap: None,
        timeout: 5.0,
        out: PathBuf::from("target/fuzz-failures"),
        gcc_every: 10,
        modes: Mode::ALL.to_vec(),
        overflow_modes: vec![Mode::Bmc, Mode::QiccJ2],
        memsafety_modes: vec![Mode::Bmc, Mode::QiccJ2],
        print: None,
        profile: Profile::NORMAL,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        if k == "--help" || k == "-h" {
            return Err(USAGE.into());
        }
        let v = it
            .next()
            .ok_or_else(|| format!("{k} needs a value\n{USAGE}"))?;
        let num = |v: &str| {
            v.parse::<f64>()
                .map_err(|_| format!("{k}: '{v}' is not a number"))
        };
        match k.as_str() {
            "--seeds" => a.seeds = num(&v)? as u64,
            "--start" => a.start = num(&v)? as u64,
            "--time-cap" => a.time_cap = Some(num(&v)?),
            "--timeout" => a.timeout = num(&v)?,
            "--out" => a.out = PathBuf::from(v),
            "--gcc-every" => a.gcc_every = num(&v)? as u64,
            "--print" => a.print = Some(num(&v)? as u64),
            "--profile" => {
                a.profile = match v.as_str() {
                    "small" => Profile::SMALL,
                    "normal" => Profile::NORMAL,
                    _ => return Err(format!("--profile: small or normal, not '{v}'")),
                }
            }
            "--modes" => a.modes = modes(&k, &v)?,
            "--overflow-modes" => a.overflow_modes = modes(&k, &v)?,
            "--memsafety-modes" => a.memsafety_modes = modes(&k, &v)?,
            _ => return Err(format!("unknown option {k}\n{USAGE}")),
        }
    }
    Ok(a)
}

/// A comma-separated list of modes (`none`: no mode).
fn modes(option: &str, list: &str) -> Result<Vec<Mode>, String> {
    list.split(',')
        .filter(|m| !m.is_empty() && *m != "none")
        .map(|m| {
            Mode::ALL
                .into_iter()
                .find(|x| x.name() == m)
                .ok_or_else(|| format!("{option}: unknown mode '{m}'"))
        })
        .collect()
}

fn main() {
    let args = match parse() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Some(seed) = args.print {
        match qicc_fuzz::build::build(seed, args.profile) {
            Ok(b) => print!("{}", b.text),
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                std::process::exit(1);
            }
        }
        return;
    }
    let start = Instant::now();
    let gcc_dir = std::env::temp_dir().join(format!("qicc-fuzz-gcc-{}", std::process::id()));
    let mut tally = Tally::default();
    let mut failures = 0usize;
    for k in 0..args.seeds {
        if let Some(cap) = args.time_cap {
            if start.elapsed().as_secs_f64() >= cap {
                println!("time cap of {cap} s reached after {k} programs");
                break;
            }
        }
        let seed = args.start + k;
        let opts = CheckOptions {
            modes: args.modes.clone(),
            property_modes: vec![
                (Property::NoOverflow, args.overflow_modes.clone()),
                (Property::MemSafety, args.memsafety_modes.clone()),
            ],
            timeout: Duration::from_secs_f64(args.timeout),
            gcc_dir: (args.gcc_every > 0 && k % args.gcc_every == 0).then(|| gcc_dir.clone()),
            profile: args.profile,
        };
        let r = check_seed(seed, &opts);
        tally.add(&r);
        let mut verdicts: Vec<String> = r
            .runs
            .iter()
            .map(|(m, run, _)| format!("{}={}", m.name(), run.verdict.as_str()))
            .collect();
        for (p, o) in &r.properties {
            verdicts.push(format!(
                "| {} truth {}:",
                p.name(),
                if o.truth_safe { "TRUE" } else { "FALSE" }
            ));
            verdicts.extend(
                o.runs
                    .iter()
                    .map(|(m, run, _)| format!("{}={}", m.name(), run.verdict.as_str())),
            );
        }
        println!(
            "[{:>6.1}s] seed {seed}: truth {}{} {}{}",
            start.elapsed().as_secs_f64(),
            match r.truth_safe {
                Some(true) => "TRUE ",
                Some(false) => "FALSE",
                None => "?    ",
            },
            r.shapes(),
            verdicts.join(" "),
            if r.failures.is_empty() {
                String::new()
            } else {
                format!("  ** {} FAILURE(S)", r.failures.len())
            }
        );
        for f in &r.failures {
            failures += 1;
            eprintln!("{}", f.describe());
            match save_failure(&args.out, f) {
                Ok(p) => println!("    saved {}", p.display()),
                Err(e) => eprintln!("    cannot save the failure: {e}"),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&gcc_dir);
    println!(
        "\n{}failures: {failures}; wall clock {:.0} s",
        tally.table(),
        start.elapsed().as_secs_f64()
    );
    if failures > 0 {
        std::process::exit(1);
    }
}
