//! Corral's error flag on every benchmark program that lowers and on hand-written IR: the
//! result is well-formed, has `error` edges only in the entry function, and runs replay from
//! either program on the other with the same outcome and the same witness (the invariant the
//! module keeps: the same nondeterministic requests in the same order, the same ending).

use qicc_analysis::{error_flag, ErrorFlagged};
use qicc_interp::{replay, run, InputOracle, Outcome, RandomOracle, Run, RunConfig};
use qicc_ir::{AssertionId, Op, Program};

const SEEDS: u64 = 8;

fn config(max_steps: u64) -> RunConfig {
    RunConfig {
        max_steps,
        ..RunConfig::default()
    }
}

/// What must agree: the error reached, the value returned, the exit code; a blocked run
/// blocks in both (at a location of its own program).
fn category(o: &Outcome) -> String {
    match o {
        Outcome::Blocked { .. } => "blocked".into(),
        other => other.to_string(),
    }
}

/// A run that says nothing about the program: cut short, or beyond the interpreter.
fn inconclusive(r: &Run) -> bool {
    matches!(r.outcome, Outcome::StepLimit | Outcome::Unreplayable(_))
}

/// The flagged program's shape: well-formed, and `error` edges only in the entry, one per
/// flagged assertion.
fn check_shape(name: &str, p: &Program, x: &ErrorFlagged) {
    if let Err(e) = qicc_ir::verify_program(&x.program) {
        panic!("{name}: ill-formed after the transformation: {e:?}");
    }
    let q = &x.program;
    for fid in q.function_ids() {
        let errors: Vec<AssertionId> = q
            .function(fid)
            .edges
            .iter()
            .filter_map(|e| match e.op {
                Op::Error(a) => Some(a),
                _ => None,
            })
            .collect();
        if fid == q.entry {
            assert_eq!(
                errors, x.assertions,
                "{name}: the entry reports each assertion once"
            );
        } else {
            assert!(
                errors.is_empty(),
                "{name}: error edges left in @{}",
                q.function(fid).name
            );
        }
    }
    assert_eq!(
        q.assertions.len(),
        p.assertions.len(),
        "{name}: assertion ids kept"
    );
}

/// Runs `from` with a random oracle, replays its witness on `to`; a difference, if any.
fn compare(name: &str, from: &Program, to: &Program, seed: u64) -> Option<Result<(), String>> {
    let a = run(from, &mut RandomOracle::new(seed), &config(200_000));
    if inconclusive(&a) {
        return None;
    }
    // The flagged program takes a few more steps per call: a larger budget.
    let b = replay(to, &a.witness, &config(2_000_000));
    if category(&a.outcome) != category(&b.outcome) {
        return Some(Err(format!(
            "{name}: seed {seed}: {} vs {} after replay",
            a.outcome, b.outcome
        )));
    }
    if a.witness != b.witness {
        return Some(Err(format!(
            "{name}: seed {seed}: the replay asked other questions"
        )));
    }
    Some(Ok(()))
}

