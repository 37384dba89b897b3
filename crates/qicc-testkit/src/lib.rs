//! Test support shared by the qicc crates' integration tests: where the SV-COMP style
//! benchmark tasks are (`../shared/benchmarks`, the `shared` folder beside the repository, as
//! CI lays it out) and which files they hold. One place, so that every whole-benchmark test
//! walks the same set in the same order.

use std::path::{Path, PathBuf};

/// `<repository>/../shared/benchmarks`, if it exists.
pub fn benchmarks_dir() -> Option<PathBuf> {
    let d = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/benchmarks");
    d.canonicalize().ok().filter(|d| d.is_dir())
}

/// The benchmark directory, or a panic that says where it was expected: whole-benchmark tests
/// must not pass by finding nothing.
pub fn require_benchmarks_dir() -> PathBuf {
    benchmarks_dir().unwrap_or_else(|| {
        panic!(
            "the benchmarks are missing: expected {}/../../../shared/benchmarks",
            env!("CARGO_MANIFEST_DIR")
        )
    })
}

/// Files under `root` whose extension is one of `exts`, sorted by path (so `seeds/` comes
/// before `sv-comp/`).
pub fn files_with(root: &Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.contains(&x))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every task file (`.yml`) under `root`.
pub fn task_files(root: &Path) -> Vec<PathBuf> {
    files_with(root, &["yml"])
}

/// How much of the benchmark corpus a whole-corpus test runs: `QICC_CORPUS=full` runs every
/// task (what `bench/full_corpus.sh` does); anything else, and CI, a fixed half.
pub fn full_corpus() -> bool {
    std::env::var("QICC_CORPUS").is_ok_and(|v| v == "full")
}

/// The part of `files` a whole-corpus test runs: all of them under `QICC_CORPUS=full`,
/// otherwise every second file of each directory (the first, third, ... in path order), so
/// that every family stays in the sample and the same tasks are chosen on every run. CI pays
/// for half the corpus; the full runs are `bench/full_corpus.sh`'s. Says what it chose on
/// stderr, so a test's log never hides that it sampled.
pub fn corpus_sample(files: Vec<PathBuf>) -> Vec<PathBuf> {
    sample_by(files, |p| p.as_path())
}

/// [`corpus_sample`] over items that carry a path (`path` gives it).
pub fn sample_by<T>(items: Vec<T>, path: impl Fn(&T) -> &Path) -> Vec<T> {
    let total = items.len();
    if full_corpus() {
        eprintln!("corpus: all {total} tasks (QICC_CORPUS=full)");
        return items;
    }
    let kept = every_second_per_dir(items, path);
    eprintln!(
        "corpus: a fixed sample of {} of {total} tasks (every second per directory; \
         QICC_CORPUS=full runs all)",
        kept.len()
    );
    kept
}

fn every_second_per_dir<T>(items: Vec<T>, path: impl Fn(&T) -> &Path) -> Vec<T> {
    let mut seen = std::collections::HashMap::<PathBuf, usize>::new();
    items
        .into_iter()
        .filter(|it| {
            let dir = path(it).parent().map(Path::to_path_buf).unwrap_or_default();
            let n = seen.entry(dir).or_default();
            *n += 1;
            *n % 2 == 1
        })
        .collect()
}

/// A seed program (`seeds/<name>.c`), or a panic that names the missing file.
pub fn require_seed(name: &str) -> PathBuf {
    let p = require_benchmarks_dir()
        .join("seeds")
        .join(format!("{name}.c"));
    assert!(p.is_file(), "the seed {} is missing", p.display());
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_keeps_every_family_and_every_second_task_of_each() {
        let files: Vec<PathBuf> = ["a/1", "a/2", "a/3", "b/1", "c/1", "c/2"]
            .iter()
            .map(PathBuf::from)
            .collect();
        let kept = every_second_per_dir(files, |p| p.as_path());
        let kept: Vec<&str> = kept.iter().filter_map(|p| p.to_str()).collect();
        assert_eq!(kept, ["a/1", "a/3", "b/1", "c/1"]);
    }
}
