//! Invariants of regions and of the tree on random automata (reducible or not, with
//! unreachable parts), checked against the definitions rather than against a second
//! implementation.

use proptest::prelude::*;
use qicc_analysis::{build_rnt, extract, FunctionGraph};
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
    // (its edge goes to exit instead: no location blocks, see `verify_program`) so that some
    // random programs have unreachable parts.
    for i in 0..=n {
        let from = if i == 0 { Loc(0) } else { Loc(3 + i) };
        let to = if i == n || i == gap {
            Loc(1)
        } else {
            Loc(4 + i)
        };
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
        // (natural loops) of the back edges to its head (`FunctionGraph::natural_loops`), and every back edge has its region.
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
            let union: BTreeSet<Loc> = g
                .natural_loops
                .iter()
                .filter(|n| n.head == r.head)
                .flat_map(|n| n.locs.iter().copied())
                .collect();
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

/// The loop nesting forest and the natural loops, against their definitions (what the BMC,
/// the facts and Impulse rely on; see `qicc_analysis::loops`).
fn check_loops(p: &Program) {
    let f = &p.functions[0];
    let g = FunctionGraph::new(f);
    let forest = &g.forest;
    let pos = |l: Loc| g.rpo_pos[l.index()];
    // The order lists exactly the reachable locations, entry first.
    assert_eq!(g.rpo.len(), g.reachable.iter().filter(|r| **r).count());
    if let Some(first) = g.rpo.first() {
        assert_eq!(*first, f.entry);
    }
    for (i, l) in g.rpo.iter().enumerate() {
        assert_eq!(pos(*l) as usize, i);
    }
    let retreating = |e: EdgeId| {
        let (a, b) = (f.edge(e).from, f.edge(e).to);
        g.is_reachable(a) && pos(b) <= pos(a)
    };
    for e in f.edge_ids() {
        let (a, b) = (f.edge(e).from, f.edge(e).to);
        if !g.is_reachable(a) {
            continue;
        }
        // A back edge of the forest is exactly a retreating edge.
        assert_eq!(
            forest.back_edge_loop(a, b).is_some(),
            retreating(e),
            "edge {a}->{b}"
        );
        // The loops containing both ends are a common prefix of both chains.
        let k = forest.common_loops(a, b);
        for l in &forest.chain[a.index()][k..] {
            assert!(!forest.chain[b.index()].contains(l));
        }
    }
    // Headers are exactly the targets of retreating edges (the widening points), and a
    // header's own loop ends its chain.
    for l in f.locs() {
        let target = f.edge_ids().any(|e| retreating(e) && f.edge(e).to == l);
        assert_eq!(forest.is_header(l), target, "{l}");
        if let Some(id) = forest.header_of[l.index()] {
            assert_eq!(forest.chain[l.index()].last(), Some(&id));
            assert_eq!(forest.loops[id as usize].header, l);
        }
    }
    // Chains nest: the parent of each loop in a chain is the loop before it.
    for chain in &forest.chain {
        for w in chain.windows(2) {
            assert_eq!(forest.loops[w[1] as usize].parent, Some(w[0]));
        }
        if let Some(first) = chain.first() {
            assert_eq!(forest.loops[*first as usize].parent, None);
        }
    }
    // Natural loops: the head dominates every member, every closing edge is a back edge, and
    // the members are those that reach a back edge's source without passing the head.
    for nl in &g.natural_loops {
        for &l in &nl.locs {
            assert!(g.dominates(nl.head, l));
        }
        for &e in &nl.closing {
            assert!(g.back_edges.contains(&e));
        }
        for &e in &nl.body {
            assert!(!g.back_edges.contains(&e) && f.edge(e).to != nl.head);
        }
        for &e in &nl.exits {
            assert!(!nl.locs.contains(&f.edge(e).to));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn regions_and_tree_invariants(p in strategy()) {
        check(&p);
    }

    #[test]
    fn loop_forest_and_natural_loops(p in strategy()) {
        check_loops(&p);
    }
}
