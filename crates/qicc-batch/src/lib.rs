//! Many tasks at once (`qicc batch`): each task is one `qicc verify --format json` child
//! process in its own process group, and leaves one JSON result in its own directory of the
//! output directory; the merged report (per task, per family, SV-COMP score) is computed from
//! those files alone.
//!
//! Invariant: every file a task's run writes is inside its task directory
//! (`DIR/tasks/<task id>/`), written whole (a temporary file renamed into place), so runs
//! anywhere — threads here, Slurm array elements on other nodes sharing the directory — never
//! write the same file, and a task whose `result.json` exists is done (resumption skips it).
//! `results.jsonl` and the reports are derived by [`merge`], which any process can redo.
//!
//! This crate drives the `qicc` binary and names no other qicc crate (the layering test).

pub mod merge;
pub mod process;
pub mod run;
pub mod slurm;
pub mod tasks;
