//! Prints the facts of every location of an IR text program: `cargo run --example dump_facts -- prog.ir`.
use qicc_facts::Facts;
use qicc_ir::{parse_program, print::expr_str, LocalId, VarRef};

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump_facts FILE.ir");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let p = match parse_program(&text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    let facts = Facts::analyze(&p);
    for fid in p.function_ids() {
        let f = p.function(fid);
        println!("fn @{}", f.name);
        let mut vars: Vec<VarRef> = (0..f.locals.len() as u32)
            .map(|i| VarRef::Local(LocalId(i)))
            .collect();
        vars.extend((0..p.globals.len() as u32).map(|i| VarRef::Global(qicc_ir::GlobalId(i))));
        for l in f.locs() {
            let c = facts
                .condition(&p, fid, l, &vars)
                .map(|e| expr_str(&p, Some(f), &e))
                .unwrap_or_else(|| "-".into());
            println!("  {l}: {c}");
        }
    }
}
