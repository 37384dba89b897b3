//! Runs every filetest under `filetests/` (see the crate docs); `QICC_BLESS=1` rewrites the
//! expected output of the failing ones.

use qicc_filetests::FileTest;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "qir") {
            out.push(p);
        }
    }
}

#[test]
fn filetests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../filetests");
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    assert!(!all.is_empty(), "no filetests under {}", root.display());
    let bless = std::env::var_os("QICC_BLESS").is_some();
    let mut failures = Vec::new();
    for path in &all {
        let name = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .display()
            .to_string();
        let text = std::fs::read_to_string(path).expect("readable filetest");
        let test = match FileTest::parse(&text) {
            Ok(t) => t,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let actual = match test.run(path) {
            Ok(out) => out,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if test.expected.as_deref() == Some(actual.as_str()) {
            continue;
        }
        if bless {
            std::fs::write(path, test.blessed(&actual)).expect("writable filetest");
            eprintln!("blessed {name}");
        } else {
            failures.push(format!(
                "{name}: output differs\n--- expected\n{}--- actual\n{actual}",
                test.expected
                    .as_deref()
                    .unwrap_or("(no `; expect:` section)\n")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} filetests failed (QICC_BLESS=1 rewrites expectations):\n\n{}",
        failures.len(),
        all.len(),
        failures.join("\n\n")
    );
}