#[test]
fn random_runs_replay_both_ways_on_every_benchmark() {
    let files = qicc_testkit::files_with(&qicc_testkit::require_benchmarks_dir(), &["c", "i"]);
    let (mut programs, mut runs, mut errors) = (0, 0, 0);
    let mut diffs = Vec::new();
    for file in &files {
        let opts = qicc_frontend::Options {
            data_model: qicc_ir::DataModel::Ilp32,
            ..Default::default()
        };
        let Ok(lowered) = qicc_frontend::lower_file(file, &opts) else {
            continue;
        };
        let p = lowered.program;
        let name = file.display().to_string();
        let x = error_flag(&p);
        check_shape(&name, &p, &x);
        programs += 1;
        for seed in 0..SEEDS {
            // Input → flagged, and a run of the flagged program → the input.
            for (from, to) in [(&p, &x.program), (&x.program, &p)] {
                match compare(&name, from, to, seed) {
                    None => {}
                    Some(Ok(())) => runs += 1,
                    Some(Err(d)) => diffs.push(d),
                }
            }
            let a = run(&p, &mut RandomOracle::new(seed), &config(200_000));
            errors += usize::from(matches!(a.outcome, Outcome::ErrorReached { .. }));
        }
    }
    eprintln!("error flag: {programs} programs, {runs} runs compared, {errors} reached an error");
    assert!(programs > 100, "too few programs lowered: {programs}");
    assert!(runs > 400, "too few runs compared: {runs}");
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// `main` → `@a` → `@b`; `@b` fails `#1` when its argument is 5, `main` fails `#0` when the
/// input is 7. Written with locations in an odd order and a call straight into the exit.
const TWO_DEEP: &str = r#"qicc-ir 1
data-model ilp32
assertion #0 verifier_assert in @main "x != 7"
assertion #1 verifier_assert in @b "y != 5"
entry @main

fn @b(%y) -> %r {
  local %y: i32
  local %r: i32
  locs 6 entry L0 exit L1 err L2 halt L3
  L0 -> L4: assume eq(%y, 5:i32)
  L4 -> L2: error #1
  L0 -> L5: assume ne(%y, 5:i32)
  L5 -> L1: %r := add(%y, 1:i32)
}

fn @a(%x) -> %r {
  local %x: i32
  local %r: i32
  locs 4 entry L0 exit L1 err L2 halt L3
  L0 -> L1: %r := call @b(%x)
}

fn @main() -> %ret {
  local %ret: i32
  local %x: i32
  locs 7 entry L0 exit L1 err L2 halt L3
  L0 -> L4: havoc %x nondet "__VERIFIER_nondet_int"
  L4 -> L5: %ret := call @a(%x)
  L5 -> L6: assume eq(%x, 7:i32)
  L6 -> L2: error #0
  L5 -> L1: assume ne(%x, 7:i32)
}
"#;

fn run_with_input(p: &Program, x: u64) -> Outcome {
    let mut oracle = InputOracle::new(vec![x], 0);
    run(p, &mut oracle, &config(10_000)).outcome
}

#[test]
fn an_assertion_two_calls_deep_is_reported_by_main() {
    let p = qicc_ir::parse_program(TWO_DEEP).expect("the test program parses");
    qicc_ir::verify_program(&p).expect("the test program is well-formed");
    let x = error_flag(&p);
    check_shape("two_deep", &p, &x);
    assert_eq!(x.assertions, vec![AssertionId(0), AssertionId(1)]);
    let q = &x.program;
    // Both assertions now fail in main, at the end.
    assert!(q.assertions.iter().all(|a| a.func == q.entry));
    let cases = [
        (
            5,
            Outcome::ErrorReached {
                assertion: AssertionId(1),
            },
        ),
        (
            7,
            Outcome::ErrorReached {
                assertion: AssertionId(0),
            },
        ),
        (1, Outcome::Returned { value: Some(2) }),
    ];
    for (input, want) in cases {
        assert_eq!(
            run_with_input(&p, input),
            want,
            "input {input} on the original"
        );
        assert_eq!(
            run_with_input(q, input),
            want,
            "input {input} with the error flag"
        );
    }
}

#[test]
fn flag_is_wide_enough_and_named_apart_from_program_globals() {
    let mut p = qicc_ir::parse_program(TWO_DEEP).expect("the test program parses");
    // A C global named like the flag: the flag takes another name.
    p.add_global(qicc_ir::Global {
        name: "error.flag".into(),
        ty: qicc_ir::Ty::I32,
        unsigned: false,
        init: None,
        span: qicc_ir::Span::UNKNOWN,
    });
    let x = error_flag(&p);
    check_shape("renamed", &p, &x);
    let flag = &x.program.globals[x.flag.index()];
    assert_eq!(flag.name, "error.flag.1");
    assert_eq!(flag.ty, qicc_ir::Ty::I8);
    // Flagging twice is well-formed too (the second flag only ever sees the entry's errors).
    let y = error_flag(&x.program);
    check_shape("twice", &x.program, &y);
    assert_eq!(
        run_with_input(&y.program, 5),
        Outcome::ErrorReached {
            assertion: AssertionId(1)
        }
    );
}
