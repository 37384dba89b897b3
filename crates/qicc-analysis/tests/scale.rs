//! Large automata: no stack overflow, and the tree of a long function is built.

use qicc_analysis::build_rnt;
use qicc_ir::{DataModel, Expr, Function, Loc, Op, Program, Span, Ty, VarRef};

/// `main`: a straight line of `n` locations, with a loop every 1000 of them.
fn long_function(n: u32) -> Program {
    let mut p = Program::new(DataModel::Ilp32);
    let mut f = Function::new("main", Span::UNKNOWN);
    let x = f.add_local("x", Ty::I32);
    let mut prev = f.entry;
    for i in 0..n {
        let l = f.new_loc();
        let inc = Op::Assign(
            VarRef::Local(x),
            Expr::binary(qicc_ir::BinOp::Add, Expr::local(x), Expr::int(32, 1)),
        );
        f.add_edge(prev, l, inc, Span::new(0, i + 1, 1));
        if i % 1000 == 999 {
            f.add_edge(l, prev, Op::Skip, Span::new(0, i + 1, 1));
        }
        prev = l;
    }
    let exit: Loc = f.exit;
    f.add_edge(prev, exit, Op::Skip, Span::UNKNOWN);
    p.add_function(f);
    p
}

#[test]
fn a_function_of_200000_locations() {
    let p = long_function(200_000);
    qicc_ir::verify_program(&p).expect("well-formed");
    let rnt = build_rnt(&p);
    assert_eq!(rnt.node(rnt.root).children.len(), 200);
}

/// `f0` .. `f{depth}`: each calls the next from a loop and from its body, so the tree has
/// 2^depth contexts of the last one; the last holds an assertion.
fn exploding_calls(depth: u32) -> String {
    let mut t = String::from(
        "qicc-ir 1\ndata-model ilp32 object-bits 8\nassertion #0 verifier_assert in @f",
    );
    t += &format!("{depth}\nentry @f0\n");
    for i in 0..depth {
        let next = i + 1;
        t += &format!(
            "fn @f{i}() {{\n  local %i: i32\n  locs 8 entry L0 exit L1 err L2 halt L3\n  \
             L0 -> L4: call @f{next}()\n  L4 -> L5: %i := 0:i32\n  \
             L5 -> L6: assume slt(%i, 2:i32)\n  L5 -> L1: assume sle(2:i32, %i)\n  \
             L6 -> L7: call @f{next}()\n  L7 -> L5: %i := add(%i, 1:i32)\n}}\n"
        );
    }
    t += &format!(
        "fn @f{depth}() {{\n  locs 4 entry L0 exit L1 err L2 halt L3\n  L0 -> L2: error #0\n}}\n"
    );
    t
}

/// The tree stops growing at its node limit; the function nodes left unexpanded hold their
/// assertions directly, so every context still has an innermost node.
#[test]
fn the_tree_is_cut_soundly_at_its_node_limit() {
    let p = qicc_ir::parse_program(&exploding_calls(20)).expect("parses");
    qicc_ir::verify_program(&p).expect("well-formed");
    let rnt = build_rnt(&p);
    let limit = qicc_analysis::rnt::MAX_NODES;
    assert!(rnt.nodes.len() >= limit && rnt.nodes.len() < 2 * limit);
    let cut: Vec<_> = rnt.node_ids().filter(|&n| rnt.node(n).truncated).collect();
    assert!(!cut.is_empty());
    for &n in &cut {
        let node = rnt.node(n);
        assert!(node.children.is_empty());
        assert_eq!(node.direct, vec![qicc_ir::AssertionId(0)]);
    }
    // Every leaf of the tree is either the assertion's function, or a cut node.
    for n in rnt.node_ids() {
        let node = rnt.node(n);
        if node.children.is_empty() && !node.truncated {
            assert_eq!(rnt.name(&p, n), "f20");
        }
    }
    let inner = rnt.innermost_nodes(qicc_ir::AssertionId(0));
    assert!(inner.len() > cut.len());
}
