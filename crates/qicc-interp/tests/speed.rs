//! Interpreter throughput on simple loops. Ignored by default (timing does not belong in
//! unit tests); run with
//! `cargo test --release -p qicc-interp --test speed -- --ignored --nocapture`.

mod common;

use common::*;
use qicc_interp::{run, Outcome, RandomOracle, RunConfig};
use std::time::Instant;

const COUNT: &str =
    "data-model ilp32\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  local %i: i32\n\
    locs 6 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %i := 0:i32\n\
    L4 -> L5: assume slt(%i, 10000000:i32)\n  L5 -> L4: %i := add(%i, 1:i32)\n\
    L4 -> L1: assume not(slt(%i, 10000000:i32))\n}\n";

const ARRAY: &str = "data-model ilp32\nobject @a size 400 zeroed\nentry @main\nfn @main() -> %r {\n  local %r: i32\n  local %i: i32\n\
    local %p: i32\n  locs 9 entry L0 exit L1 err L2 halt L3\n  L0 -> L4: %i := 0:i32\n\
    L4 -> L5: assume slt(%i, 5000000:i32)\n\
    L5 -> L6: %p := add(@a, mul(urem(%i, 100:i32), 4:i32))\n\
    L6 -> L7: assume valid.4(%p)\n\
    L7 -> L8: store.i32 %p, add(load.i32(%p), %i)\n\
    L8 -> L4: %i := add(%i, 1:i32)\n\
    L4 -> L1: assume not(slt(%i, 5000000:i32))\n}\n";

fn measure(name: &str, text: &str) {
    let p = prog(text);
    let start = Instant::now();
    let r = run(&p, &mut RandomOracle::new(0), &RunConfig::default());
    let secs = start.elapsed().as_secs_f64();
    assert!(
        matches!(r.outcome, Outcome::Returned { .. } | Outcome::StepLimit),
        "{:?}",
        r.outcome
    );
    println!(
        "{name}: {} steps in {secs:.3} s = {:.1} M steps/s",
        r.step_count,
        r.step_count as f64 / secs / 1e6
    );
}

#[test]
#[ignore]
fn steps_per_second() {
    measure("counting loop", COUNT);
    measure("array loop (load/store/valid)", ARRAY);
}
