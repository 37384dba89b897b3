//! Dominators, back edges, reducibility, SCCs and cyclic regions on small automata.

mod common;

use common::*;
use qicc_analysis::FunctionGraph;
use qicc_ir::{EdgeId, Loc, Program};

fn summaries(p: &Program) -> String {
    p.functions
        .iter()
        .map(|f| FunctionGraph::new(f).summary(f))
        .collect()
}

#[test]
fn nested_loops_of_fig4() {
    let p = program(FIG4);
    insta::assert_snapshot!(summaries(&p));
    let f = &p.functions[0];
    let g = FunctionGraph::new(f);
    // Paper: 3 dominates 4..7 (L6 dominates L7..L10), 4 dominates 5, 6.
    for l in 7..=10 {
        assert!(g.dominates(Loc(6), Loc(l)));
    }
    assert!(g.dominates(Loc(7), Loc(9)));
    assert!(!g.dominates(Loc(7), Loc(10 - 4)));
    assert!(g.reducible);
}

#[test]
fn irreducible_cycle_next_to_a_loop() {
    let p = program(IRREDUCIBLE);
    insta::assert_snapshot!(summaries(&p));
    let g = FunctionGraph::new(&p.functions[0]);
    assert!(!g.reducible);
    // The two-entry cycle L5 <-> L6 has no back edge: neither location dominates the other.
    assert_eq!(g.back_edges.len(), 1);
}

const UNREACHABLE_LOOP: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
entry @f

fn @f() {
  local %x: i32
  locs 9 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := 0:i32
  L4 -> L1: skip
  L5 -> L6: skip
  L6 -> L5: skip
  L7 -> L4: skip
  L6 -> L8: skip
  L8 -> L6: skip
  L5 -> L8: skip
}
"#;

/// A cycle no run reaches, with two entries and an edge into reachable code, does not make the
/// function irreducible, and gives no SCC, dominator or back edge.
#[test]
fn unreachable_code_is_ignored() {
    let p = program(UNREACHABLE_LOOP);
    insta::assert_snapshot!(summaries(&p));
    let g = FunctionGraph::new(&p.functions[0]);
    assert!(g.reducible);
    assert!(g.sccs.is_empty());
    assert!(g.back_edges.is_empty());
    assert!(!g.dominates(Loc(5), Loc(6)));
    // L7 -> L4 comes from unreachable code: L4 still has the single dominator chain L0.
    assert_eq!(g.dominators(Loc(4)), vec![Loc(4), Loc(0)]);
}

const SELF_LOOP_AND_ENTRY_CYCLE: &str = r#"qicc-ir 1
data-model ilp32 object-bits 8
entry @f

fn @f() {
  local %x: i32
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: %x := add(%x, 1:i32)
  L4 -> L0: skip
  L4 -> L5: skip
  L5 -> L5: %x := sub(%x, 1:i32)
  L5 -> L1: skip
}
"#;

/// A cycle through `entry` has `entry` as its entry point; a self-loop is a back edge but not
/// an SCC of more than one location (the paper's Alg. 2 skips those).
#[test]
fn cycle_through_entry_and_self_loop() {
    let p = program(SELF_LOOP_AND_ENTRY_CYCLE);
    insta::assert_snapshot!(summaries(&p));
    let g = FunctionGraph::new(&p.functions[0]);
    assert!(g.reducible);
    assert_eq!(g.sccs.len(), 1);
    assert_eq!(g.sccs[0].entries, vec![Loc(0)]);
}

/// The cyclic region of each back edge of Fig. 4 (a natural loop: Fig. 4 has one back edge per
/// head): r1 = {4,5,6}, r2 = {3..7}, with the paper's final locations (l_err, and the targets
/// of the exits).
#[test]
fn cyclic_regions_of_fig4() {
    let p = program(FIG4);
    let f = &p.functions[0];
    let g = FunctionGraph::new(f);
    let mut out = String::new();
    let edges = |es: &[EdgeId]| {
        es.iter()
            .map(|&e| format!("{}->{}", f.edge(e).from, f.edge(e).to))
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(g.natural_loops.len(), g.back_edges.len());
    for r in &g.natural_loops {
        let locs: Vec<String> = r.locs.iter().map(|l| l.to_string()).collect();
        let mut finals: Vec<Loc> = r.exits.iter().map(|&e| f.edge(e).to).collect();
        finals.sort();
        finals.dedup();
        let finals: Vec<String> = finals.iter().map(|l| l.to_string()).collect();
        out += &format!(
            "back edges {}: head {} locs {{{}}}\n  body {}\n  exits {}\n  finals {{{}}}\n",
            edges(&r.closing),
            r.head,
            locs.join(" "),
            edges(&r.body),
            edges(&r.exits),
            finals.join(" ")
        );
    }
    insta::assert_snapshot!(out);
    // In reducible code every edge closing an iteration is a back edge.
    for r in &g.natural_loops {
        assert!(r.closing.iter().all(|e| g.back_edges.contains(e)));
    }
}
