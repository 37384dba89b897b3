//! `--format sarif`: the logs of a FALSE, a TRUE, an UNKNOWN and a bad input validate against
//! the official SARIF 2.1.0 schema (OASIS errata 01, vendored in `tests/data`), and say what
//! the text report says. The schema check itself must reject broken logs.

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn validator() -> jsonschema::Validator {
    let path = repo().join("tests/data/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).expect("the vendored SARIF schema is readable");
    let schema: Value = serde_json::from_str(&text).expect("the SARIF schema is JSON");
    jsonschema::validator_for(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(v: &jsonschema::Validator, log: &Value, what: &str) {
    let errors: Vec<String> = v
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .collect();
    assert!(
        errors.is_empty(),
        "{what}: invalid SARIF:\n{}\n{log:#}",
        errors.join("\n")
    );
}

/// Runs `qicc verify --format sarif --sarif-root REPO ARGS` on a regression case's program
/// (from its directory); the exit code and the log on stdout.
fn sarif(case: &str, args: &[&str]) -> (i32, Value) {
    let dir = repo().join("tests/regression").join(case);
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .arg("verify")
        .args(["--format", "sarif"])
        .arg("--sarif-root")
        .arg(repo())
        .args(args)
        .arg("main.c")
        .current_dir(&dir)
        .output()
        .expect("qicc runs");
    let log = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{case}: stdout is not JSON ({e}):\n{}",
            String::from_utf8_lossy(&out.stdout)
        )
    });
    (out.status.code().unwrap_or(-1), log)
}

fn run0(log: &Value) -> &Value {
    &log["runs"][0]
}

