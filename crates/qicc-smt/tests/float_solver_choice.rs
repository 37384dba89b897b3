//! The solver choice for float queries, measured (run with `--ignored --nocapture`).
//!
//! A test binary of its own: it sets Z3's process-wide logic (`Z3Solver::set_logic`) while it
//! runs, and a solver another test made meanwhile got that logic (QF_AUFBV, which has no
//! floats: a differential float test then saw a wrong Sat). Test binaries run one at a time.

use qicc_ir::{FpOp, RoundingMode};
use qicc_smt::{smtlib, Sort, TermStore, Z3Solver};

/// The solver choice for float queries, measured (run with `--ignored --nocapture`): the
/// default solver qicc picks against the QF_AUFBV logic solver and the Ackermannizing
/// tactics, which a query with a lambda or a few reads of array symbols would otherwise get.
#[test]
#[ignore]
fn solver_choice_for_float_queries() {
    let mut s = TermStore::new();
    let rne = RoundingMode::Rne;
    // x + 1.0f > x fails (SAT): NaN, inf, x >= 2^24.
    let x = s.symbol("x", Sort::BitVec(32));
    let one = s.bv_const(32, 1.0f32.to_bits() as u64);
    let x1 = s.fp(FpOp::Add(rne), &[x, one]);
    let gt = s.fp(FpOp::Lt, &[x, x1]);
    let q1 = vec![s.not(gt)];
    // 0 <= y and sqrt(y) < 0 (UNSAT), binary64.
    let y = s.symbol("y", Sort::BitVec(64));
    let zero = s.bv_const(64, 0);
    let r = s.fp(FpOp::Sqrt(rne), &[y]);
    let q2 = vec![s.fp(FpOp::Le, &[zero, y]), s.fp(FpOp::Lt, &[r, zero])];
    // y * y computed two ways differ (SAT? Fma rounds once): fma(y, y, -(y*y)) != 0.
    let yy = s.fp(FpOp::Mul(rne), &[y, y]);
    let nyy = s.fp(FpOp::Neg, &[yy]);
    let err = s.fp(FpOp::Fma(rne), &[y, y, nyy]);
    let q3 = vec![s.fp(FpOp::Ne, &[err, zero]), s.fp(FpOp::IsNormal, &[yy])];
    let timeout = Some(std::time::Duration::from_secs(30));
    for (name, q) in [("fadd f32", q1), ("fsqrt f64", q2), ("ffma f64", q3)] {
        let text = smtlib::script(&s, &q);
        for logic in [
            None,
            Some("QF_AUFBV"),
            Some("tactics:bvarray2uf,ackermannize_bv,qfbv|qfaufbv"),
        ] {
            Z3Solver::set_logic(logic).expect("no NUL");
            let r = Z3Solver::check_script(&text, timeout);
            eprintln!(
                "{name}: {}: {r:?}",
                logic.unwrap_or("qicc's choice (default)")
            );
        }
    }
    Z3Solver::set_logic(None).expect("no NUL");
}
