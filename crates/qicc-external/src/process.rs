//! Running a verifier as a child process under a [`Budget`].
//!
//! Invariant: when [`run_in_group`] returns, no process of the child's process group is left
//! running. The child leads its own group (`process-wrap`'s `ProcessGroup`), so a tool's own
//! children (solvers, Java, a shell's `sleep`) are in it too; on the deadline or on
//! cancellation the whole group gets `SIGKILL`, and after a normal exit stragglers get it as
//! well (they would otherwise keep the output pipes open). Output is read on two threads so
//! that a chatty tool never blocks on a full pipe; each stream keeps its last
//! [`MAX_OUTPUT`] bytes (the verdict is at the end). A process that left the group (`setsid`)
//! cannot be killed with it; if it keeps a pipe open, the run returns after a grace period
//! with the output read so far.

use process_wrap::std::{ChildWrapper, CommandWrap, ProcessGroup};
use qicc_engine::{Budget, StopReason};
use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

/// Bytes of each output stream kept (the tail).
pub const MAX_OUTPUT: usize = 32 << 20;

/// How long the output streams may stay open after the group was killed.
const GRACE: Duration = Duration::from_secs(2);

/// How often the child is polled.
const POLL: Duration = Duration::from_millis(10);

#[derive(Debug)]
pub struct ProcessOutput {
    /// The exit status; `None` if the run was stopped or the status was lost.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    /// Why the run was stopped early, if it was.
    pub stopped: Option<StopReason>,
}

/// The bytes read from one stream so far, and whether it reached its end.
type Sink = Arc<(Mutex<(Vec<u8>, bool)>, Condvar)>;

fn reader(stream: Option<impl Read + Send + 'static>) -> Sink {
    let sink: Sink = Arc::new((Mutex::new((Vec::new(), false)), Condvar::new()));
    let s2 = Arc::clone(&sink);
    std::thread::spawn(move || {
        let (lock, cv) = &*s2;
        if let Some(mut s) = stream {
            let mut buf = [0u8; 64 * 1024];
            loop {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        let Ok(mut g) = lock.lock() else { return };
                        g.0.extend_from_slice(&buf[..n]);
                        if g.0.len() > 2 * MAX_OUTPUT {
                            let cut = g.0.len() - MAX_OUTPUT;
                            g.0.drain(..cut);
                        }
                    }
                }
            }
        }
        if let Ok(mut g) = lock.lock() {
            g.1 = true;
        }
        cv.notify_all();
    });
    sink
}

/// What the stream delivered, waiting up to `grace` for its end (a process that left the
/// group may hold the pipe open forever; its reader thread is then left behind).
fn collect(sink: &Sink, grace: Duration) -> String {
    let (lock, cv) = &**sink;
    let Ok(g) = lock.lock() else {
        return String::new();
    };
    let (mut g, _) = match cv.wait_timeout_while(g, grace, |g| !g.1) {
        Ok(r) => r,
        Err(_) => return String::new(),
    };
    let bytes = std::mem::take(&mut g.0);
    let start = bytes.len().saturating_sub(MAX_OUTPUT);
    String::from_utf8_lossy(&bytes[start..]).into_owned()
}

/// Spawns `cmd`, again after a moment when the executable is busy (ETXTBSY): an executable
/// written just before, by this process or another, can still be open for writing in a child
/// that another thread forked and that has not reached its `exec` yet. The state passes.
fn spawn_retrying(cmd: &mut CommandWrap) -> std::io::Result<Box<dyn ChildWrapper>> {
    const ETXTBSY: i32 = 26;
    let mut tries = 0;
    loop {
        match cmd.spawn() {
            Err(e) if e.raw_os_error() == Some(ETXTBSY) && tries < 20 => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            r => return r,
        }
    }
}

/// Runs `program args` in `cwd` in a new process group until it exits or `budget` is
/// exhausted.
pub fn run_in_group(
    program: &Path,
    args: &[String],
    cwd: &Path,
    budget: &Budget,
) -> std::io::Result<ProcessOutput> {
    let mut cmd = Command::new(program);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(ProcessGroup::leader());
    let mut child = spawn_retrying(&mut wrapped)?;
    let out = reader(child.stdout().take());
    let err = reader(child.stderr().take());
    let (status, stopped) = wait(child.as_mut(), budget);
    // Stragglers of a finished tool (or of a killed one that were not reaped yet): the group
    // is ours, and nothing of it may outlive the run. ESRCH (no member left) is fine.
    let _ = child.start_kill();
    let _ = child.wait();
    let stdout = collect(&out, GRACE);
    let stderr = collect(&err, GRACE);
    Ok(ProcessOutput {
        status,
        stdout,
        stderr,
        stopped,
    })
}

fn wait(child: &mut dyn ChildWrapper, budget: &Budget) -> (Option<ExitStatus>, Option<StopReason>) {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return (Some(status), None),
            Ok(None) => {}
            // process-wrap reaps the leader while polling the group and can lose its status
            // when other members still run (then the inner wait fails with ECHILD): the tool
            // has finished either way, and its output is what counts.
            Err(_) => return (None, None),
        }
        if let Some(reason) = budget.exhausted() {
            let _ = child.start_kill();
            return (None, Some(reason));
        }
        std::thread::sleep(POLL);
    }
}
