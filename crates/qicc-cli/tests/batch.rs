//! `qicc batch` end to end, with the real `qicc` on small programs: one result per task with
//! the verdict `qicc verify` gives alone, the merged report, a wrong expected verdict flagged
//! in the exit code, resumption after an interrupt (only the missing tasks run), and the
//! merged SARIF log.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

fn scratch(name: &str) -> PathBuf {
    common::scratch("batch", name)
}

use common::qicc;

const SAFE: &str = "extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 0 && x < 0) reach_error();\n  return 0;\n}\n";
const UNSAFE: &str = "extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 42) reach_error();\n  return 0;\n}\n";

/// A suite: `loops/` with two task files (expected verdicts) and their C files, `plain/` with
/// two C files alone.
fn suite(root: &Path, wrong_expectation: bool) -> PathBuf {
    let s = root.join("suite");
    for d in ["loops", "plain"] {
        std::fs::create_dir_all(s.join(d)).expect("mkdir");
    }
    let task = |name: &str, expected: bool| {
        format!("format_version: '2.0'\ninput_files: '{name}.c'\nproperties:\n  - property_file: ../unreach-call.prp\n    expected_verdict: {expected}\noptions:\n  language: C\n  data_model: LP64\n")
    };
    std::fs::write(
        s.join("unreach-call.prp"),
        "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    )
    .expect("write");
    std::fs::write(s.join("loops/safe.c"), SAFE).expect("write");
    std::fs::write(s.join("loops/safe.yml"), task("safe", !wrong_expectation)).expect("write");
    std::fs::write(s.join("loops/bug.c"), UNSAFE).expect("write");
    std::fs::write(s.join("loops/bug.yml"), task("bug", false)).expect("write");
    std::fs::write(s.join("plain/a.c"), SAFE).expect("write");
    std::fs::write(s.join("plain/b.c"), UNSAFE).expect("write");
    s
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn result(out: &Path, id: &str) -> serde_json::Value {
    let p = out.join("tasks").join(id).join("result.json");
    serde_json::from_str(&read(&p)).expect("a JSON result")
}

#[test]
fn every_task_gets_the_verdict_verify_gives_and_one_merged_report() {
    let d = scratch("verdicts");
    let s = suite(&d, false);
    let out = d.join("out");
    let o = qicc(&[
        "batch",
        "--jobs",
        "2",
        "--timeout",
        "30",
        "--progress",
        "plain",
        "--sarif",
        "-o",
        out.to_str().expect("utf-8"),
        s.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{stderr}\n{stdout}");
    assert!(
        stderr.contains("4 tasks, 0 with a result already, running 4 (2 at a time, 1 thread each"),
        "{stderr}"
    );
    assert!(stderr.contains("[4/4, "), "{stderr}");
    let ids = [
        "suite/loops/bug.yml",
        "suite/loops/safe.yml",
        "suite/plain/a.c",
        "suite/plain/b.c",
    ];
    for id in ids {
        let r = result(&out, id);
        let file = r["task"].as_str().expect("task");
        let alone = qicc(&["verify", "--format", "json", "--timeout", "30", file]);
        let alone: serde_json::Value = serde_json::from_slice(&alone.stdout).expect("JSON report");
        assert_eq!(
            r["verdict"].as_str().map(str::to_ascii_lowercase),
            alone["verdict"].as_str().map(str::to_ascii_lowercase),
            "{id}"
        );
        assert_eq!(r["report"]["verdict"], alone["verdict"], "{id}");
        assert!(
            r["wall_ms"].as_u64().is_some() && r["exit_code"].as_i64().is_some(),
            "{r}"
        );
        assert_eq!(r["timeout_secs"].as_f64(), Some(30.0));
    }
    assert_eq!(result(&out, "suite/loops/safe.yml")["status"], "correct");
    assert_eq!(result(&out, "suite/loops/bug.yml")["status"], "correct");
    assert_eq!(result(&out, "suite/plain/b.c")["verdict"], "FALSE");
    assert_eq!(read(&out.join("results.jsonl")).lines().count(), 4);
    let md = read(&out.join("report.md"));
    assert!(
        md.contains("| suite/loops | 2 | 1 | 1 | 0 | 0 | 2 | 0 | 3 |"),
        "{md}"
    );
    assert!(
        md.contains("| suite/plain | 2 | 1 | 1 | 0 | 0 | 0 | 0 | 0 |"),
        "{md}"
    );
    assert!(stdout.contains("total"), "{stdout}");
    let sarif: serde_json::Value =
        serde_json::from_str(&read(&out.join("results.sarif"))).expect("SARIF");
    assert_eq!(sarif["runs"].as_array().map(Vec::len), Some(4));
    // Merging again gives the same report; a run over the same directory runs nothing.
    let before = read(&out.join("report.md"));
    let o = qicc(&["batch", "--merge", "-o", out.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(read(&out.join("report.md")), before);
    let o = qicc(&["batch", "--merge", out.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(read(&out.join("report.md")), before);
    let o = qicc(&[
        "batch",
        "--progress",
        "none",
        "-o",
        out.to_str().expect("utf-8"),
        s.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("4 with a result already, running 0"),
        "{stderr}"
    );
    // --select picks by id.
    let o = qicc(&[
        "batch",
        "--rerun",
        "--select",
        "*/plain/*",
        "--progress",
        "none",
        "-o",
        d.join("sel").to_str().expect("utf-8"),
        s.to_str().expect("utf-8"),
    ]);
    assert!(String::from_utf8_lossy(&o.stderr).contains("2 tasks, 0 with a result already"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn a_wrong_verdict_is_flagged_and_fails_the_batch() {
    let d = scratch("wrong");
    let s = suite(&d, true);
    let out = d.join("out");
    let o = qicc(&[
        "batch",
        "--timeout",
        "30",
        "--progress",
        "none",
        "-o",
        out.to_str().expect("utf-8"),
        s.join("loops").to_str().expect("utf-8"),
    ]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("WRONG   loops/safe.yml TRUE"), "{stdout}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("1 wrong verdict(s)"));
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn an_interrupted_batch_resumes_with_the_missing_tasks_only() {
    let d = scratch("resume");
    let s = d.join("slow");
    std::fs::create_dir_all(&s).expect("mkdir");
    // Each task takes its whole 2 s timeout (the solver cannot factor 2^61 - 1 that fast).
    let slow = read(&PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/regression/memory_limit_unknown/main.c"
    )));
    for i in 0..5 {
        std::fs::write(s.join(format!("t{i}.c")), &slow).expect("write");
    }
    let out = d.join("out");
    let mut child = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args([
            "batch",
            "--jobs",
            "1",
            "--timeout",
            "2",
            "--progress",
            "plain",
            "-o",
        ])
        .arg(&out)
        .arg(&s)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start qicc batch");
    // Interrupt once the first result is there.
    let start = Instant::now();
    while !out.join("tasks/slow/t0.c/result.json").exists() {
        assert!(start.elapsed() < Duration::from_secs(60), "no first result");
        std::thread::sleep(Duration::from_millis(50));
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success());
    let status = child.wait().expect("wait");
    assert_eq!(status.code(), Some(130));
    let done: Vec<bool> = (0..5)
        .map(|i| out.join(format!("tasks/slow/t{i}.c/result.json")).exists())
        .collect();
    let n_done = done.iter().filter(|d| **d).count();
    assert!((1..5).contains(&n_done), "{done:?}");
    let first = std::fs::metadata(out.join("tasks/slow/t0.c/result.json"))
        .and_then(|m| m.modified())
        .expect("mtime");
    let o = qicc(&[
        "batch",
        "--jobs",
        "2",
        "--timeout",
        "2",
        "--progress",
        "plain",
        "-o",
        out.to_str().expect("utf-8"),
        s.to_str().expect("utf-8"),
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "5 tasks, {n_done} with a result already, running {}",
            5 - n_done
        )),
        "{stderr}"
    );
    for i in 0..5 {
        assert_eq!(result(&out, &format!("slow/t{i}.c"))["verdict"], "UNKNOWN");
    }
    let again = std::fs::metadata(out.join("tasks/slow/t0.c/result.json"))
        .and_then(|m| m.modified())
        .expect("mtime");
    assert_eq!(first, again, "a finished task ran again");
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn bad_inputs_are_clear_errors() {
    let o = qicc(&["batch"]);
    assert_eq!(o.status.code(), Some(2));
    let o = qicc(&["batch", "/no/such/dir", "-o", "/tmp/qicc-batch-none"]);
    assert_eq!(o.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&o.stderr).contains("/no/such/dir: no such file or directory"));
    let o = qicc(&["batch", "--select", "[", env!("CARGO_MANIFEST_DIR")]);
    assert_eq!(o.status.code(), Some(6));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--select ["));
}
