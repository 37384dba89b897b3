//! The Region Nesting Trees of the seed benchmarks, lowered by the C front-end (reviewed
//! snapshots), and the extraction of their innermost regions.

use qicc_analysis::{build_rnt, extract, NodeKind};
use qicc_frontend::{lower_file, Options};
use qicc_ir::{verify_program, DataModel, Program};
use std::path::Path;

fn lower(name: &str) -> Program {
    let path = qicc_testkit::require_seed(name.trim_end_matches(".c"));
    let opts = Options {
        data_model: DataModel::Ilp32,
        ..Default::default()
    };
    let mut p = match lower_file(&path, &opts) {
        Ok(l) => l.program,
        Err(d) => panic!("{name} does not lower: {d:?}"),
    };
    // Snapshots name files by their base name, wherever the benchmarks are.
    for f in &mut p.files {
        if let Some(base) = Path::new(f.as_str()).file_name() {
            *f = base.to_string_lossy().into_owned();
        }
    }
    p
}

/// The tree as text, and every node's extraction (all assertions enabled) well-formed.
fn tree_text(name: &str) -> String {
    let p = lower(name);
    let rnt = build_rnt(&p);
    for n in rnt.node_ids() {
        let all: Vec<_> = p.assertion_ids().collect();
        let x = extract(&p, &rnt, n, &all)
            .unwrap_or_else(|e| panic!("{name}: {}: {e}", rnt.path_name(&p, n)));
        verify_program(&x.program).expect("well-formed extraction");
    }
    rnt.to_text(&p)
}

#[test]
fn two_sum_fixed_10() {
    insta::assert_snapshot!(tree_text("two_sum_fixed_10.c"));
}

#[test]
fn factorial_sum() {
    insta::assert_snapshot!(tree_text("factorial_sum.c"));
}

#[test]
fn lock_alternation() {
    insta::assert_snapshot!(tree_text("lock_alternation.c"));
}

#[test]
fn x_stays_one() {
    insta::assert_snapshot!(tree_text("x_stays_one.c"));
}

/// Listing 2 -> Listing 3 from C: the loop's region function, printed.
#[test]
fn x_stays_one_extracted_loop() {
    let p = lower("x_stays_one.c");
    let rnt = build_rnt(&p);
    let node = rnt
        .node_ids()
        .find(|&n| matches!(rnt.node(n).kind, NodeKind::Region(_)))
        .expect("the while loop has a region");
    let all: Vec<_> = p.assertion_ids().collect();
    let x = extract(&p, &rnt, node, &all).expect("extracts");
    insta::assert_snapshot!(qicc_ir::print_function(
        &x.program,
        x.program.function(x.entry)
    ));
}
