//! The query corpus: every check a back-end runs (Z3 and Bitwuzla alike), written as a
//! stand-alone SMT-LIB 2 file, for the solver-query benchmark (`bench/queries.py`).
//!
//! Off unless the environment variable `QICC_QUERY_CORPUS` names a directory when the process
//! first checks a query: benchmarks switch it on for a whole run of `qicc verify`, whatever
//! engine or thread asks. Each query is the conjunction the solver was asked about (all
//! asserted frames and the assumptions, in incremental mode too), so it replays without
//! qicc. The file is written before the check (a run cut off by its time cap keeps the
//! query it was stuck in, usually the most interesting one) and the answer and time qicc saw
//! are appended after it as a comment. The first line names the solver's mode and whether
//! Z3's equation solving was on, which the replay (`Z3Solver::check_script`) sets the same.
//!
//! Writing is best-effort: a full disk or a vanished directory makes the corpus incomplete,
//! never the verification wrong.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::{smtlib, TermId, TermStore};

/// The environment variable naming the corpus directory.
pub const ENV: &str = "QICC_QUERY_CORPUS";

fn dir() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = PathBuf::from(std::env::var_os(ENV)?);
        std::fs::create_dir_all(&d).ok()?;
        Some(d)
    })
    .as_deref()
}

/// Whether the corpus is on (checks gather their query only then).
pub(crate) fn enabled() -> bool {
    dir().is_some()
}

/// Whether the query `text` of the corpus was checked with Z3's equation solving (its first
/// line says so): replays set it the same.
pub fn equation_solving(text: &str) -> bool {
    text.lines()
        .next()
        .is_some_and(|l| l.starts_with("; qicc query:") && l.contains("equation solving"))
}

/// One query written to the corpus, waiting for its answer.
pub(crate) struct Recorded(PathBuf);

/// Writes the query `assertions` (with the solver's mode and time limit as a comment) when the
/// corpus is on.
pub(crate) fn record(
    store: &TermStore,
    assertions: &[TermId],
    mode: &str,
    timeout: Option<Duration>,
) -> Option<Recorded> {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let dir = dir()?;
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let path = dir.join(format!("q{}-{n:06}.smt2", std::process::id()));
    let limit = timeout.map_or("none".to_string(), |t| format!("{} ms", t.as_millis()));
    let text = format!(
        "; qicc query: mode {mode}, time limit {limit}\n{}",
        smtlib::script(store, assertions)
    );
    std::fs::write(&path, text).ok()?;
    Some(Recorded(path))
}

impl Recorded {
    /// Appends the answer qicc's solver gave and how long it took.
    pub(crate) fn finish(self, answer: &str, took: Duration) {
        if let Ok(mut f) = std::fs::OpenOptions::new().append(true).open(&self.0) {
            let _ = writeln!(f, "; qicc answer: {answer} in {} ms", took.as_millis());
        }
    }
}
