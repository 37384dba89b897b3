//! The memory side of a budget: this process's resident memory, and a watch that cancels a
//! token with [`StopReason::MemoryLimit`] once the process grows past a limit.
//!
//! Engines need no code of their own for it: the cancellation reaches them the way Ctrl-C
//! does (the BMC's watcher interrupts Z3 and stops term construction), so a run that would
//! exhaust the machine answers UNKNOWN ("memory limit reached") instead of being killed by
//! the kernel. Linux only (`/proc/self/status`); elsewhere the watch never fires.

use crate::{CancelToken, StopReason};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the watch reads the resident size (one small file read).
const POLL: Duration = Duration::from_millis(100);

/// The `field: N kB` line of a `/proc` file, in KiB.
fn proc_kib(path: &str, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text
        .lines()
        .find(|l| l.strip_prefix(field).is_some_and(|r| r.starts_with(':')))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Resident set size of this process in KiB, where Linux says.
pub fn rss_kib() -> Option<u64> {
    proc_kib("/proc/self/status", "VmRSS")
}

/// Peak resident set size of this process in KiB, where Linux says.
pub fn peak_rss_kib() -> Option<u64> {
    proc_kib("/proc/self/status", "VmHWM")
}

/// Physical memory of the machine in MiB, where Linux says.
pub fn physical_mib() -> Option<u64> {
    proc_kib("/proc/meminfo", "MemTotal").map(|kib| kib / 1024)
}

/// Cancels `token` with [`StopReason::MemoryLimit`] when the process's resident memory
/// exceeds the limit; stops watching when dropped.
pub struct MemoryWatch {
    done: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl MemoryWatch {
    pub fn start(limit_mib: u64, token: CancelToken) -> MemoryWatch {
        let done = Arc::new(AtomicBool::new(false));
        let limit_kib = limit_mib.saturating_mul(1024);
        let thread = {
            let done = done.clone();
            std::thread::Builder::new()
                .name("qicc-memory-watch".into())
                .spawn(move || {
                    while !done.load(Ordering::Relaxed) {
                        if rss_kib().is_some_and(|kib| kib > limit_kib) {
                            token.cancel_for(StopReason::MemoryLimit);
                            return;
                        }
                        std::thread::sleep(POLL);
                    }
                })
                .ok()
        };
        MemoryWatch { done, thread }
    }
}

impl Drop for MemoryWatch {
    /// Stops the watch without waiting for its thread (it sees the flag within [`POLL`]):
    /// the CLI drops the watch on its way out, where every millisecond counts.
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        self.thread.take();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn this_process_has_a_resident_size() {
        let rss = rss_kib().expect("Linux reports VmRSS");
        let peak = peak_rss_kib().expect("Linux reports VmHWM");
        assert!(rss > 0 && peak >= rss, "rss {rss} KiB, peak {peak} KiB");
        assert!(physical_mib().is_some_and(|m| m > 0));
    }

    #[test]
    fn the_watch_cancels_past_the_limit_and_not_below() {
        let over = CancelToken::new();
        let _w = MemoryWatch::start(1, over.clone());
        let start = Instant::now();
        while !over.is_cancelled() && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(over.reason(), Some(StopReason::MemoryLimit));

        let under = CancelToken::new();
        let w = MemoryWatch::start(u64::MAX / 2048, under.clone());
        std::thread::sleep(3 * POLL);
        drop(w);
        assert_eq!(under.reason(), None);
    }
}
