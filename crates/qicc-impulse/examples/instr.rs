//! Prints the instrumented IR of a C (ILP32) or IR file, and what was accelerated.
//! `cargo run -p qicc-impulse --example instr -- file.c [--verify]`
fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: instr FILE [--verify]");
        std::process::exit(2);
    };
    let verify = args.any(|a| a == "--verify");
    let program = if path.ends_with(".ir") {
        let text = std::fs::read_to_string(&path).expect("readable file");
        qicc_ir::parse_program(&text).expect("valid IR")
    } else {
        let opts = qicc_frontend::Options {
            data_model: qicc_ir::DataModel::Ilp32,
            ..Default::default()
        };
        match qicc_frontend::lower_file(std::path::Path::new(&path), &opts) {
            Ok(l) => l.program,
            Err(d) => {
                eprintln!("{d:?}");
                std::process::exit(1);
            }
        }
    };
    let opts = qicc_impulse::ImpulseOptions::default();
    let t = std::time::Instant::now();
    let instr = qicc_impulse::instrument(&program, &opts);
    eprintln!("instrumented in {:?}", t.elapsed());
    print!("{}", qicc_ir::print_program(&instr.program));
    for a in &instr.accelerations {
        eprintln!("{a:#?}");
    }
    for s in &instr.skipped {
        eprintln!("skipped {s:?}");
    }
    if verify {
        let t = std::time::Instant::now();
        let r = qicc_impulse::verify(&program, &opts, &qicc_engine::Budget::unlimited());
        eprintln!(
            "verify in {:?}: {:?} {:?} {:?}",
            t.elapsed(),
            r.violation.as_ref().map(|v| v.0),
            r.reason,
            r.stats
        );
    }
}
