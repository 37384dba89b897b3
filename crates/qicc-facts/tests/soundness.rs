//! The facts (intervals and stack addresses) must hold in every execution. Each benchmark
//! program that lowers is instrumented so that reaching a location whose fact is false takes a
//! new `error` edge; random runs of the interpreter must never take one. A single hit is a
//! soundness bug: facts are assumed in region proofs.

use qicc_facts::stack::stack_condition;
use qicc_facts::Facts;
use qicc_interp::{run, Outcome, RandomOracle, RunConfig};
use qicc_ir::{AllocKind, AssertKind, Assertion, Expr, FuncId, LocalId, Op, Program, Span, VarRef};

/// A copy of `p` where every reachable location checks its fact first. Returns the program and
/// the id of the first added assertion (all later ids are fact checks too).
fn instrument(p: &Program, facts: &Facts, stack_checks: &mut usize) -> (Program, usize) {
    let mut out = p.clone();
    let first = out.assertions.len();
    for fid in p.function_ids() {
        let f = p.function(fid);
        let mut vars: Vec<VarRef> = (0..f.locals.len() as u32)
            .map(|i| VarRef::Local(LocalId(i)))
            .collect();
        vars.extend((0..p.globals.len() as u32).map(|i| VarRef::Global(qicc_ir::GlobalId(i))));
        for l in f.locs() {
            if f.is_final(l) || !facts.is_reachable(fid, l) {
                continue;
            }
            let intervals = facts.condition(p, fid, l, &vars);
            let stack = stack_condition(p, fid, l, &vars);
            *stack_checks += usize::from(stack.is_some());
            let cond = match (intervals, stack) {
                (Some(a), Some(b)) => Expr::binary(qicc_ir::BinOp::And, a, b),
                (Some(c), None) | (None, Some(c)) => c,
                (None, None) => continue,
            };
            let k = out.add_assertion(Assertion {
                kind: AssertKind::ReachError,
                func: fid,
                span: Span::UNKNOWN,
                text: Some(format!("fact at {}/{l}", f.name)),
            });
            let g = out.function_mut(fid);
            let after = g.new_loc();
            let bad = g.new_loc();
            for e in g.edges.iter_mut().filter(|e| e.from == l) {
                e.from = after;
            }
            g.add_edge(l, after, Op::Assume(cond.clone()), Span::UNKNOWN);
            g.add_edge(l, bad, Op::Assume(Expr::not(cond)), Span::UNKNOWN);
            let err = g.err;
            g.add_edge(bad, err, Op::Error(k), Span::UNKNOWN);
        }
    }
    // A check's branch ends the prologue chain, so the copy's frame objects become plain stack
    // objects: the same semantics (`AllocKind`), without the shape the verifier holds frames to.
    for f in &mut out.functions {
        for e in &mut f.edges {
            if let Op::Alloc { kind, .. } = &mut e.op {
                if *kind == AllocKind::Frame {
                    *kind = AllocKind::Stack;
                }
            }
        }
    }
    qicc_ir::verify_program(&out).expect("instrumented program is well-formed");
    (out, first)
}

#[test]
fn facts_hold_in_random_runs_of_the_benchmarks() {
    let files = qicc_testkit::corpus_sample(qicc_testkit::files_with(
        &qicc_testkit::require_benchmarks_dir(),
        &["c", "i"],
    ));
    let mut programs = 0;
    let mut runs = 0;
    let mut checks = 0usize;
    let mut stack_checks = 0usize;
    let mut violations = Vec::new();
    for file in &files {
        let opts = qicc_frontend::Options {
            data_model: qicc_ir::DataModel::Ilp32,
            ..Default::default()
        };
        let Ok(lowered) = qicc_frontend::lower_file(file, &opts) else {
            continue;
        };
        let p = lowered.program;
        let facts = Facts::analyze(&p);
        let (inst, first) = instrument(&p, &facts, &mut stack_checks);
        checks += inst.assertions.len() - first;
        programs += 1;
        for seed in 0..6u64 {
            let config = RunConfig {
                max_steps: 400_000,
                ..RunConfig::default()
            };
            let r = run(&inst, &mut RandomOracle::new(seed), &config);
            runs += 1;
            if let Outcome::ErrorReached { assertion } = r.outcome {
                if assertion.index() >= first {
                    violations.push(format!(
                        "{}: seed {seed}: {}",
                        file.display(),
                        inst.assertion(assertion).text.clone().unwrap_or_default()
                    ));
                }
            }
        }
    }
    eprintln!(
        "facts soundness: {programs} programs, {checks} fact checks ({stack_checks} with stack \
         facts), {runs} random runs"
    );
    assert!(stack_checks > 0, "no stack fact was checked");
    // 50 on the whole corpus, 25 on CI's half of it.
    assert!(
        programs > if qicc_testkit::full_corpus() { 50 } else { 25 },
        "too few benchmark programs lowered ({programs})"
    );
    assert!(
        violations.is_empty(),
        "facts violated:\n{}",
        violations.join("\n")
    );
}

/// The instrumentation itself works: a deliberately wrong fact is caught.
#[test]
fn instrumentation_catches_a_false_fact() {
    let text = "data-model ilp32\nentry @main\nfn @main() -> %ret {\n  local %ret: i32\n  local %x: i32\n  locs 6 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n  L4 -> L5: skip\n  L5 -> L1: %ret := %x\n}\n";
    let p = qicc_ir::parse_program(text).expect("parses");
    let mut out = p.clone();
    let k = out.add_assertion(Assertion {
        kind: AssertKind::ReachError,
        func: FuncId(0),
        span: Span::UNKNOWN,
        text: None,
    });
    let g = out.function_mut(FuncId(0));
    let (after, bad) = (g.new_loc(), g.new_loc());
    for e in g.edges.iter_mut().filter(|e| e.from == qicc_ir::Loc(5)) {
        e.from = after;
    }
    let wrong = Expr::binary(
        qicc_ir::BinOp::Eq,
        Expr::local(LocalId(1)),
        Expr::int(32, 0),
    );
    g.add_edge(
        qicc_ir::Loc(5),
        after,
        Op::Assume(wrong.clone()),
        Span::UNKNOWN,
    );
    g.add_edge(
        qicc_ir::Loc(5),
        bad,
        Op::Assume(Expr::not(wrong)),
        Span::UNKNOWN,
    );
    let err = g.err;
    g.add_edge(bad, err, Op::Error(k), Span::UNKNOWN);
    let hit = (0..20u64).any(|s| {
        matches!(
            run(&out, &mut RandomOracle::new(s), &RunConfig::default()).outcome,
            Outcome::ErrorReached { .. }
        )
    });
    assert!(hit, "a false fact must be caught by some random run");
}
