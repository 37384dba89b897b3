//! Extraction of tree nodes as standalone programs: printed IR (reviewed snapshots), and the
//! checker's verdict on every extraction of every test program.

mod common;

use common::*;
use qicc_analysis::{build_rnt, extract, ExtractError, Extracted, NodeId, Rnt};
use qicc_ir::{parse_program, print_function, print_program, verify_program, AssertionId, Program};

fn find(p: &Program, rnt: &Rnt, path: &str) -> NodeId {
    rnt.node_ids()
        .find(|&n| rnt.path_name(p, n) == path)
        .unwrap_or_else(|| panic!("no node {path} in\n{}", rnt.to_text(p)))
}

/// The new entry function and the summary of what was havocked and disabled.
fn show(x: &Extracted) -> String {
    let p = &x.program;
    format!(
        "havocked locals: {:?}\nhavocked globals: {:?}\nenabled: {:?}\ndisabled: {:?}\n\n{}",
        havocked_local_names(&x),
        x.havocked_globals,
        x.enabled,
        x.disabled,
        print_function(p, p.function(x.entry))
    )
}

/// The names of the havocked locals of the entry function.
fn havocked_local_names(x: &Extracted) -> Vec<String> {
    let f = x.program.function(x.entry);
    x.havocked_locals
        .iter()
        .map(|l| f.local(*l).name.clone())
        .collect()
}

fn all(p: &Program) -> Vec<AssertionId> {
    p.assertion_ids().collect()
}

/// Listing 2 -> Listing 3: the loop of `main` becomes `region.main.L5`, entered with `n` and
/// `x` arbitrary (the temporary is written before it is read, so it is not havocked); the
/// head's `assume slt(%n, 1000)` stays the first edge of the body.
#[test]
fn x_stays_one_region() {
    let p = program(X_STAYS_ONE);
    let rnt = build_rnt(&p);
    let node = find(&p, &rnt, "main > main/L5");
    let x = extract(&p, &rnt, node, &all(&p)).expect("extracts");
    insta::assert_snapshot!(show(&x));
    assert_eq!(havocked_local_names(&x), ["n", "x"]);
    assert_eq!(x.program.function(x.program.entry).name, "region.main.L5");
    // Ids keep their meaning: same functions first, same assertions.
    assert_eq!(x.program.functions[..p.functions.len()], p.functions[..]);
    assert_eq!(x.program.assertions, p.assertions);
    // The printed program reads back.
    let text = print_program(&x.program);
    assert_eq!(parse_program(&text).expect("parses"), x.program);
}

/// Fig. 4: the inner body b1 and the outer body b2. The assertion's edge moves into the region
/// function (the assertion names it) and its original copy in `f` is disabled.
#[test]
fn nested_loop_regions() {
    let p = program(FIG4);
    let rnt = build_rnt(&p);
    let b1 = find(&p, &rnt, "f > f/L6 > f/L7");
    let b2 = find(&p, &rnt, "f > f/L6");
    let x1 = extract(&p, &rnt, b1, &all(&p)).expect("extracts");
    let x2 = extract(&p, &rnt, b2, &all(&p)).expect("extracts");
    insta::assert_snapshot!(format!("{}\n{}", show(&x1), show(&x2)));
    for x in [&x1, &x2] {
        let prog = &x.program;
        assert_eq!(prog.assertion(AssertionId(0)).func, prog.entry);
        let orig = prog.function(qicc_ir::FuncId(0));
        assert!(!orig
            .edges
            .iter()
            .any(|e| matches!(e.op, qicc_ir::Op::Error(_))));
    }
}

/// A function node: `entry.check` havocs memory, globals and one local per parameter, then
/// calls `check`.
#[test]
fn function_node() {
    let p = program(CALLEE_LOOP);
    let rnt = build_rnt(&p);
    let node = find(&p, &rnt, "main > main/L4 > check");
    let x = extract(&p, &rnt, node, &[AssertionId(0)]).expect("extracts");
    insta::assert_snapshot!(show(&x));
    assert_eq!(havocked_local_names(&x), ["v"]);
    // #1 is disabled in its own function `count`.
    let count = x.program.function(qicc_ir::FuncId(1));
    assert!(print_function(&x.program, count).contains("assume false"));
    assert!(!print_function(&x.program, count).contains("error #1"));
}

/// The root is the original program, with the assertions not asked for disabled.
#[test]
fn root_is_the_program_with_disabled_assertions() {
    let p = program(SIBLINGS);
    let rnt = build_rnt(&p);
    let x = extract(&p, &rnt, rnt.root, &[AssertionId(1)]).expect("extracts");
    assert_eq!(x.entry, p.entry);
    assert_eq!(x.disabled, vec![AssertionId(0)]);
    assert_eq!(x.program.functions.len(), p.functions.len());
    let main = print_function(&x.program, x.program.function(p.entry));
    insta::assert_snapshot!(main);
    assert!(main.contains("error #1") && !main.contains("error #0"));
}

/// A region of a recursive function keeps calling the original function.
#[test]
fn region_calling_its_own_function() {
    let p = program(RECURSION);
    let rnt = build_rnt(&p);
    let node = find(&p, &rnt, "main > sum > sum/L6");
    let x = extract(&p, &rnt, node, &all(&p)).expect("extracts");
    insta::assert_snapshot!(show(&x));
    // #0's edge is not in the region: it stays in `sum`, enabled.
    assert_eq!(x.program.assertion(AssertionId(0)).func, qicc_ir::FuncId(0));
    assert!(
        print_function(&x.program, x.program.function(qicc_ir::FuncId(0))).contains("error #0")
    );
}

#[test]
fn bad_requests_are_errors() {
    let p = program(SIBLINGS);
    let rnt = build_rnt(&p);
    assert_eq!(
        extract(&p, &rnt, NodeId(99), &[]).map(|_| ()),
        Err(ExtractError::NoSuchNode(NodeId(99)))
    );
    assert_eq!(
        extract(&p, &rnt, rnt.root, &[AssertionId(7)]).map(|_| ()),
        Err(ExtractError::NoSuchAssertion(AssertionId(7)))
    );
}

/// Every node of every test program extracts to a well-formed program, with every subset of
/// assertions tried being exactly the enabled set.
#[test]
fn every_extraction_is_well_formed() {
    for text in [
        X_STAYS_ONE,
        FIG4,
        SIBLINGS,
        CALLEE_LOOP,
        MANY_CONTEXTS,
        RECURSION,
        IRREDUCIBLE,
    ] {
        let p = program(text);
        let rnt = build_rnt(&p);
        for n in rnt.node_ids() {
            for keep in [all(&p), vec![], vec![AssertionId(0)]] {
                let x = extract(&p, &rnt, n, &keep)
                    .unwrap_or_else(|e| panic!("{}: {e}", rnt.path_name(&p, n)));
                verify_program(&x.program).expect("well-formed");
                let mut errors: Vec<AssertionId> = Vec::new();
                for f in &x.program.functions {
                    for e in &f.edges {
                        if let qicc_ir::Op::Error(a) = e.op {
                            errors.push(a);
                        }
                    }
                }
                assert!(errors.iter().all(|a| keep.contains(a)));
            }
        }
    }
}
