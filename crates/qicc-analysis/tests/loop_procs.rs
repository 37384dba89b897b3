//! Loops as tail-recursive procedures on every benchmark program that lowers: the result is
//! well-formed, and random runs of the input replay on the result with the same outcome (the
//! invariant the module keeps: the same nondeterministic requests in the same order, so a
//! counterexample of the result is one of the input).

use qicc_analysis::loops_to_procedures;
use qicc_interp::{replay, run, Outcome, RandomOracle, RunConfig};

#[test]
fn random_runs_replay_on_the_procedures() {
    let files = qicc_testkit::files_with(&qicc_testkit::require_benchmarks_dir(), &["c", "i"]);
    let (mut programs, mut converted, mut runs) = (0, 0, 0);
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
        let (q, n) = loops_to_procedures(&p);
        if let Err(e) = qicc_ir::verify_program(&q) {
            panic!(
                "{}: ill-formed after the transformation: {e:?}",
                file.display()
            );
        }
        programs += 1;
        converted += n;
        if n == 0 {
            continue;
        }
        for seed in 0..4u64 {
            let config = RunConfig {
                max_steps: 200_000,
                ..RunConfig::default()
            };
            let a = run(&p, &mut RandomOracle::new(seed), &config);
            if matches!(a.outcome, Outcome::StepLimit | Outcome::Unreplayable(_)) {
                continue;
            }
            runs += 1;
            // The procedures take more steps (calls, result copies): a larger budget.
            let b = replay(
                &q,
                &a.witness,
                &RunConfig {
                    max_steps: 2_000_000,
                    ..RunConfig::default()
                },
            );
            if let Outcome::Unreplayable(why) = &b.outcome {
                // A loop of many iterations is as many nested calls: the interpreter's call
                // depth is the limit, not a difference.
                if why.contains("depth") {
                    continue;
                }
            }
            if category(&a.outcome) != category(&b.outcome) {
                diffs.push(format!(
                    "{}: seed {seed}: {} on the input, {} on the procedures",
                    file.display(),
                    a.outcome,
                    b.outcome
                ));
            }
        }
    }
    eprintln!("loops to procedures: {programs} programs, {converted} loops, {runs} runs compared");
    assert!(converted > 50, "too few loops converted: {converted}");
    assert!(runs > 100, "too few runs compared: {runs}");
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

/// What must agree: the error reached, the value returned, the exit code; a blocked run
/// blocks in both (at a location of its own program).
fn category(o: &Outcome) -> String {
    match o {
        Outcome::Blocked { .. } => "blocked".into(),
        other => other.to_string(),
    }
}
