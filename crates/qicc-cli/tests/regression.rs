//! CBMC-style regression tests: every directory under `tests/regression/` holds a C file and a
//! `test.desc`:
//!
//! ```text
//! CORE                      level: CORE (always run) or KNOWNBUG (listed, not run)
//! main.c                    the input, relative to the directory (several files:
//!                           separated by spaces, each a translation unit)
//! verify --unwind 3         the qicc arguments (the input file is appended); several runs
//!                           separated by ` ;; ` (e.g. one per engine) must each match
//! ^EXIT=10$                 regexes that must each match a line of the output
//! ^VERDICT: FALSE           (stdout and stderr together, plus a synthetic `EXIT=<code>` line)
//! --
//! ^warning                  regexes that must match no line
//! ```

use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;

struct Desc {
    level: String,
    file: String,
    /// One argument list per run.
    runs: Vec<Vec<String>>,
    must: Vec<String>,
    must_not: Vec<String>,
}

fn parse_desc(path: &Path) -> Result<Desc, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut lines = text.lines();
    let mut next = |what: &str| {
        lines
            .next()
            .map(str::to_string)
            .ok_or_else(|| format!("{}: missing {what}", path.display()))
    };
    let level = next("level")?;
    let file = next("file")?;
    let runs = next("arguments")?
        .split(" ;; ")
        .map(|run| run.split_whitespace().map(str::to_string).collect())
        .collect();
    let (mut must, mut must_not, mut after) = (Vec::new(), Vec::new(), false);
    for l in lines {
        if l.trim().is_empty() {
            continue;
        }
        if l == "--" {
            after = true;
        } else if after {
            must_not.push(l.to_string());
        } else {
            must.push(l.to_string());
        }
    }
    Ok(Desc {
        level,
        file,
        runs,
        must,
        must_not,
    })
}

fn tests_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(name)
}

#[test]
fn regression_suite() {
    run_suite("regression", &tests_dir("regression"));
}

/// The harnesses over `../shared/realcode`'s libraries (`tests/realcode/*/test.desc`: each
/// accepted, and no verdict but the expected one or UNKNOWN within its time limit). Their
/// verdicts and times beside ESBMC's: `bench/realcode.py`.
#[test]
fn realcode_harnesses() {
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/realcode");
    if !shared.is_dir() {
        eprintln!(
            "realcode: {} is missing; the harnesses were not run",
            shared.display()
        );
        return;
    }
    run_suite("realcode", &tests_dir("realcode"));
}

/// Runs every test directory under `root` (each with a `test.desc`).
fn run_suite(suite: &str, root: &Path) {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("test.desc").exists())
        // `QICC_REGRESSION_ONLY=bounded` runs the tests whose name contains `bounded`
        // (`a,b`: either).
        .filter(|p| match std::env::var("QICC_REGRESSION_ONLY") {
            Ok(only) => only.split(',').any(|o| p.to_string_lossy().contains(o)),
            Err(_) => true,
        })
        .collect();
    dirs.sort();
    assert!(!dirs.is_empty(), "no {suite} tests found");
    let mut failures = Vec::new();
    let mut ran = 0;
    for dir in &dirs {
        let name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let desc = match parse_desc(&dir.join("test.desc")) {
            Ok(d) => d,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        if desc.level == "KNOWNBUG" {
            eprintln!("{suite} {name}: KNOWNBUG, skipped");
            continue;
        }
        ran += 1;
        for args in &desc.runs {
            check_run(&name, dir, &desc, args, &mut failures);
        }
    }
    eprintln!("{suite}: {ran} tests run, {} failures", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Runs qicc once with `args` on the test's file and checks the output against the patterns.
fn check_run(name: &str, dir: &Path, desc: &Desc, args: &[String], failures: &mut Vec<String>) {
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(args)
        .args(desc.file.split_whitespace())
        .current_dir(dir)
        .output()
        .expect("qicc runs");
    let code = out
        .status
        .code()
        .map(|c| c.to_string())
        .unwrap_or_else(|| "signal".into());
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    text.push_str(&format!("\nEXIT={code}\n"));
    let run = args.join(" ");
    for pat in &desc.must {
        let re = Regex::new(pat).unwrap_or_else(|e| panic!("{name}: bad regex {pat}: {e}"));
        if !text.lines().any(|l| re.is_match(l)) {
            failures.push(format!(
                "{name} ({run}): no line matches {pat}\n---- output ----\n{text}"
            ));
        }
    }
    for pat in &desc.must_not {
        let re = Regex::new(pat).unwrap_or_else(|e| panic!("{name}: bad regex {pat}: {e}"));
        if let Some(l) = text.lines().find(|l| re.is_match(l)) {
            failures.push(format!("{name} ({run}): forbidden line matches {pat}: {l}"));
        }
    }
}
