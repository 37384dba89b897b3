//! `qicc report --html DIR RESULTS…`: the browsable report of saved results (a `qicc verify
//! --format json` report, a batch's `result.json`, a batch's output directory), and the one
//! place the CLI turns results into `qicc-html`'s site (also for `verify --html` and `batch
//! --html`).

use clap::Args;
use qicc_batch::run::TaskResult;
use qicc_html::{write_site, IndexRow, SiteRun};
use serde::Deserialize;
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct ReportArgs {
    /// Write the browsable report into DIR: `index.html` (every run, sortable) and one page
    /// per run under `tasks/`. Self-contained: open `DIR/index.html` from disk.
    #[arg(long, value_name = "DIR", required = true)]
    pub html: PathBuf,
    /// Results: JSON reports (`qicc verify --format json > r.json`), batch result files
    /// (`result.json`) and batch output directories.
    #[arg(required = true)]
    pub results: Vec<PathBuf>,
}

pub fn run(args: ReportArgs) -> u8 {
    let mut runs = Vec::new();
    for path in &args.results {
        if path.is_dir() {
            let results = qicc_batch::merge::load_results(path);
            if results.is_empty() {
                eprintln!(
                    "qicc report: no result.json under {}",
                    path.join("tasks").display()
                );
                return crate::EXIT_INPUT_ERROR;
            }
            runs.extend(results.into_iter().map(batch_run));
            continue;
        }
        match read_json(path) {
            // Read in place: a report with a long trace is megabytes.
            Ok(v) => match TaskResult::deserialize(&v) {
                Ok(r) => runs.push(batch_run(r)),
                Err(_) if v.get("verdict").is_some() && v.get("assertions").is_some() => {
                    runs.push(report_run(path, v))
                }
                Err(_) => {
                    eprintln!(
                        "qicc report: {}: neither a qicc JSON report nor a batch result",
                        path.display()
                    );
                    return crate::EXIT_INPUT_ERROR;
                }
            },
            Err(e) => {
                eprintln!("qicc report: {e}");
                return crate::EXIT_INPUT_ERROR;
            }
        }
    }
    write_html_site(&args.html, "qicc results", runs)
}

fn read_json(path: &Path) -> Result<serde_json::Value, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))
}

/// Writes the site and says where it is; the exit code.
pub fn write_html_site(dir: &Path, title: &str, runs: Vec<SiteRun>) -> u8 {
    written(dir, write_site(dir, title, runs, &builtin_sources())).map_or_else(|c| c, |()| 0)
}

/// `verify --html DIR`: this run's page as `DIR/index.html`, its command line in the summary.
pub fn write_run_page(report: &qicc_driver::Report, dir: &Path) -> Result<(), u8> {
    let json = serde_json::to_value(report).map_err(|e| {
        eprintln!("qicc: internal error: cannot serialise the report: {e}");
        crate::EXIT_INTERNAL
    })?;
    let sources = qicc_html::load_sources(&json, &[], &builtin_sources());
    let command: Vec<String> = std::env::args().collect();
    let page = qicc_html::report_page(&qicc_html::PageInput {
        report: &json,
        sources: &sources,
        command: Some(&command),
        index_link: None,
    });
    written(dir, qicc_html::write_page(dir, "index.html", &page))
}

/// Says where the pages went (their entry page), or why they could not be written.
fn written(dir: &Path, r: std::io::Result<PathBuf>) -> Result<(), u8> {
    match r {
        Ok(index) => {
            eprintln!("qicc: browsable report written: {}", index.display());
            Ok(())
        }
        Err(e) => {
            eprintln!(
                "qicc: cannot write the browsable report into {}: {e}",
                dir.display()
            );
            Err(crate::EXIT_INPUT_ERROR)
        }
    }
}

/// The files a report may name that qicc compiles in: the C library models.
pub fn builtin_sources() -> [qicc_html::Builtin<'static>; 1] {
    [(
        qicc_ir::LIBRARY_MODELS_FILE,
        qicc_frontend::library_models_source(),
    )]
}

/// A batch result as a run of the site.
pub fn batch_run(r: TaskResult) -> SiteRun {
    let task_dir = Path::new(&r.task).parent().map(Path::to_path_buf);
    let mut command = vec!["qicc".to_string(), "verify".to_string()];
    command.extend(r.args.iter().cloned());
    command.push(r.task.clone());
    SiteRun {
        row: IndexRow {
            id: r.id,
            family: r.family,
            verdict: r.verdict.to_ascii_lowercase(),
            expected: r.expected_verdict,
            status: r.status,
            wall_ms: r.wall_ms,
            peak_rss_kib: r.peak_rss_kib,
            reason: r.reason,
            page: None,
        },
        report: r.report,
        command: Some(command),
        dirs: task_dir.into_iter().collect(),
    }
}

/// A `qicc verify --format json` report saved in `path` as a run of the site.
fn report_run(path: &Path, v: serde_json::Value) -> SiteRun {
    let str_at = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_string);
    let program = str_at("task")
        .or_else(|| str_at("file"))
        .unwrap_or_default();
    let verdict = str_at("verdict").unwrap_or_default();
    let expected = v.get("expected_verdict").and_then(|e| e.as_bool());
    let internal_error = v.get("internal_error").is_some_and(|e| !e.is_null());
    let status = qicc_batch::run::status(&verdict.to_ascii_uppercase(), expected, internal_error);
    let stats = &v["stats"];
    let family = Path::new(&program)
        .parent()
        .and_then(|p| p.file_name())
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut dirs: Vec<PathBuf> = path.parent().map(Path::to_path_buf).into_iter().collect();
    dirs.extend(Path::new(&program).parent().map(Path::to_path_buf));
    SiteRun {
        row: IndexRow {
            id: path.display().to_string(),
            family,
            verdict,
            expected,
            status: status.to_string(),
            wall_ms: stats["time_ms"].as_u64().unwrap_or(0),
            peak_rss_kib: stats["peak_rss_kib"].as_u64(),
            reason: str_at("reason"),
            page: None,
        },
        report: Some(v),
        command: None,
        dirs,
    }
}
