//! Shared by the integration tests: the benchmark programs and their extracted nodes, gcc,
//! and scratch directories.
#![allow(dead_code)]

pub mod build;

use qicc_analysis::{build_rnt, extract};
use qicc_frontend::task::load_task;
use qicc_ir::{DataModel, Program};
use std::path::{Path, PathBuf};
use std::process::Command;

pub fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[allow(unused_imports)]
pub use qicc_testkit::{require_benchmarks_dir, task_files};

/// A fresh scratch directory under the system temp dir.
pub fn scratch_dir(tag: &str) -> PathBuf {
    static COUNTER: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let d = std::env::temp_dir().join(format!("qicc-external-{tag}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp dir is writable");
    d
}

/// A benchmark task lowered with its data model.
pub struct Lowered {
    pub name: String,
    pub program: Program,
    pub expected: Option<bool>,
}

/// Lowers every task under `root` that the front-end accepts; the others are counted.
pub fn lower_tasks(root: &Path) -> (Vec<Lowered>, Vec<String>) {
    let mut ok = Vec::new();
    let mut failed = Vec::new();
    for t in task_files(root) {
        let Ok(task) = load_task(&t) else {
            failed.push(format!("{}: not a task", t.display()));
            continue;
        };
        if !task.unreach_call {
            continue;
        }
        let opts = qicc_frontend::Options {
            data_model: task.data_model.unwrap_or(DataModel::Lp64),
            ..Default::default()
        };
        let name = t.strip_prefix(root).unwrap_or(&t).display().to_string();
        match qicc_frontend::lower_file(&task.input_file, &opts) {
            Ok(l) => ok.push(Lowered {
                name,
                program: l.program,
                expected: task.expected_verdict,
            }),
            Err(d) => failed.push(format!("{name}: {d}")),
        }
    }
    (ok, failed)
}

/// Every node of the program's Region Nesting Tree, extracted with all its assertions:
/// (node name, extracted program).
pub fn extracted_nodes(p: &Program) -> Vec<(String, Result<Program, String>)> {
    let rnt = build_rnt(p);
    rnt.node_ids()
        .map(|n| {
            let node = rnt.node(n);
            let ex = extract(p, &rnt, n, &node.assertions)
                .map(|e| e.program)
                .map_err(|e| e.to_string());
            (rnt.name(p, n), ex)
        })
        .collect()
}

/// gcc flags for a data model.
pub fn gcc_model_flag(dm: DataModel) -> &'static str {
    match dm {
        DataModel::Ilp32 => "-m32",
        DataModel::Lp64 => "-m64",
    }
}

/// Compiles `file` to an object file; `Err` carries gcc's diagnostics, `Ok` its warnings.
pub fn gcc_compile(file: &Path, dm: DataModel, extra: &[&str]) -> Result<String, String> {
    let obj = file.with_extension("o");
    let out = Command::new("gcc")
        .args([
            "-std=gnu99",
            "-Wall",
            "-Werror=implicit-function-declaration",
            "-c",
        ])
        .arg(gcc_model_flag(dm))
        .args(extra)
        .arg(file)
        .arg("-o")
        .arg(&obj)
        .output()
        .map_err(|e| format!("cannot run gcc: {e}"))?;
    let _ = std::fs::remove_file(&obj);
    let diag = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.success() {
        Ok(diag)
    } else {
        Err(diag)
    }
}
