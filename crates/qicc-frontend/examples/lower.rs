//! Prints the IR of a C file: `cargo run --example lower -- file.c [ilp32|lp64]`.
fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: lower FILE [ilp32|lp64]");
        std::process::exit(2);
    };
    let dm = args
        .next()
        .and_then(|s| qicc_ir::DataModel::from_name(&s))
        .unwrap_or(qicc_ir::DataModel::Ilp32);
    let opts = qicc_frontend::Options {
        data_model: dm,
        ..Default::default()
    };
    match qicc_frontend::lower_file(std::path::Path::new(&path), &opts) {
        Ok(l) => {
            for w in &l.warnings {
                eprintln!("{w}");
            }
            print!("{}", qicc_ir::print_program(&l.program));
        }
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1);
        }
    }
}
