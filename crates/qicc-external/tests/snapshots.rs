//! The emitted C of the `x_stays_one` seed's loop region (Listing 3 of the Qicc abstract):
//! the region as a function with arbitrary live-ins and the loop condition as its first branch.

use qicc_analysis::{build_rnt, extract, NodeKind};
use qicc_external::{emit_c_with_map, EmitOptions};
use qicc_ir::DataModel;

#[test]
fn x_stays_one_region() {
    let path = qicc_testkit::require_seed("x_stays_one");
    let source = std::fs::read_to_string(&path).expect("read the seed");
    let opts = qicc_frontend::Options {
        data_model: DataModel::Ilp32,
        ..Default::default()
    };
    let p = qicc_frontend::lower_source("x_stays_one.c", &source, false, &opts)
        .expect("the seed lowers")
        .program;
    let rnt = build_rnt(&p);
    let node = rnt
        .node_ids()
        .find(|&n| matches!(rnt.node(n).kind, NodeKind::Region(_)))
        .expect("the loop is a region");
    let ex = extract(&p, &rnt, node, &rnt.node(node).assertions).expect("extracts");
    let c = emit_c_with_map(&ex.program, &EmitOptions::default()).expect("emits");
    assert_eq!(c.entry_function, "region_main_L6");
    assert_eq!(c.assertion_lines.len(), 1);
    assert!(!c.uses_memory);
    insta::assert_snapshot!(c.text);
}
