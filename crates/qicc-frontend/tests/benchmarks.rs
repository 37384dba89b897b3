//! Every benchmark task lowers, or fails with a located `Unsupported` diagnostic — never a
//! panic, a syntax, type or internal error (these files are all accepted by gcc).

mod common;

use common::*;
use qicc_frontend::{task::load_task, DiagKind};
use qicc_ir::DataModel;

/// Tasks that must lower (the figure reached: all but the one using `float`).
const MIN_LOWERED: usize = 142;

#[test]
fn every_benchmark_lowers_or_is_cleanly_unsupported() {
    let root = require_benchmarks_dir();
    let tasks = task_files(&root);
    assert!(!tasks.is_empty(), "no task files under {}", root.display());
    let mut lowered = 0;
    let mut rows = Vec::new();
    let mut bad = Vec::new();
    for t in &tasks {
        let task = match load_task(t) {
            Ok(task) => task,
            Err(d) => {
                bad.push(format!("{}: task file: {d}", t.display()));
                continue;
            }
        };
        let dm = task.data_model.unwrap_or(DataModel::Lp64);
        let input = task.input_file.clone();
        let result = std::panic::catch_unwind(move || lower(&input, dm));
        let name = t.strip_prefix(&root).unwrap_or(t).display().to_string();
        match result {
            Err(_) => bad.push(format!("{name}: PANIC")),
            Ok(Ok(l)) => {
                lowered += 1;
                rows.push(format!(
                    "lowered      {name} ({} functions, {} assertions, {} warnings)",
                    l.program.functions.len(),
                    l.program.assertions.len(),
                    l.warnings.len()
                ));
            }
            Ok(Err(d)) => {
                let located = d.line >= 1 && d.col >= 1 && !d.file.is_empty();
                if d.kind != DiagKind::Unsupported || !located {
                    bad.push(format!("{name}: {d} (kind {:?})", d.kind));
                } else {
                    rows.push(format!("unsupported  {name}: {d}"));
                }
            }
        }
    }
    rows.sort();
    println!("{}", rows.join("\n"));
    println!(
        "lowered {lowered} of {} tasks ({:.1}%)",
        tasks.len(),
        100.0 * lowered as f64 / tasks.len() as f64
    );
    assert!(bad.is_empty(), "tasks failing badly:\n{}", bad.join("\n"));
    assert!(
        lowered >= MIN_LOWERED,
        "only {lowered} tasks lowered (expected at least {MIN_LOWERED})"
    );
}
