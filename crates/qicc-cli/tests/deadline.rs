//! `--timeout T` answers within T + 1.5 s of the command's start, also on a machine that is
//! busy with other work: here four CPU-bound threads per core compete with qicc while it
//! works on programs that take far longer than T (the solver factoring 2^61 - 1, shared with
//! the regression case `memory_limit_unknown`; a heap program the default engine climbs
//! through).

use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const TIMEOUT_S: u64 = 4;
const SLACK: Duration = Duration::from_millis(1500);

/// Busy threads until dropped.
struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    fn start() -> Load {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..4 * cores)
            .map(|_| {
                let stop = stop.clone();
                std::thread::spawn(move || {
                    let mut x = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        x = std::hint::black_box(
                            x.wrapping_mul(6364136223846793005).wrapping_add(1),
                        );
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn timed_run(args: &[&str], prog: &str) {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_qicc"))
        .args(["verify", "--timeout", &TIMEOUT_S.to_string()])
        .args(args)
        .arg(prog)
        .output()
        .expect("run qicc");
    let took = start.elapsed();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("VERDICT: UNKNOWN (time limit reached"),
        "{args:?}: {stdout}"
    );
    assert!(
        took <= Duration::from_secs(TIMEOUT_S) + SLACK,
        "{args:?} on {prog}: answered after {took:?} with --timeout {TIMEOUT_S}"
    );
}

#[test]
fn timeout_holds_on_a_busy_machine() {
    let hard = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/regression/memory_limit_unknown/main.c"
    );
    let _load = Load::start();
    for args in [
        &["--engine", "bmc"][..],
        &["--engine", "qicc"][..],
        &["--engine", "qicc", "--jobs", "1"][..],
    ] {
        timed_run(args, hard);
    }
}
