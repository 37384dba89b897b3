//! The `qicc-study` binary and the child-process runner, against fake `qicc` scripts (never the
//! real verifier): generation on disk, Table 1 from known answers, wrong verdicts, an engine the
//! binary does not know, and the kill of a run that outlives its timeout.

use qicc_study::run::{Outcome, Runner, Verdict};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, Instant};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("qicc-study-cli")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create the test directory");
    dir
}

/// Writes an executable script. The executable is written by a child process (`install`), never
/// through a file descriptor of this process: a test thread that forks while this process holds
/// the script open for writing would make its exec fail with ETXTBSY ("Text file busy").
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let source = dir.join(format!("{name}.txt"));
    std::fs::write(&source, format!("#!/bin/sh\n{body}")).expect("write script");
    let status = Command::new("install")
        .arg("-m")
        .arg("755")
        .arg(&source)
        .arg(&path)
        .status()
        .expect("run install");
    assert!(status.success(), "install {}", path.display());
    path
}

/// A qicc that knows only `bmc`, answers UNKNOWN on Single 1, FALSE on twins (TRUE with
/// `FAKE_WRONG=1`) and TRUE on everything else. Arguments as the runner passes them:
/// `verify --engine E --timeout T --format json FILE`.
const FAKE_QICC: &str = r#"
[ "$1" = verify ] || { echo "usage" >&2; exit 2; }
engine=$3; file=$8
if [ "$engine" != bmc ]; then
  echo "error: invalid value '$engine' for '--engine <ENGINE>'" >&2
  echo "  [possible values: bmc]" >&2
  exit 2
fi
[ -f "$file" ] || { echo "qicc: cannot read $file" >&2; exit 6; }
case "$file" in
  *_unsafe.yml)
    if [ "$FAKE_WRONG" = 1 ]; then echo '{"verdict": "true", "stats": {"time_ms": 4}}'; exit 0; fi
    echo '{"verdict": "false", "reason": "assertion violated", "stats": {"time_ms": 7}}'; exit 10;;
  */single1_*) echo '{"verdict": "unknown", "reason": "bound reached", "stats": {"time_ms": 9}}'; exit 5;;
  *) echo '{"verdict": "true", "reason": null, "stats": {"time_ms": 3}}'; exit 0;;
esac
"#;

