//! A child process in its own process group, with a wall-clock limit after which the whole
//! group (the child and everything it started) is killed; many jobs on a few threads.
//!
//! Invariant: [`run_command`] always returns (a child that cannot start, hangs, or floods its
//! pipes is a [`Finished`] saying so), and never leaves a process of the group running.

use crossbeam_channel::{bounded, unbounded};
use process_wrap::std::{CommandWrap, ProcessGroup};
use std::collections::BTreeSet;
use std::io::Read;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How a child process ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It exited with this code (`None`: killed by a signal it did not catch).
    Code(Option<i32>),
    /// Still running at the limit: killed with its process group.
    Killed,
    /// It could not be started, or waiting for it failed: why.
    Failed(String),
}

/// A finished child: how it ended, what it printed, and its wall-clock time.
#[derive(Clone, Debug)]
pub struct Finished {
    pub exit: Exit,
    pub stdout: String,
    pub stderr: String,
    pub wall: Duration,
}

/// The process groups [`run_command`] has running (their leaders' ids), for [`interrupt`].
static RUNNING: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());
/// Set by [`interrupt`]: no result of a killed child may be taken for an answer.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Kills every process group [`run_command`] has running and marks the process interrupted
/// (a Ctrl-C: the children sit in their own groups, so the terminal's signal misses them).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let running = RUNNING.lock().map(|r| r.clone()).unwrap_or_default();
    for pid in running {
        // SAFETY: killpg only sends a signal; the group is one this process started.
        unsafe {
            libc::killpg(pid as libc::pid_t, libc::SIGKILL);
        }
    }
}

/// Whether [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Runs `cmd` in a new process group with piped output (stdin closed), killing the group
/// after `limit`.
pub fn run_command(mut cmd: Command, limit: Duration) -> Finished {
    let start = Instant::now();
    let program = cmd.get_program().to_string_lossy().into_owned();
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(ProcessGroup::leader());
    let mut child = match wrapped.spawn() {
        Ok(c) => c,
        Err(e) => {
            return Finished {
                exit: Exit::Failed(format!("cannot start {program}: {e}")),
                stdout: String::new(),
                stderr: String::new(),
                wall: start.elapsed(),
            }
        }
    };
    let pid = child.id();
    if let Ok(mut r) = RUNNING.lock() {
        r.insert(pid);
    }
    if interrupted() {
        let _ = child.kill();
    }
    // Read both pipes on their own threads so a chatty child never blocks on a full pipe.
    let stdout = collect(child.stdout().take());
    let stderr = collect(child.stderr().take());
    let deadline = start.checked_add(limit);
    let exit = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Exit::Code(status.code()),
            Ok(None) if deadline.is_some_and(|d| Instant::now() >= d) => {
                // Kill the group (the child and anything it started) and reap it.
                let _ = child.kill();
                break Exit::Killed;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => {
                let _ = child.kill();
                break Exit::Failed(format!("waiting for {program}: {e}"));
            }
        }
    };
    let wall = start.elapsed();
    if let Ok(mut r) = RUNNING.lock() {
        r.remove(&pid);
    }
    // A leftover grandchild could hold the pipes open: wait for the readers only a little.
    let stdout = stdout
        .recv_timeout(Duration::from_secs(2))
        .unwrap_or_default();
    let stderr = stderr
        .recv_timeout(Duration::from_secs(2))
        .unwrap_or_default();
    Finished {
        exit,
        stdout,
        stderr,
        wall,
    }
}

/// Reads a pipe to its end on a thread; the text arrives on the returned channel.
fn collect<R: Read + Send + 'static>(pipe: Option<R>) -> crossbeam_channel::Receiver<String> {
    let (tx, rx) = bounded(1);
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        let _ = tx.send(String::from_utf8_lossy(&buf).into_owned());
    });
    rx
}

/// Applies `work` to every job on `workers` threads (at least one); `done` is called after each
/// job finishes, from the worker thread. The results are in `jobs` order.
pub fn run_parallel<J, R>(
    jobs: &[J],
    workers: usize,
    work: impl Fn(&J) -> R + Sync,
    done: impl Fn(&J, &R) + Sync,
) -> Vec<R>
where
    J: Sync,
    R: Send,
{
    let (job_tx, job_rx) = unbounded::<usize>();
    for i in 0..jobs.len() {
        job_tx.send(i).expect("the receiver lives in this scope");
    }
    drop(job_tx);
    let (res_tx, res_rx) = unbounded::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.max(1).min(jobs.len().max(1)) {
            let job_rx = job_rx.clone();
            let res_tx = res_tx.clone();
            let (work, done) = (&work, &done);
            scope.spawn(move || {
                while let Ok(i) = job_rx.recv() {
                    let job = &jobs[i];
                    let r = work(job);
                    done(job, &r);
                    if res_tx.send((i, r)).is_err() {
                        break;
                    }
                }
            });
        }
    });
    drop(res_tx);
    let mut slots: Vec<Option<R>> = (0..jobs.len()).map(|_| None).collect();
    for (i, r) in res_rx.try_iter() {
        slots[i] = Some(r);
    }
    slots
        .into_iter()
        .map(|r| r.expect("every job index was sent once and every worker ran to the end"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_past_its_limit_is_killed_with_its_group() {
        let mut cmd = Command::new("sh");
        // The grandchild `sleep` would outlive a kill of `sh` alone.
        cmd.args(["-c", "sleep 30 & sleep 30; echo never"]);
        let f = run_command(cmd, Duration::from_millis(300));
        assert_eq!(f.exit, Exit::Killed);
        assert!(f.wall < Duration::from_secs(10), "{:?}", f.wall);
        assert!(!f.stdout.contains("never"));
    }

    #[test]
    fn exit_codes_and_output_are_kept() {
        let mut cmd = Command::new("sh");
        cmd.args(["-c", "echo out; echo err >&2; exit 10"]);
        let f = run_command(cmd, Duration::from_secs(30));
        assert_eq!(f.exit, Exit::Code(Some(10)));
        assert_eq!(f.stdout, "out\n");
        assert_eq!(f.stderr, "err\n");
        let f = run_command(Command::new("/no/such/program"), Duration::from_secs(1));
        assert!(
            matches!(f.exit, Exit::Failed(ref m) if m.contains("cannot start")),
            "{:?}",
            f.exit
        );
    }

    #[test]
    fn parallel_results_keep_the_job_order() {
        let jobs: Vec<u64> = (0..20).collect();
        let seen = std::sync::Mutex::new(0);
        let out = run_parallel(&jobs, 3, |j| j * 2, |_, _| *seen.lock().expect("lock") += 1);
        assert_eq!(out, jobs.iter().map(|j| j * 2).collect::<Vec<_>>());
        assert_eq!(*seen.lock().expect("lock"), 20);
    }
}
