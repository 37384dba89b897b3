//! Invariants of regions and of the tree on random automata (reducible or not, with
//! unreachable parts), checked against the definitions rather than against a second
//! implementation.

use proptest::prelude::*;
use qicc_analysis::{build_rnt, cyclic_region, extract, FunctionGraph};
use qicc_ir::{
    verify_program, AssertKind, Assertion, AssertionId, DataModel, EdgeId, Expr, FuncId, Function,
    Loc, Op, Program, Span, Ty, VarRef,
};
use std::collections::BTreeSet;

/// A program with one function `main` of `n` ordinary locations (`L4..`), the given edges
/// between `entry`/ordinary locations and `exit`, and error edges from the listed locations.
fn random_program(n: u32, gap: u32, edges: &[(u32, u32)], errors: &[u32]) -> Program {
    let mut p = Program::new(DataModel::Ilp32);
    p.add_file("r.c");
    let mut f = Function::new("main", Span::new(0, 1, 1));
    let x = f.add_local("x", Ty::I32);
    f.num_locs = 4 + n;
    // Sources: entry or ordinary; targets: exit or ordinary.
    let src = |i: u32| {
        if i % (n + 1) == n {
            Loc(0)
        } else {
            Loc(4 + i % (n + 1))
        }
    };
    let dst = |i: u32| {
        if i % (n + 1) == n {
            Loc(1)
        } else {
            Loc(4 + i % (n + 1))
        }
    };
    // A spine entry -> L4 -> ... -> exit keeps most locations reachable; `gap` cuts it once
    // so that some random programs have unreachable parts.
    for i in 0..=n {
        if i == gap {
            continue;
        }
        let from = if i == 0 { Loc(0) } else { Loc(3 + i) };
        let to = if i == n { Loc(1) } else { Loc(4 + i) };
        f.add_edge(from, to, Op::Skip, Span::new(0, 100 + i, 1));
    }
    for (k, &(a, b)) in edges.iter().enumerate() {
        let op = if k % 2 == 0 {
            Op::Assign(
                VarRef::Local(x),
                Expr::binary(qicc_ir::BinOp::Add, Expr::local(x), Expr::int(32, 1)),
            )
        } else {
            Op::Assume(Expr::binary(
                qicc_ir::BinOp::Slt,
                Expr::local(x),
                Expr::int(32, k as u64),
            ))
        };
        f.add_edge(src(a), dst(b), op, Span::new(0, 2 + k as u32, 1));
    }
    for (k, &a) in errors.iter().enumerate() {
        let id = AssertionId(k as u32);
        let from = src(a);
        f.add_edge(from, Loc(2), Op::Error(id), Span::new(0, 50 + k as u32, 1));
        p.assertions.push(Assertion {
            kind: AssertKind::VerifierAssert,
            func: FuncId(0),
            span: Span::new(0, 50 + k as u32, 1),
            text: None,
        });
    }
    p.add_function(f);
    p
}

fn strategy() -> impl Strategy<Value = Program> {
    (2u32..10).prop_flat_map(|n| {
        (
            // Mostly no gap (n + 1 .. 4n), sometimes one.
            0..(4 * n),
            prop::collection::vec((0..=n, 0..=n), 1..(3 * n as usize)),
            prop::collection::vec(0..=n, 0..3),
        )
            .prop_map(move |(gap, edges, errors)| random_program(n, gap, &edges, &errors))
    })
}

fn check(p: &Program) {
    verify_program(p).expect("generated program is well-formed");
    let f = &p.functions[0];
    let rnt = build_rnt(p);
    let fr = &rnt.functions[0];
    let g = &fr.graph;
    for r in &fr.regions {
        // Single entry, dominated by the head, reachable.
        assert_eq!(
            g.entry_points(f, &r.locs),
            vec![r.head],
            "region {}",
            r.head
        );
        for &l in &r.locs {
            assert!(g.dominates(r.head, l), "{} does not dominate {l}", r.head);
        }
        // Tails lead nowhere back and are entered only from the region.
        for &t in &r.tail {
            assert!(g.sccs.iter().all(|s| !s.locs.contains(&t)));
        }
        // Children nest and are disjoint.
        let mut seen = BTreeSet::new();
        for &c in &r.children {
            let child = &fr.regions[c];
            assert!(child.locs.iter().all(|l| r.locs.contains(l)));
            assert_ne!(child.head, r.head);
            for &l in &child.locs {
                assert!(seen.insert(l), "siblings overlap at {l}");
            }
        }
    }
    // Own edges partition the reachable edges.
    let mut owned: Vec<EdgeId> = fr.own_edges.clone();
    for r in &fr.regions {
        owned.extend(r.own_edges.iter().copied());
    }
    owned.sort();
    let reachable: Vec<EdgeId> = f
        .edge_ids()
        .filter(|&e| g.is_reachable(f.edge(e).from))
        .collect();
    assert_eq!(owned, reachable);
    if g.reducible {
        // Alg. 2 on reducible code: each region's SCC is the union of the cyclic regions
        // (natural loops) of the back edges to its head, and every back edge has its region.
        assert!(fr.notes.iter().all(|n| !n.contains("irreducible")));
        for &b in &g.back_edges {
            let head = f.edge(b).to;
            let from = f.edge(b).from;
            if head == from {
                continue; // self-loops: SCCs of one location are not regions (Alg. 2).
            }
            let r = fr
                .region_at(head)
                .expect("a region for every back edge's head");
            assert!(fr.regions[r].locs.contains(&from));
        }
        for r in &fr.regions {
            let mut union = BTreeSet::new();
            for &b in &g.back_edges {
                if f.edge(b).to == r.head && r.locs.contains(&f.edge(b).from) {
                    let cr = cyclic_region(f, g, b).expect("back edge");
                    union.extend(cr.locs);
                }
            }
            let scc: BTreeSet<Loc> = r
                .locs
                .iter()
                .copied()
                .filter(|l| !r.tail.contains(l))
                .collect();
            assert_eq!(scc, union, "region {}", r.head);
        }
    } else {
        assert!(
            fr.notes.iter().any(|n| n.contains("irreducible"))
                || fr
                    .regions
                    .iter()
                    .any(|r| r.notes.iter().any(|n| n.contains("irreducible")))
        );
    }
    // Every assertion on a reachable edge has exactly one innermost node (one context).
    for a in p.assertion_ids() {
        let reachable_edge = f
            .edges
            .iter()
            .any(|e| e.op == Op::Error(a) && g.is_reachable(e.from));
        assert_eq!(rnt.innermost_nodes(a).len(), usize::from(reachable_edge));
    }
    for n in rnt.node_ids() {
        let keep: Vec<AssertionId> = p.assertion_ids().collect();
        let x = extract(p, &rnt, n, &keep).expect("extracts");
        verify_program(&x.program).expect("well-formed extraction");
    }
    // The paper's definition of reducibility agrees with ours on these graphs' maximal SCCs:
    // a reducible graph has no SCC with two entry points.
    if g.reducible {
        assert!(g.sccs.iter().all(|s| s.entries.len() == 1));
    }
    let _ = FunctionGraph::summary(g, f);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn regions_and_tree_invariants(p in strategy()) {
        check(&p);
    }
}
