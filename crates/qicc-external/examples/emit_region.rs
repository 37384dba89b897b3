//! Prints the C file of every Region Nesting Tree node of a C program:
//! `cargo run -p qicc-external --example emit_region -- file.c [ilp32|lp64] [node-name]`.
use qicc_analysis::{build_rnt, extract};
use qicc_external::{emit_c, EmitOptions};
use qicc_ir::DataModel;
use std::path::Path;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(file) = args.get(1) else {
        eprintln!("usage: emit_region FILE.c [ilp32|lp64] [NODE]");
        std::process::exit(2);
    };
    let dm = args
        .get(2)
        .and_then(|s| DataModel::from_name(s))
        .unwrap_or(DataModel::Ilp32);
    let opts = qicc_frontend::Options {
        data_model: dm,
        ..Default::default()
    };
    let lowered = match qicc_frontend::lower_file(Path::new(file), &opts) {
        Ok(l) => l,
        Err(d) => {
            eprintln!("{d}");
            std::process::exit(1);
        }
    };
    let p = lowered.program;
    let rnt = build_rnt(&p);
    for n in rnt.node_ids() {
        let name = rnt.name(&p, n);
        if args.get(3).is_some_and(|want| *want != name) {
            continue;
        }
        let node = rnt.node(n);
        match extract(&p, &rnt, n, &node.assertions) {
            Ok(ex) => match emit_c(&ex.program, &EmitOptions::default()) {
                Ok(c) => println!("/* ===== node {name} ===== */\n{c}"),
                Err(e) => println!("/* ===== node {name}: {e} ===== */"),
            },
            Err(e) => println!("/* ===== node {name}: extraction failed: {e} ===== */"),
        }
    }
}
