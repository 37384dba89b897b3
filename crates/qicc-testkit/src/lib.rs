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

/// A seed program (`seeds/<name>.c`), or a panic that names the missing file.
pub fn require_seed(name: &str) -> PathBuf {
    let p = require_benchmarks_dir()
        .join("seeds")
        .join(format!("{name}.c"));
    assert!(p.is_file(), "the seed {} is missing", p.display());
    p
}
