//! The Region Nesting Tree of small programs, as text (reviewed snapshots) and by structure.

mod common;

use common::*;
use qicc_analysis::{build_rnt, NodeId, NodeKind, Rnt};
use qicc_ir::{AssertionId, Loc, Program};

fn tree(text: &str) -> (Program, Rnt) {
    let p = program(text);
    let rnt = build_rnt(&p);
    (p, rnt)
}

/// The node named `name` (`main`, `main/L5`) on the path given by its ancestors' names.
fn find(p: &Program, rnt: &Rnt, path: &str) -> NodeId {
    rnt.node_ids()
        .find(|&n| rnt.path_name(p, n) == path)
        .unwrap_or_else(|| panic!("no node {path} in\n{}", rnt.to_text(p)))
}

#[test]
fn single_loop() {
    let (p, rnt) = tree(X_STAYS_ONE);
    insta::assert_snapshot!(rnt.to_text(&p));
    let region = find(&p, &rnt, "main > main/L5");
    let callee = find(&p, &rnt, "main > main/L5 > __VERIFIER_assert");
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![callee]);
    assert_eq!(rnt.ancestors(callee), vec![callee, region, rnt.root]);
    assert_eq!(rnt.describe(&p, region), "region main/L5 (lines 13-15)");
}

/// Fig. 4: b1 is a child of b2, which is a child of f; the assertion's innermost node is b1.
#[test]
fn nested_loops_of_fig4() {
    let (p, rnt) = tree(FIG4);
    insta::assert_snapshot!(rnt.to_text(&p));
    let b2 = find(&p, &rnt, "f > f/L6");
    let b1 = find(&p, &rnt, "f > f/L6 > f/L7");
    assert_eq!(rnt.node(b1).parent, Some(b2));
    assert_eq!(rnt.node(b2).parent, Some(rnt.root));
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![b1]);
    let r1 = rnt
        .region(rnt.node(b1).region().expect("region"))
        .expect("data");
    assert_eq!(r1.locs, vec![Loc(7), Loc(8), Loc(9)]);
    let r2 = rnt
        .region(rnt.node(b2).region().expect("region"))
        .expect("data");
    assert_eq!(r2.locs, (6..=10).map(Loc).collect::<Vec<_>>());
}

#[test]
fn sibling_loops() {
    let (p, rnt) = tree(SIBLINGS);
    insta::assert_snapshot!(rnt.to_text(&p));
    let first = find(&p, &rnt, "main > main/L4");
    let second = find(&p, &rnt, "main > main/L7");
    assert_eq!(rnt.node(rnt.root).children, vec![first, second]);
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![first]);
    assert_eq!(rnt.innermost_nodes(AssertionId(1)), vec![second]);
}

/// A callee hangs under the region holding its call; a callee with its own loop brings its
/// region along.
#[test]
fn loop_in_callee_and_call_in_loop() {
    let (p, rnt) = tree(CALLEE_LOOP);
    insta::assert_snapshot!(rnt.to_text(&p));
    let check = find(&p, &rnt, "main > main/L4 > check");
    let count_loop = find(&p, &rnt, "main > count > count/L4");
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![check]);
    assert_eq!(rnt.innermost_nodes(AssertionId(1)), vec![count_loop]);
    let root = rnt.node(rnt.root);
    assert_eq!(root.assertions, vec![AssertionId(0), AssertionId(1)]);
    assert!(root.direct.is_empty());
}

/// One node per calling context: under `main` (its body), under each loop; two calls from the
/// same loop share one node.
#[test]
fn function_with_several_calling_contexts() {
    let (p, rnt) = tree(MANY_CONTEXTS);
    insta::assert_snapshot!(rnt.to_text(&p));
    let contexts = rnt.innermost_nodes(AssertionId(0));
    let names: Vec<String> = contexts.iter().map(|&n| rnt.path_name(&p, n)).collect();
    assert_eq!(
        names,
        [
            "main > helper",
            "main > main/L5 > helper",
            "main > main/L8 > helper"
        ]
    );
    assert_eq!(rnt.node(contexts[1]).call_sites.len(), 2);
}