#[test]
fn false_true_unknown_and_errors_validate() {
    let v = validator();

    let (code, log) = sarif("false_simple", &["--engine", "bmc"]);
    assert_eq!(code, 10);
    assert_valid(&v, &log, "FALSE");
    let run = run0(&log);
    assert_eq!(run["tool"]["driver"]["name"], "qicc");
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{log:#}");
    let r = &results[0];
    assert_eq!(r["level"], "error");
    assert_eq!(r["ruleId"], "assertion-violation");
    let rule = &run["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().unwrap_or(99) as usize];
    assert_eq!(rule["id"], r["ruleId"]);
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(
        loc["artifactLocation"]["uri"],
        "tests/regression/false_simple/main.c"
    );
    assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .expect("%SRCROOT% is defined");
    let repo_dir = std::fs::canonicalize(repo()).expect("the repository exists");
    assert_eq!(root, format!("file://{}/", repo_dir.display()));
    assert_eq!(loc["region"]["startLine"], 8);
    assert_eq!(loc["region"]["startColumn"], 3);
    let flow = &r["codeFlows"][0];
    assert!(
        flow["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("__VERIFIER_nondet_int = 5")),
        "{flow:#}"
    );
    let steps = flow["threadFlows"][0]["locations"]
        .as_array()
        .expect("thread flow locations");
    assert!(steps.iter().any(|s| s["location"]["message"]["text"]
        .as_str()
        .is_some_and(|t| t.contains("x = 5"))));
    assert!(steps
        .iter()
        .any(|s| s["location"]["physicalLocation"]["region"]["startLine"] == 8));

    let (code, log) = sarif("true_bounded_loop", &["--engine", "bmc"]);
    assert_eq!(code, 0);
    assert_valid(&v, &log, "TRUE");
    assert_eq!(run0(&log)["results"], serde_json::json!([]));
    assert_eq!(run0(&log)["invocations"][0]["executionSuccessful"], true);
    assert_eq!(run0(&log)["properties"]["verdict"], "TRUE");

    let (code, log) = sarif(
        "unknown_unbounded",
        &["--engine", "bmc", "--max-unwind", "16"],
    );
    assert_eq!(code, 5);
    assert_valid(&v, &log, "UNKNOWN");
    let run = run0(&log);
    assert_eq!(run["results"], serde_json::json!([]));
    let note = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert!(
        note["message"]["text"]
            .as_str()
            .is_some_and(|t| t.starts_with("verdict UNKNOWN: ")),
        "{log:#}"
    );

    // Undefined behaviour the solver reached: a warning on the write, saying how it was found.
    let (code, log) = sarif("ub_reachable_write", &[]);
    assert_eq!(code, 5);
    assert_valid(&v, &log, "UNKNOWN with reachable undefined behaviour");
    let run = run0(&log);
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{log:#}");
    let r = &results[0];
    assert_eq!(r["level"], "warning");
    assert_eq!(r["ruleId"], "ub/invalid-write");
    let rule = &run["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().unwrap_or(99) as usize];
    assert_eq!(rule["id"], r["ruleId"]);
    assert!(
        r["message"]["text"]
            .as_str()
            .is_some_and(|t| t.contains("not replayed")),
        "{log:#}"
    );
    let loc = &r["locations"][0]["physicalLocation"];
    assert_eq!(loc["region"]["startLine"], 10);

    let (code, log) = sarif("syntax_error", &[]);
    assert_eq!(code, 6);
    assert_valid(&v, &log, "input error");
    let inv = &run0(&log)["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    assert!(
        inv["toolExecutionNotifications"][0]["locations"][0]["physicalLocation"]["region"]
            ["startLine"]
            .is_u64()
    );
}

/// The check can fail: logs broken the ways a renderer could break them are rejected.
#[test]
fn broken_logs_are_rejected() {
    let v = validator();
    let (_, good) = sarif("false_simple", &["--engine", "bmc"]);
    assert_valid(&v, &good, "FALSE");
    let breakages: [(&str, fn(&mut Value)); 5] = [
        ("no version", |l| {
            l.as_object_mut().map(|o| o.remove("version"));
        }),
        ("version 2.0.0", |l| l["version"] = "2.0.0".into()),
        ("level fatal", |l| {
            l["runs"][0]["results"][0]["level"] = "fatal".into()
        }),
        ("line 0", |l| {
            l["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]["startLine"] =
                0.into()
        }),
        ("unknown property", |l| {
            l["runs"][0]["results"][0]["colour"] = "red".into()
        }),
    ];
    for (what, breakage) in breakages {
        let mut bad = good.clone();
        breakage(&mut bad);
        assert!(!v.is_valid(&bad), "{what}: accepted");
    }
}

/// Without `--sarif-root`, `%SRCROOT%` is the enclosing git repository's root (else the
/// current directory), and the location resolves against it to the file.
#[test]
fn the_default_root_resolves_to_the_file() {
    let dir = repo().join("tests/regression/false_simple");
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--format", "sarif", "--engine", "bmc", "main.c"])
        .current_dir(&dir)
        .output()
        .expect("qicc runs");
    let log: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let run = run0(&log);
    let root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
        .as_str()
        .and_then(|u| u.strip_prefix("file://"))
        .expect("%SRCROOT% is a file URI");
    let loc = &run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
    assert_eq!(loc["uriBaseId"], "%SRCROOT%");
    let rel = loc["uri"].as_str().expect("uri");
    let resolved = std::fs::canonicalize(Path::new(root).join(rel)).expect("resolves to a file");
    assert_eq!(
        resolved,
        std::fs::canonicalize(dir.join("main.c")).expect("main.c")
    );
}

/// A `no-overflow` violation is a result of its own rule (`no-overflow`, after the UB rules),
/// whose index names it, in a log the schema accepts.
#[test]
fn an_overflow_is_a_result_of_the_no_overflow_rule() {
    let v = validator();
    let (code, log) = sarif("overflow_add_false", &["--check", "overflow"]);
    assert_eq!(code, 10);
    assert_valid(&v, &log, "overflow_add_false");
    let run = run0(&log);
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "no-overflow", "{result}");
    let index = result["ruleIndex"].as_u64().unwrap_or(u64::MAX) as usize;
    assert_eq!(run["tool"]["driver"]["rules"][index]["id"], "no-overflow");
}

/// A memory-safety violation is a result of its sub-property's rule (`memsafety/valid-deref`,
/// `memsafety/valid-free`, `memsafety/valid-memtrack`, after the UB rules and `no-overflow`),
/// whose index names it, in a log the schema accepts.
#[test]
fn a_memory_safety_violation_is_a_result_of_its_sub_property_rule() {
    let v = validator();
    for (twin, rule) in [
        ("memsafety_oob_false", "memsafety/valid-deref"),
        ("memsafety_double_free_false", "memsafety/valid-free"),
        ("memsafety_leak_overwrite_false", "memsafety/valid-memtrack"),
    ] {
        let (code, log) = sarif(twin, &["--check", "memsafety"]);
        assert_eq!(code, 10, "{twin}");
        assert_valid(&v, &log, twin);
        let run = run0(&log);
        let result = &run["results"][0];
        assert_eq!(result["ruleId"], rule, "{result}");
        let index = result["ruleIndex"].as_u64().unwrap_or(u64::MAX) as usize;
        assert_eq!(run["tool"]["driver"]["rules"][index]["id"], rule);
    }
}
