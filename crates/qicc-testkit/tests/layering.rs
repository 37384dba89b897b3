//! The workspace's layering, checked on every `cargo test --workspace` (rust-analyzer's
//! "tidy" tests are the model): the crates' real `Cargo.toml` files, read through
//! `cargo metadata`, against [`RULES`], and ARCHITECTURE.md's crate table against [`RULES`].
//!
//! [`RULES`] is the one statement of who may depend on whom. A crate that gains a dependency
//! the rules do not allow, or a new crate the rules do not list, fails here with what to do;
//! so does a table in ARCHITECTURE.md that says something else.
//!
//! Only normal (and build) dependencies are held to the rules. Dev-dependencies may be looser
//! — tests of a low crate use the front-end to write programs in C and the interpreter to run
//! them — and only have to stay away from the tools at the top ([`TOOLS`]).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Crate → the workspace crates it may depend on (normal dependencies). Keep ARCHITECTURE.md's
/// table ("may depend on" column, short names without `qicc-`) identical.
const RULES: &[(&str, &[&str])] = &[
    ("qicc-ir", &[]),
    ("qicc-frontend", &["qicc-ir"]),
    ("qicc-interp", &["qicc-ir"]),
    ("qicc-engine", &["qicc-ir"]),
    ("qicc-analysis", &["qicc-ir"]),
    // The shared loop analysis of `qicc-analysis` serves the facts and the BMC; so the
    // analysis must never depend on either.
    ("qicc-facts", &["qicc-ir", "qicc-analysis"]),
    ("qicc-smt", &["qicc-ir"]),
    // The symbolic-execution seam every solver-based engine builds on.
    (
        "qicc-symex",
        &[
            "qicc-ir",
            "qicc-interp",
            "qicc-engine",
            "qicc-analysis",
            "qicc-smt",
        ],
    ),
    (
        "qicc-bmc",
        &[
            "qicc-ir",
            "qicc-interp",
            "qicc-engine",
            "qicc-analysis",
            "qicc-facts",
            "qicc-smt",
            "qicc-symex",
        ],
    ),
    // Loop invariants: Houdini over loops cut at their heads, checked by the BMC; Impulse's
    // closed forms are among the candidates.
    (
        "qicc-invariants",
        &[
            "qicc-ir",
            "qicc-engine",
            "qicc-analysis",
            "qicc-facts",
            "qicc-interp",
            "qicc-smt",
            "qicc-symex",
            "qicc-bmc",
            "qicc-impulse",
        ],
    ),
    // Corral: stratified inlining on the symbolic-execution seam.
    (
        "qicc-corral",
        &[
            "qicc-ir",
            "qicc-engine",
            "qicc-analysis",
            "qicc-facts",
            "qicc-smt",
            "qicc-symex",
        ],
    ),
    (
        "qicc-impulse",
        &[
            "qicc-ir",
            "qicc-interp",
            "qicc-engine",
            "qicc-analysis",
            "qicc-smt",
            "qicc-bmc",
        ],
    ),
    // The C emitter asks the analysis which functions a program can reach; a tool's
    // violation witness is replayed by the interpreter.
    (
        "qicc-external",
        &["qicc-ir", "qicc-engine", "qicc-analysis", "qicc-interp"],
    ),
    (
        "qicc-gamble",
        &[
            "qicc-ir",
            "qicc-engine",
            "qicc-analysis",
            "qicc-facts",
            "qicc-bmc",
            "qicc-external",
        ],
    ),
    (
        "qicc-driver",
        &[
            "qicc-ir",
            "qicc-frontend",
            "qicc-interp",
            "qicc-engine",
            "qicc-analysis",
            "qicc-bmc",
            "qicc-corral",
            "qicc-impulse",
            "qicc-gamble",
            "qicc-external",
            "qicc-invariants",
            "qicc-smt",
        ],
    ),
    (
        "qicc-cli",
        &[
            "qicc-ir",
            "qicc-frontend",
            "qicc-interp",
            "qicc-engine",
            "qicc-analysis",
            "qicc-external",
            "qicc-driver",
            "qicc-batch",
            "qicc-html",
        ],
    ),
    // Test-only harness at the top, like the fuzzer: runs passes on `filetests/`.
    (
        "qicc-filetests",
        &[
            "qicc-ir",
            "qicc-engine",
            "qicc-analysis",
            "qicc-facts",
            "qicc-impulse",
            "qicc-invariants",
            "qicc-driver",
        ],
    ),
    (
        "qicc-fuzz",
        &[
            "qicc-ir",
            "qicc-frontend",
            "qicc-interp",
            "qicc-engine",
            "qicc-driver",
        ],
    ),
    // Drive the `qicc` binary as child processes (the study reuses the batch's runner).
    ("qicc-batch", &[]),
    // Renders the JSON report (its contract): names no qicc crate.
    ("qicc-html", &[]),
    ("qicc-study", &["qicc-batch"]),
    // Only ever a dev-dependency.
    ("qicc-testkit", &[]),
];

