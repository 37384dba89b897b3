//! The stop flag: term construction unwinds with `Stopped` once the flag is set, `catch_stop`
//! turns that into a value, the store stays usable, and other panics are not swallowed.

use qicc_smt::{catch_stop, Sort, Stopped, TermStore};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Builds `n` distinct terms `x + k`.
fn build_many(s: &mut TermStore, n: u64) {
    let x = s.symbol("x", Sort::BitVec(32));
    for k in 1..=n {
        let _ = s.add_const(x, k);
    }
}

#[test]
fn a_set_flag_stops_construction() {
    let mut s = TermStore::new();
    let flag = Arc::new(AtomicBool::new(false));
    s.set_stop_flag(Some(flag.clone()));
    // Not set: any amount of work finishes.
    assert_eq!(catch_stop(|| build_many(&mut s, 5_000)), Ok(()));
    flag.store(true, Ordering::Relaxed);
    let before = s.len();
    assert_eq!(catch_stop(|| build_many(&mut s, 1_000_000)), Err(Stopped));
    // Stopped within one poll period of new terms.
    assert!(s.len() - before <= 1024, "{} new terms", s.len() - before);
    // Lookups of existing terms never stop, and the store is consistent afterwards.
    let x = s.symbol("x", Sort::BitVec(32));
    let again = s.add_const(x, 7);
    assert_eq!(s.add_const(x, 7), again);
    // Cleared flag: construction goes on.
    s.set_stop_flag(None);
    assert_eq!(catch_stop(|| build_many(&mut s, 1_000_000 + 10)), Ok(()));
}

#[test]
fn other_panics_pass_through() {
    // `resume_unwind` unwinds like a panic without printing one into the test output.
    let r = std::panic::catch_unwind(|| {
        catch_stop(|| std::panic::resume_unwind(Box::new("a real bug")))
    });
    let payload = r.expect_err("the panic reaches the outer catch");
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"a real bug"));
}
