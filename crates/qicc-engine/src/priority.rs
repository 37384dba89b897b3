//! Thread priorities: a bet runs below the run that decides most programs.
//!
//! The default engine runs, side by side, the whole-program run (which alone decides most
//! programs that `--engine bmc` decides) and bets: runs on regions from arbitrary entry
//! states, Impulse, Corral, the loop-invariant prover. On a machine with fewer cores than
//! runs, equal priorities made the whole-program run several times slower than `--engine
//! bmc` alone; the bets run at a lower priority ([`BET_NICE`]), so they use the time the
//! whole-program run leaves and it keeps (nearly) a core of its own. A proof attempt that
//! needs a core for a while (the loop-invariant prover's Houdini) runs at normal priority
//! until it is done or its share of the time has passed ([`demote_later`]). Scheduling only:
//! no run's answer depends on it.

/// The nice value of a bet's threads (Linux weights: a nice-0 thread gets about nine tenths
/// of a core it shares with a nice-10 one).
pub const BET_NICE: i32 = 10;

/// Lowers the calling thread's priority to `nice` (Linux: per thread; threads it starts
/// inherit it); never raises it (a process started with `nice -n 19` stays there). Best
/// effort: elsewhere, or if the system refuses, nothing happens.
pub fn lower_this_thread(nice: i32) {
    if this_thread_nice() >= nice {
        return;
    }
    #[cfg(target_os = "linux")]
    // SAFETY: `gettid` has no preconditions; `setpriority` on the caller's own thread id
    // changes only its scheduling weight and reports failure through its return value.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        let _ = libc::setpriority(libc::PRIO_PROCESS, tid, nice);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = nice;
}

/// Lowers the calling thread to [`BET_NICE`] later: as soon as `done()` holds or `cap` has
/// passed, whichever is first (checked every 10 ms by a watcher thread, which ends then or
/// when the returned guard is dropped). For a proof attempt that deserves a core of its own
/// for a while, and is a bet after that. Threads the caller starts before then keep their
/// priority.
pub fn demote_later(
    done: impl Fn() -> bool + Send + 'static,
    cap: std::time::Duration,
) -> DemoteGuard {
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `gettid` has no preconditions.
        let tid = unsafe { libc::syscall(libc::SYS_gettid) } as libc::id_t;
        let stopped = stop.clone();
        let start = std::time::Instant::now();
        std::thread::spawn(move || {
            while !stopped.load(std::sync::atomic::Ordering::Relaxed) {
                if done() || start.elapsed() >= cap {
                    // SAFETY: as in `lower_this_thread`, on a thread of this process (the
                    // guard's drop stops the watcher before the caller's thread ends).
                    unsafe {
                        if libc::getpriority(libc::PRIO_PROCESS, tid) < BET_NICE {
                            let _ = libc::setpriority(libc::PRIO_PROCESS, tid, BET_NICE);
                        }
                    }
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (done, cap);
    DemoteGuard { stop }
}

/// Stops [`demote_later`]'s watcher when dropped.
pub struct DemoteGuard {
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Drop for DemoteGuard {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

/// The calling thread's nice value (Linux; 0 elsewhere).
pub fn this_thread_nice() -> i32 {
    #[cfg(target_os = "linux")]
    // SAFETY: as in `lower_this_thread`; `getpriority` may return -1 as a value, which is
    // fine for a reading.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::getpriority(libc::PRIO_PROCESS, tid)
    }
    #[cfg(not(target_os = "linux"))]
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demote_later_lowers_the_caller_when_done_or_at_the_cap_and_not_after_the_guard() {
        use std::time::Duration;
        let base = this_thread_nice();
        let want = base.max(BET_NICE);
        let after = |done: bool, cap_ms: u64, keep: bool| {
            std::thread::spawn(move || {
                let guard = demote_later(move || done, Duration::from_millis(cap_ms));
                if !keep {
                    drop(guard);
                    std::thread::sleep(Duration::from_millis(100));
                    return this_thread_nice();
                }
                std::thread::sleep(Duration::from_millis(100));
                this_thread_nice()
            })
            .join()
            .unwrap_or(-99)
        };
        if cfg!(target_os = "linux") {
            assert_eq!(after(true, 60_000, true), want, "done at once");
            assert_eq!(after(false, 20, true), want, "the cap passed");
            assert_eq!(after(false, 60_000, true), base, "neither yet");
            assert_eq!(after(false, 20, false), base, "the guard was dropped first");
        }
    }

    #[test]
    fn a_lowered_thread_and_its_children_run_at_the_bet_priority() {
        // The test may itself run niced (`nice cargo test`): never above that.
        let base = this_thread_nice();
        let want = base.max(BET_NICE);
        let (mine, child) = std::thread::spawn(|| {
            lower_this_thread(BET_NICE);
            let child = std::thread::spawn(this_thread_nice).join().unwrap_or(-99);
            (this_thread_nice(), child)
        })
        .join()
        .expect("the thread runs");
        if cfg!(target_os = "linux") {
            assert_eq!((mine, child), (want, want));
        }
        // The caller's own priority is untouched.
        assert_eq!(this_thread_nice(), base);
    }
}