fn study(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_qicc-study"));
    cmd.args(args);
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("run qicc-study")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn generate_writes_tasks_and_rejects_unknown_kernels() {
    let dir = fresh_dir("generate");
    let out_dir = dir.join("out");
    let out = study(
        &[
            "generate",
            "--out",
            out_dir.to_str().expect("utf-8"),
            "--kernels",
            "divmod",
            "--unsafe",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let files: Vec<String> = std::fs::read_dir(out_dir.join("divmod"))
        .expect("kernel dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(files.iter().filter(|f| f.ends_with(".c")).count(), 68);
    assert_eq!(files.iter().filter(|f| f.ends_with(".yml")).count(), 68);
    assert!(files.contains(&"double2_large_arbitrary_unsafe.c".to_string()));
    assert!(files.contains(&"baseline.yml".to_string()));
    assert!(out_dir.join("properties/unreach-call.prp").is_file());

    let bad = study(
        &[
            "generate",
            "--out",
            out_dir.to_str().expect("utf-8"),
            "--kernels",
            "nope",
        ],
        &[],
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        text(&bad.stderr).contains("unknown kernel 'nope'"),
        "{}",
        text(&bad.stderr)
    );
    let bad = study(&["generate", "--out", "x", "--structures", "triple"], &[]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("unknown structure 'triple'"));
}

#[test]
fn table_from_a_fake_qicc_with_an_unknown_engine() {
    let dir = fresh_dir("table");
    let qicc = script(&dir, "qicc", FAKE_QICC);
    let json = dir.join("out.json");
    let out = study(
        &[
            "table",
            "--qicc",
            qicc.to_str().expect("utf-8"),
            "--engines",
            "bmc,qicc",
            "--timeout",
            "5",
            "--jobs",
            "2",
            "--kernels",
            "double_sum,divmod",
            "--structures",
            "baseline,single1,double2",
            "--unsafe",
            "--json",
            json.to_str().expect("utf-8"),
        ],
        &[],
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stderr.contains("does not know engine 'qicc'"), "{stderr}");
    assert!(stderr.contains("possible values: bmc"), "{stderr}");
    assert!(stdout.contains("(left out, unknown to "), "{stdout}");

    let table_lines: Vec<Vec<&str>> = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Solved instances, bmc — safe"))
        .take_while(|l| !l.is_empty())
        .map(|l| l.split_whitespace().collect())
        .collect();
    let expected: Vec<Vec<&str>> = [
        "Solved instances, bmc — safe scenarios (expected TRUE)",
        "bounds Baseline Single 1 Double 2",
        "none 2 of 2",
        "small 0 of 2 2 of 2",
        "large 0 of 2 2 of 2",
        "arbitrary 0 of 2 2 of 2",
        "small/large 2 of 2",
        "small/arbitrary 2 of 2",
        "large/small 2 of 2",
        "large/arbitrary 2 of 2",
        "arbitrary/small 2 of 2",
        "arbitrary/large 2 of 2",
    ]
    .iter()
    .map(|l| l.split_whitespace().collect())
    .collect();
    assert_eq!(table_lines, expected, "{stdout}");
    assert!(stdout.contains("Solved instances, bmc — unsafe twins (expected FALSE)"));
    assert!(stdout.contains("Wrong verdicts: bmc 0"), "{stdout}");
    assert!(
        stdout.contains("bmc: 52 runs, 46 solved, 6 unknown, 0 killed, 0 failed, 0 wrong"),
        "{stdout}"
    );

    let value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json written"))
            .expect("valid json");
    let results = value["results"].as_array().expect("results");
    assert_eq!(results.len(), 52);
    assert!(results.iter().all(|r| r["engine"] == "bmc"));
    assert_eq!(value["engines"], serde_json::json!(["bmc"]));
    assert_eq!(value["left_out_engines"], serde_json::json!(["qicc"]));
}

#[test]
fn wrong_verdicts_are_loud_and_set_the_exit_code() {
    let dir = fresh_dir("wrong");
    let qicc = script(&dir, "qicc", FAKE_QICC);
    let work = dir.join("tasks");
    let args = [
        "table",
        "--qicc",
        qicc.to_str().expect("utf-8"),
        "--engines",
        "bmc",
        "--timeout",
        "5",
        "--kernels",
        "xor_swap",
        "--structures",
        "baseline",
        "--unsafe",
        "--work-dir",
        work.to_str().expect("utf-8"),
    ];
    let out = study(&args, &[("FAKE_WRONG", "1")]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("Wrong verdicts: bmc 1"), "{stdout}");
    assert!(
        stdout.contains("!!! WRONG VERDICT (expected FALSE) !!! bmc: TRUE on unsafe twin xor_swap/baseline_unsafe"),
        "{stdout}"
    );
    assert!(
        stdout.contains("(tasks kept for inspection in "),
        "{stdout}"
    );
}

#[test]
fn table_errors_are_clear() {
    let dir = fresh_dir("errors");
    let qicc = script(&dir, "qicc", FAKE_QICC);
    let out = study(
        &["table", "--qicc", "/nonexistent/qicc", "--timeout", "1"],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no qicc binary at /nonexistent/qicc"),
        "{}",
        text(&out.stderr)
    );

    let out = study(
        &[
            "table",
            "--qicc",
            qicc.to_str().expect("utf-8"),
            "--engines",
            "qicc",
            "--timeout",
            "1",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("does not know engine 'qicc'")
            && stderr.contains("none of the engines qicc"),
        "{stderr}"
    );

    let out = study(
        &[
            "table",
            "--qicc",
            qicc.to_str().expect("utf-8"),
            "--timeout",
            "0",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("--timeout must be a positive number"));
}

#[test]
fn runner_reads_reports_and_probes_engines() {
    let dir = fresh_dir("runner");
    let qicc = script(&dir, "qicc", FAKE_QICC);
    let task = dir.join("baseline_unsafe.yml");
    std::fs::write(&task, "format_version: '2.0'\n").expect("write task");
    let runner = Runner {
        qicc,
        timeout_secs: 5.0,
        grace: Duration::from_secs(5),
    };
    let r = runner.run("bmc", &task);
    assert_eq!(
        r.outcome,
        Outcome::Answered {
            verdict: Verdict::False,
            time_ms: Some(7),
            reason: Some("assertion violated".into())
        }
    );
    assert_eq!(r.time_ms(), 7);
    assert!(runner.probe_engine("bmc").is_ok());
    let err = runner.probe_engine("qicc").unwrap_err();
    assert!(err.contains("invalid value 'qicc'"), "{err}");
    assert!(matches!(
        runner.run("qicc", &task).outcome,
        Outcome::UnknownEngine { .. }
    ));

    let missing = Runner {
        qicc: dir.join("no-such-qicc"),
        timeout_secs: 1.0,
        grace: Duration::ZERO,
    };
    assert!(missing
        .probe_engine("bmc")
        .unwrap_err()
        .starts_with("cannot start"));
}

/// A run that ignores its timeout is killed with its whole process group: the shell and the
/// `sleep` it started.
#[test]
fn runs_past_timeout_and_grace_are_killed_with_their_group() {
    let dir = fresh_dir("kill");
    let pid_file = dir.join("sleep.pid");
    let body = format!("sleep 60 &\necho $! > {}\nwait\n", pid_file.display());
    let qicc = script(&dir, "qicc", &body);
    let runner = Runner {
        qicc,
        timeout_secs: 0.2,
        grace: Duration::from_millis(300),
    };
    let r = runner.run("bmc", &dir.join("task.yml"));
    assert_eq!(r.outcome, Outcome::Killed);
    let pid = std::fs::read_to_string(&pid_file)
        .expect("the script wrote the pid")
        .trim()
        .to_string();
    // The grandchild is reparented when its shell dies; wait until it is gone or a zombie.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let state = stat
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("");
        if stat.is_empty() || state == "Z" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "sleep {pid} survived the kill: {stat}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
