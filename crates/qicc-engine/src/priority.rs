//! Thread priorities: a bet runs below the run that decides most programs.
//!
//! The default engine runs, side by side, the whole-program run (which alone decides most
//! programs that `--engine bmc` decides) and bets: runs on regions from arbitrary entry
//! states, Impulse, Corral, the loop-invariant prover. On a machine with fewer cores than
//! runs, equal priorities made the whole-program run several times slower than `--engine
//! bmc` alone; the bets run at a lower priority ([`BET_NICE`]), so they use the time the
//! whole-program run leaves and it keeps (nearly) a core of its own. Scheduling only: no
//! run's answer depends on it.

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
