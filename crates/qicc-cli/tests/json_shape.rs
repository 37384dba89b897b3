//! `verify --format json` has the same keys whatever the outcome: TRUE, FALSE (with its
//! trace), BOUNDED, UNKNOWN by reachable undefined behaviour, and UNKNOWN at the time limit
//! (where the engine is abandoned and the report is made without it), under the default
//! engine and `bmc`. Scripts read every report the same way.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

const TRUE_PROGRAM: &str = r#"
extern void __VERIFIER_assert(int);
int main(void) { int x = 3; __VERIFIER_assert(x == 3); return 0; }
"#;

const FALSE_PROGRAM: &str = r#"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assert(x != 42); return 0; }
"#;

const LOOP_PROGRAM: &str = r#"
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint(), s = 0;
  for (unsigned i = 0; i < n; i++) s += i * i;
  __VERIFIER_assert(n < 100000 || s != 7);
  return 0;
}
"#;

/// A read past an array: a valid-deref violation under `--check memsafety`.
const MEMORY_PROGRAM: &str = r#"
extern int __VERIFIER_nondet_int(void);
int main(void) { int a[2] = {1, 2}; int i = __VERIFIER_nondet_int(); return i >= 0 && i <= 2 ? a[i] : 0; }
"#;

/// Reachable undefined behaviour: the regression case that checks its trace.
const UB_PROGRAM: &str = include_str!("../../../tests/regression/ub_trace_shown/main.c");

/// Keys of an object, and of the objects and arrays of objects below it (`a.b`, `a[].c`).
fn keys(v: &Value, at: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let path = format!("{at}.{k}");
                out.insert(path.clone());
                keys(x, &path, out);
            }
        }
        Value::Array(xs) => {
            for x in xs {
                keys(x, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

fn report(name: &str, program: &str, args: &[&str]) -> Value {
    let dir = std::env::temp_dir().join(format!("qicc-json-shape-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join(format!("{name}.c"));
    std::fs::write(&file, program).expect("write program");
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--format", "json"])
        .args(args)
        .arg(&file)
        .output()
        .expect("run qicc");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{name} {args:?}: not JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

/// The keys that only exist below optional parts: a violation's trace (and its steps), an
/// assertion's argument, the Qicc runs and the proven invariants. The parts themselves are
/// always there (`null` or `[]`).
fn always(keys: &BTreeSet<String>) -> BTreeSet<String> {
    keys.iter()
        .filter(|k| {
            ![
                ".violation.",
                ".internal_error.",
                ".argument.",
                ".attempts[].",
                ".invariants[].",
                ".open[].",
            ]
            .iter()
            .any(|p| k.contains(p))
        })
        .cloned()
        .collect()
}

#[test]
fn every_outcome_has_the_same_keys() {
    let cases: Vec<(&str, &str, Vec<&str>, &str)> = vec![
        ("true", TRUE_PROGRAM, vec![], "true"),
        ("true_bmc", TRUE_PROGRAM, vec!["--engine", "bmc"], "true"),
        ("false", FALSE_PROGRAM, vec![], "false"),
        ("false_bmc", FALSE_PROGRAM, vec!["--engine", "bmc"], "false"),
        (
            "bounded",
            LOOP_PROGRAM,
            vec!["--bound", "3", "--engine", "bmc"],
            "bounded",
        ),
        ("ub", UB_PROGRAM, vec!["--engine", "bmc"], "unknown"),
        (
            "memsafety_false",
            MEMORY_PROGRAM,
            vec!["--check", "memsafety"],
            "false",
        ),
        (
            "memsafety_true",
            TRUE_PROGRAM,
            vec!["--check", "memsafety", "--engine", "bmc"],
            "true",
        ),
        // Far more than a second of work: the time limit ends it.
        ("timeout", LOOP_PROGRAM, vec!["--timeout", "1"], "unknown"),
        (
            "timeout_bmc",
            LOOP_PROGRAM,
            vec!["--timeout", "1", "--engine", "bmc"],
            "unknown",
        ),
    ];
    let mut first: Option<(String, BTreeSet<String>)> = None;
    for (name, program, args, verdict) in cases {
        let json = report(name, program, &args);
        assert_eq!(json["verdict"], verdict, "{name}: {json:#}");
        // Under FALSE, what the counterexample violates, by SV-COMP's name.
        let violated = match (verdict, name.starts_with("memsafety")) {
            ("false", true) => Value::from("valid-deref"),
            ("false", false) => Value::from("unreach-call"),
            _ => Value::Null,
        };
        assert_eq!(json["violated_property"], violated, "{name}: {json:#}");
        let mut all = BTreeSet::new();
        keys(&json, "", &mut all);
        let shape = always(&all);
        for part in [
            ".violation",
            ".internal_error",
            ".attempts",
            ".invariants",
            ".bounded",
        ] {
            assert!(shape.contains(part), "{name}: no {part}");
        }
        for key in [
            ".stats.regions_tried",
            ".stats.bound",
            ".stats.time_ms",
            ".stats.solver",
            ".stats.solver_checks.z3",
            ".stats.solver_checks.bitwuzla",
            ".regions[].name",
            ".regions[].parent",
            ".assertions[].argument_text",
        ] {
            assert!(shape.contains(key), "{name}: no {key}");
        }
        assert!(shape.contains(".assertions[].tries"), "{name}: no tries");
        match &first {
            None => first = Some((name.to_string(), shape)),
            Some((first_name, want)) => {
                let missing: Vec<_> = want.difference(&shape).collect();
                let extra: Vec<_> = shape.difference(want).collect();
                assert!(
                    missing.is_empty() && extra.is_empty(),
                    "{name} differs from {first_name}: missing {missing:?}, extra {extra:?}"
                );
            }
        }
    }
}

/// `--solver` chooses the back-end of every check, and the stats say so: the solver's name and
/// the checks each back-end decided. The same program is FALSE with either.
#[test]
fn the_stats_name_the_solver_and_count_its_checks() {
    for (solver, other) in [("z3", "bitwuzla"), ("bitwuzla", "z3")] {
        let name = format!("solver_{solver}");
        let json = report(&name, FALSE_PROGRAM, &["--solver", solver]);
        assert_eq!(json["verdict"], "false", "{name}: {json:#}");
        let stats = &json["stats"];
        let shown = stats["solver"].as_str().unwrap_or_default();
        assert!(
            shown.starts_with(&format!("{solver} ")),
            "{name}: {stats:#}"
        );
        let checks = &stats["solver_checks"];
        assert!(
            checks[solver].as_u64().unwrap_or(0) > 0,
            "{name}: {stats:#}"
        );
        assert_eq!(checks[other].as_u64(), Some(0), "{name}: {stats:#}");
    }
}
