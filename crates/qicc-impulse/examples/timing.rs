//! Impulse against plain BMC on C files (ILP32): wall-clock time and verdict of each.
//! `cargo run --release -p qicc-impulse --example timing -- [--timeout SECS] FILE...`
use qicc_engine::{Budget, EngineResult};
use std::time::{Duration, Instant};

fn verdict(r: &EngineResult) -> String {
    match &r.violation {
        Some((a, _)) => format!("FALSE ({a})"),
        None => match &r.reason {
            Some(why) => format!("UNKNOWN ({})", why.chars().take(60).collect::<String>()),
            None => "no violation".to_string(),
        },
    }
}

fn main() {
    let mut timeout = 120u64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--timeout" {
            timeout = args.next().and_then(|s| s.parse().ok()).unwrap_or(timeout);
        } else {
            files.push(a);
        }
    }
    println!(
        "{:<32} {:>10}  {:<22} {:>10}  verdict",
        "file", "impulse s", "verdict", "bmc s"
    );
    for f in files {
        let opts = qicc_frontend::Options {
            data_model: qicc_ir::DataModel::Ilp32,
            ..Default::default()
        };
        let p = match qicc_frontend::lower_file(std::path::Path::new(&f), &opts) {
            Ok(l) => l.program,
            Err(d) => {
                println!("{f}: does not lower: {d:?}");
                continue;
            }
        };
        let budget = || Budget::with_timeout(Duration::from_secs(timeout));
        let t = Instant::now();
        let ri = qicc_impulse::verify(&p, &qicc_impulse::ImpulseOptions::default(), &budget());
        let ti = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let rb = qicc_bmc::verify(&p, &qicc_bmc::BmcOptions::default(), &budget());
        let tb = t.elapsed().as_secs_f64();
        let name = std::path::Path::new(&f)
            .file_name()
            .map_or(f.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{name:<32} {ti:>10.3}  {:<22} {tb:>10.3}  {}",
            verdict(&ri),
            verdict(&rb)
        );
    }
}
