//! Ctrl-C: the first SIGINT stops the search and qicc answers UNKNOWN ("cancelled", exit 5)
//! at once, also while Z3 is inside a check (Z3 must not take the signal for itself).
//!
//! The program (shared with the regression case `memory_limit_unknown`) asks the solver to
//! factor the prime 2^61 - 1, which takes far longer than this test waits; the signal is sent
//! while that check runs.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Long enough for the front-end to finish and the handler to be installed.
const BEFORE_SIGNAL: Duration = Duration::from_secs(2);
/// An answer within this much of the signal counts as prompt (it comes in milliseconds;
/// without a working handler the run would take minutes).
const ANSWER_WITHIN: Duration = Duration::from_secs(20);

fn interrupted_run(engine: &str) {
    let prog = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/regression/memory_limit_unknown/main.c"
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--engine", engine, "--timeout", "600", prog])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start qicc");
    std::thread::sleep(BEFORE_SIGNAL);
    assert!(
        child.try_wait().expect("poll qicc").is_none(),
        "{engine}: qicc ended before the signal"
    );
    let sent = Instant::now();
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -INT failed");
    let status = loop {
        if let Some(s) = child.try_wait().expect("poll qicc") {
            break s;
        }
        if sent.elapsed() > ANSWER_WITHIN {
            let _ = child.kill();
            panic!("{engine}: no answer {ANSWER_WITHIN:?} after Ctrl-C");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let out = child.wait_with_output().expect("read qicc's output");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(status.code(), Some(5), "{engine}: {status:?}\n{stdout}");
    assert!(
        stdout.contains("VERDICT: UNKNOWN (cancelled"),
        "{engine}: {stdout}"
    );
}

#[test]
fn ctrl_c_stops_the_bmc_inside_a_solver_check() {
    interrupted_run("bmc");
}

#[test]
fn ctrl_c_stops_the_default_engine_inside_a_solver_check() {
    interrupted_run("qicc");
}
