//! Options and budgets: progress lines, SMT-LIB dumps, deadlines and cancellation during a
//! solver check, statistics.

mod common;
use common::*;
use qicc_bmc::{verify, BmcOptions};
use qicc_engine::Budget;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Finding x, y > 1 below 2^32 with x * y = N (the product of two random 32-bit primes,
/// 3898017869 * 3621931211) in 64-bit arithmetic: Z3 5.4 gave no answer in 20 s. (A product
/// of two primes just below 2^32, as this test had for Z3 4.8, Z3 5.4 factors in 0.3 s.)
const FACTOR: &str = "qicc-ir 1\ndata-model lp64\nassertion #0 reach_error in @main\nentry @main\n\
fn @main() {\n  local %x: i64\n  local %y: i64\n  locs 8 entry L0 exit L1 err L2 halt L3\n\
  L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_ulong\"\n\
  L4 -> L5: havoc %y nondet \"__VERIFIER_nondet_ulong\"\n\
  L5 -> L6: assume and(and(ult(1:i64, %x), ult(1:i64, %y)), and(ult(%x, 4294967296:i64), ult(%y, 4294967296:i64)))\n\
  L6 -> L7: assume eq(mul(%x, %y), 14118352580766809359:i64)\n\
  L7 -> L2: error #0\n\
  L6 -> L1: assume ne(mul(%x, %y), 14118352580766809359:i64)\n}\n";

#[test]
fn deadline_stops_a_hard_check() {
    let p = program(FACTOR);
    let r = verify(
        &p,
        &BmcOptions::default(),
        &Budget::with_timeout(Duration::from_millis(800)),
    );
    check_consistent(&p, &r);
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("time limit"));
}

#[test]
fn cancellation_stops_a_hard_check() {
    let p = program(FACTOR);
    let budget = Budget::unlimited();
    let cancel = budget.cancel.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        cancel.cancel();
    });
    let r = verify(&p, &BmcOptions::default(), &budget);
    t.join().expect("canceller");
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("cancelled"));
}

#[test]
fn per_check_timeout_gives_unknown() {
    let p = program(FACTOR);
    let opts = BmcOptions {
        check_timeout: Some(Duration::from_millis(300)),
        ..BmcOptions::default()
    };
    let r = verify(&p, &opts, &Budget::unlimited());
    assert_eq!(verdict(&r), Verdict::Unknown);
    assert!(r.reason.unwrap().contains("solver gave no answer"));
}

#[test]
fn progress_dump_and_stats() {
    let text = "qicc-ir 1\ndata-model ilp32\nassertion #0 verifier_assert in @main\nentry @main\n\
        fn @main() {\n  local %x: i32\n  locs 6 entry L0 exit L1 err L2 halt L3\n\
        \x20 L0 -> L4: havoc %x nondet \"__VERIFIER_nondet_int\"\n\
        \x20 L4 -> L5: assume eq(mul(%x, 3:i32), 7:i32)\n  L5 -> L2: error #0\n\
        \x20 L4 -> L1: assume ne(mul(%x, 3:i32), 7:i32)\n}\n";
    let p = program(text);
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    let dump = std::env::temp_dir().join(format!("qicc-bmc-dump-{}.smt2", std::process::id()));
    let opts = BmcOptions {
        dump_smt: Some(dump.clone()),
        progress: Some(Box::new(move |m: &str| {
            sink.lock().unwrap().push(m.to_string())
        })),
        ..BmcOptions::default()
    };
    let r = verify(&p, &opts, &Budget::unlimited());
    check_consistent(&p, &r);
    assert_eq!(verdict(&r), Verdict::False);
    // 3 * x = 7 (mod 2^32): x = 0xaaaaaaad.
    assert_eq!(r.violation.as_ref().unwrap().1.havocs, vec![0xaaaa_aaad]);
    let lines = lines.lock().unwrap();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("unwind 1:") && l.contains("solving")),
        "{lines:?}"
    );
    let smt = std::fs::read_to_string(&dump).expect("dump written");
    let _ = std::fs::remove_file(&dump);
    assert!(
        smt.contains("(check-sat)") && smt.contains("bvmul"),
        "{smt}"
    );
    assert_eq!(stat(r.stats.bound), 1);
    assert!(stat(r.stats.solver_calls) >= 1);
    assert!(stat(r.stats.terms) > 0);
    assert!(stat(r.stats.symex_steps) > 0);
    let _ = stat(r.stats.solver_time_ms);
}