/// The tools at the top: no crate depends on them, not even in its tests.
const TOOLS: &[&str] = &["qicc-cli", "qicc-fuzz", "qicc-study", "qicc-filetests"];

/// Third-party crates only one crate may name, in any kind of dependency (ARCHITECTURE.md:
/// "only `qicc-smt` names Z3 and Bitwuzla; only `qicc-frontend` names lang-c").
const ONLY_IN: &[(&str, &str)] = &[
    ("z3", "qicc-smt"),
    ("z3-sys", "qicc-smt"),
    ("bitwuzla", "qicc-smt"),
    ("bitwuzla-sys", "qicc-smt"),
    ("lang-c", "qicc-frontend"),
];

fn rules() -> BTreeMap<String, BTreeSet<String>> {
    RULES
        .iter()
        .map(|(c, deps)| (c.to_string(), deps.iter().map(|d| d.to_string()).collect()))
        .collect()
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One workspace crate as `cargo metadata` reads its `Cargo.toml`.
struct Krate {
    name: String,
    manifest: String,
    /// (dependency name, kind: `normal`, `dev` or `build`).
    deps: Vec<(String, String)>,
}

/// Every workspace member, from `cargo metadata` (which resolves `workspace = true`
/// dependencies and renames, so no hand parsing of TOML).
fn workspace() -> Vec<Krate> {
    let out = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(workspace_root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "cargo metadata failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let str_of = |v: &Value| v.as_str().expect("a string in cargo metadata").to_string();
    meta["packages"]
        .as_array()
        .expect("cargo metadata lists packages")
        .iter()
        .map(|p| Krate {
            name: str_of(&p["name"]),
            manifest: str_of(&p["manifest_path"]),
            deps: p["dependencies"]
                .as_array()
                .expect("a package lists its dependencies")
                .iter()
                .map(|d| {
                    let kind = d["kind"].as_str().unwrap_or("normal").to_string();
                    (str_of(&d["name"]), kind)
                })
                .collect(),
        })
        .collect()
}

#[test]
fn every_crate_depends_only_on_what_the_rules_allow() {
    let rules = rules();
    let crates = workspace();
    let members: BTreeSet<&str> = crates.iter().map(|k| k.name.as_str()).collect();
    assert!(
        members.len() >= RULES.len(),
        "cargo metadata found only {members:?}"
    );
    let mut problems = Vec::new();
    for k in &crates {
        let Some(allowed) = rules.get(&k.name) else {
            problems.push(format!(
                "{} ({}) is not in the layering rules: add it to RULES in {} and to the \
                 crate table of ARCHITECTURE.md, with the crates it may depend on",
                k.name,
                k.manifest,
                file!()
            ));
            continue;
        };
        for (dep, kind) in &k.deps {
            if !members.contains(dep.as_str()) || dep == &k.name {
                continue;
            }
            if kind == "dev" {
                if TOOLS.contains(&dep.as_str()) {
                    problems.push(format!(
                        "{} has a dev-dependency on {dep}, a tool at the top of the workspace",
                        k.name
                    ));
                }
            } else if !allowed.contains(dep) {
                problems.push(format!(
                    "{} depends on {dep} ({kind} dependency in {}), which the layering rules \
                     forbid; it may depend on: {}",
                    k.name,
                    k.manifest,
                    if allowed.is_empty() {
                        "no workspace crate".to_string()
                    } else {
                        allowed.iter().cloned().collect::<Vec<_>>().join(", ")
                    }
                ));
            }
        }
    }
    for name in rules.keys() {
        if !members.contains(name.as_str()) {
            problems.push(format!(
                "the layering rules list {name}, which is not a workspace crate"
            ));
        }
    }
    // A directory under crates/ that is not a member would escape every check above.
    let dirs = std::fs::read_dir(workspace_root().join("crates")).expect("crates/ is readable");
    for d in dirs.flatten() {
        if d.path().join("Cargo.toml").is_file() {
            let name = d.file_name().to_string_lossy().into_owned();
            if !members.contains(name.as_str()) {
                problems.push(format!(
                    "crates/{name} has a Cargo.toml but is no workspace member of that name"
                ));
            }
        }
    }
    assert!(
        problems.is_empty(),
        "layering:\n  {}",
        problems.join("\n  ")
    );
}

#[test]
fn only_the_owning_crate_names_z3_and_lang_c() {
    let mut problems = Vec::new();
    for k in workspace() {
        for (dep, kind) in &k.deps {
            for (ext, owner) in ONLY_IN {
                if dep == ext && k.name != *owner {
                    problems.push(format!(
                        "{} names {ext} ({kind} dependency); only {owner} may",
                        k.name
                    ));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_rules_are_a_layering() {
    // Repeatedly remove crates whose allowed dependencies are all removed; what is left is
    // on a cycle (or depends on a crate the rules do not list).
    let rules = rules();
    let mut left: BTreeMap<&String, &BTreeSet<String>> = rules.iter().collect();
    loop {
        let ready: Vec<&String> = left
            .iter()
            .filter(|(_, deps)| {
                deps.iter()
                    .all(|d| !left.contains_key(d) && rules.contains_key(d))
            })
            .map(|(c, _)| *c)
            .collect();
        if ready.is_empty() {
            break;
        }
        for c in ready {
            left.remove(c);
        }
    }
    assert!(
        left.is_empty(),
        "the layering rules have a cycle or name an unlisted crate among: {:?}",
        left.keys().collect::<Vec<_>>()
    );
}

/// The crate table of ARCHITECTURE.md: crate → its "may depend on" cell, parsed.
fn architecture_table(text: &str) -> Result<BTreeMap<String, BTreeSet<String>>, String> {
    let cells = |line: &str| -> Vec<String> {
        line.trim()
            .trim_start_matches('|')
            .trim_end_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect()
    };
    let mut lines = text.lines();
    let header = lines
        .by_ref()
        .find(|l| l.starts_with("| crate |"))
        .ok_or("no table whose header starts with `| crate |`")?;
    let header = cells(header);
    let col = |name: &str| {
        header.iter().position(|h| h == name).ok_or(format!(
            "the crate table has no column `{name}`: {header:?}"
        ))
    };
    let (crate_col, deps_col) = (col("crate")?, col("may depend on")?);
    let mut table = BTreeMap::new();
    for line in lines.take_while(|l| l.starts_with('|')) {
        let row = cells(line);
        if row
            .iter()
            .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
        {
            continue; // the separator row
        }
        if row.len() != header.len() {
            return Err(format!(
                "row with {} cells, header has {}: {line}",
                row.len(),
                header.len()
            ));
        }
        let name = row[crate_col].trim_matches('`').to_string();
        let cell = &row[deps_col];
        let mut deps = BTreeSet::new();
        if cell != "—" {
            for d in cell.split(',').map(str::trim) {
                if d.is_empty() || !d.chars().all(|ch| ch.is_ascii_lowercase() || ch == '-') {
                    return Err(format!(
                        "{name}: `{d}` in `{cell}` is not a crate's short name (e.g. `ir`, \
                         comma-separated, or `—` for none)"
                    ));
                }
                deps.insert(format!("qicc-{d}"));
            }
        }
        if table.insert(name.clone(), deps).is_some() {
            return Err(format!("{name} has two rows"));
        }
    }
    Ok(table)
}

#[test]
fn architecture_md_states_the_rules() {
    let path = workspace_root().join("ARCHITECTURE.md");
    let text = std::fs::read_to_string(&path).expect("ARCHITECTURE.md is readable");
    let doc = architecture_table(&text)
        .unwrap_or_else(|e| panic!("{}: crate table: {e}", path.display()));
    let rules = rules();
    let mut problems = Vec::new();
    for (name, allowed) in &rules {
        match doc.get(name) {
            None => problems.push(format!("{name} has no row")),
            Some(d) if d != allowed => problems.push(format!(
                "{name}: the table says {d:?}, the rules say {allowed:?}"
            )),
            Some(_) => {}
        }
    }
    for name in doc.keys().filter(|n| !rules.contains_key(*n)) {
        problems.push(format!("{name} has a row but is not in the rules"));
    }
    assert!(
        problems.is_empty(),
        "{} disagrees with RULES in {}:\n  {}",
        path.display(),
        file!(),
        problems.join("\n  ")
    );
}

#[test]
fn the_table_parser_reads_rows_and_rejects_prose() {
    let good = "x\n| crate | owns | may depend on |\n|---|---|---|\n| `qicc-a` | it | — |\n\
                | `qicc-b` | it, too | ir, a |\nafter\n";
    let t = architecture_table(good).expect("parses");
    assert_eq!(t["qicc-a"], BTreeSet::new());
    assert_eq!(
        t["qicc-b"],
        ["qicc-ir", "qicc-a"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    );
    let prose =
        "| crate | owns | may depend on |\n|---|---|---|\n| `qicc-b` | it | all engines |\n";
    assert!(architecture_table(prose).is_err());
    assert!(architecture_table("no table").is_err());
}