/// A recursive call is a leaf marked recursive, holding nothing directly; the tree is finite.
#[test]
fn recursion_is_marked_not_expanded() {
    let (p, rnt) = tree(RECURSION);
    insta::assert_snapshot!(rnt.to_text(&p));
    let stubs: Vec<NodeId> = rnt.node_ids().filter(|&n| rnt.node(n).recursive).collect();
    assert_eq!(stubs.len(), 2);
    for s in stubs {
        let node = rnt.node(s);
        assert!(node.children.is_empty() && node.direct.is_empty());
        assert_eq!(node.assertions, vec![AssertionId(0)]);
    }
    let sum = find(&p, &rnt, "main > sum");
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![sum]);
}

/// The two-entry cycle gets no region (a note says so) and its assertion stays with the
/// function; the loop next to it still gets its region.
#[test]
fn irreducible_cycle_gets_no_region() {
    let (p, rnt) = tree(IRREDUCIBLE);
    insta::assert_snapshot!(rnt.to_text(&p));
    let root = rnt.node(rnt.root);
    assert_eq!(root.children.len(), 1);
    assert!(root.notes.iter().any(|n| n.contains("irreducible")));
    let lp = find(&p, &rnt, "main > main/L8");
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![rnt.root]);
    assert_eq!(rnt.innermost_nodes(AssertionId(1)), vec![lp]);
}

const LOOP_IN_IRREDUCIBLE: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
file 0 "irr2.c"
assertion #0 verifier_assert in @main !0:6:5 "inner"
entry @main

fn @main() !0:1:1 {
  local %c: i32
  locs 9 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %c nondet "__VERIFIER_nondet_int" !0:2:3
  L4 -> L5: assume eq(%c, 0:i32) !0:3:3
  L4 -> L6: assume ne(%c, 0:i32) !0:3:3
  L5 -> L6: skip !0:4:3
  L6 -> L7: skip !0:5:3
  L7 -> L8: assume slt(%c, 5:i32) !0:6:5
  L8 -> L2: error #0 !0:6:5
  L8 -> L7: %c := add(%c, 1:i32) !0:6:9
  L7 -> L5: assume sle(5:i32, %c) !0:7:3
  L7 -> L1: assume eq(%c, 9:i32) !0:8:3
}
"#;

/// A single-entry loop nested in an irreducible cycle still gets its region (under the
/// function, since the irreducible cycle has none).
#[test]
fn loop_inside_irreducible_cycle() {
    let (p, rnt) = tree(LOOP_IN_IRREDUCIBLE);
    insta::assert_snapshot!(rnt.to_text(&p));
    let inner = find(&p, &rnt, "main > main/L7");
    assert_eq!(rnt.innermost_nodes(AssertionId(0)), vec![inner]);
}

#[test]
fn dot_output_marks_functions_regions_and_assertions() {
    let (p, rnt) = tree(CALLEE_LOOP);
    insta::assert_snapshot!(rnt.to_dot(&p));
}

/// Every node's transitive set is its direct set plus its children's.
#[test]
fn assertions_are_held_transitively() {
    for text in [
        X_STAYS_ONE,
        FIG4,
        SIBLINGS,
        CALLEE_LOOP,
        MANY_CONTEXTS,
        RECURSION,
        IRREDUCIBLE,
    ] {
        let (_, rnt) = tree(text);
        for n in rnt.node_ids() {
            let node = rnt.node(n);
            if node.recursive {
                continue;
            }
            let mut expect: Vec<AssertionId> = node.direct.clone();
            for c in &node.children {
                expect.extend(rnt.node(*c).assertions.iter().copied());
            }
            expect.sort();
            expect.dedup();
            assert_eq!(node.assertions, expect);
            match node.kind {
                NodeKind::Function(_) => {}
                NodeKind::Region(r) => assert!(rnt.region(r).is_some()),
            }
        }
    }
}
