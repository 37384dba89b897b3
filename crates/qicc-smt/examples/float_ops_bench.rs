//! What each float operation costs the solver: for every `FpOp` that rounds or compares, in
//! binary32 and binary64, Z3 searches for operands giving a known result (`op(x, y) == r`
//! with `y` fixed and `x` free: the inverse problem a counterexample search poses) and proves
//! a range fact (`1 <= x <= 2 && 1 <= y <= 2` implies `op(x, y) <= op(2, 2)` for the
//! monotone operations: the kind of query a TRUE needs). Prints one line per operation and
//! width: median and slowest time of the searches, the proof's time, timeouts.
//!
//! `cargo run --release -p qicc-smt --example float_ops_bench -- [--cases N] [--timeout S]`

use qicc_ir::semantics::float::eval_fp;
use qicc_ir::{FpOp, RoundingMode, Ty};
use qicc_smt::{CheckMode, CheckResult, Solver, Sort, TermId, TermStore, Z3Solver};
use std::time::{Duration, Instant};

const RNE: RoundingMode = RoundingMode::Rne;

/// xorshift64*: the same operands on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A normal float of width `w` between 2^-8 and 2^8, either sign.
    fn operand(&mut self, w: u16) -> u64 {
        let r = self.next();
        let x = (1.0 + (r >> 11) as f64 / (1u64 << 53) as f64)
            * 2f64.powi((r % 17) as i32 - 8)
            * if r & 1 == 0 { 1.0 } else { -1.0 };
        if w == 32 {
            (x as f32).to_bits() as u64
        } else {
            x.to_bits()
        }
    }
}

fn konst(w: u16, x: f64) -> u64 {
    if w == 32 {
        (x as f32).to_bits() as u64
    } else {
        x.to_bits()
    }
}

fn arg(args: &[String], name: &str, default: u64) -> u64 {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cases = arg(&args, "--cases", 5) as usize;
    let timeout = Duration::from_secs(arg(&args, "--timeout", 20));
    let ops: &[(&str, FpOp, bool)] = &[
        ("fadd", FpOp::Add(RNE), true),
        ("fsub", FpOp::Sub(RNE), false),
        ("fmul", FpOp::Mul(RNE), true),
        ("fdiv", FpOp::Div(RNE), false),
        ("fsqrt", FpOp::Sqrt(RNE), true),
        ("ffma", FpOp::Fma(RNE), true),
        ("fmod", FpOp::Fmod, false),
        ("frint.rtz", FpOp::RoundToIntegral(RoundingMode::Rtz), true),
        ("fmin", FpOp::Min, true),
        ("flt", FpOp::Lt, false),
        ("fptosi.i32", FpOp::ToSInt { to: 32 }, false),
        ("sitofp", FpOp::FromSInt { to: 0, rm: RNE }, false),
    ];
    println!("| operation | width | search median s | search max s | proof s | timeouts |");
    println!("|---|---|---:|---:|---:|---:|");
    for w in [32u16, 64] {
        let ty = Ty::Float(w);
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ w as u64);
        for &(name, op, monotone) in ops {
            let op = match op {
                FpOp::FromSInt { rm, .. } => FpOp::FromSInt { to: w, rm },
                o => o,
            };
            let from_int = matches!(op, FpOp::FromSInt { .. });
            let opw = if from_int { 32 } else { w };
            let mut s = TermStore::new();
            let syms: Vec<TermId> = (0..op.arity())
                .map(|i| s.symbol(&format!("x{i}"), Sort::BitVec(opw)))
                .collect();
            let t = s.fp(op, &syms);
            let mut times = Vec::new();
            let mut timeouts = 0;
            for _ in 0..cases {
                let vals: Vec<u64> = (0..op.arity())
                    .map(|_| {
                        if from_int {
                            rng.next() & 0xffff_ffff
                        } else {
                            rng.operand(w)
                        }
                    })
                    .collect();
                let opty = if from_int { Ty::Int(32) } else { ty };
                let want = eval_fp(op, opty, &vals);
                let want_t = match op.result_ty(opty) {
                    Ty::Bool => s.bool_const(want != 0),
                    rt => s.bv_const(rt.bits(), want),
                };
                let mut q = vec![s.eq(t, want_t)];
                for (&x, &v) in syms.iter().zip(&vals).skip(1) {
                    let c = s.bv_const(opw, v);
                    q.push(s.eq(x, c));
                }
                let mut z = Z3Solver::new(CheckMode::FreshPerCheck);
                z.set_timeout(Some(timeout));
                let t0 = Instant::now();
                let r = z.check(&s, &q);
                times.push(t0.elapsed().as_secs_f64());
                if r != CheckResult::Sat {
                    timeouts += 1;
                }
            }
            times.sort_by(|a, b| a.total_cmp(b));
            let median = times.get(times.len() / 2).copied().unwrap_or(0.0);
            let max = times.last().copied().unwrap_or(0.0);
            // The proof: operands in [1, 2] give a result no larger than op at the corners.
            let proof = if monotone && !from_int {
                let (one, two) = (s.bv_const(w, konst(w, 1.0)), s.bv_const(w, konst(w, 2.0)));
                let mut q = Vec::new();
                for &x in &syms {
                    let lo = s.fp(FpOp::Le, &[one, x]);
                    let hi = s.fp(FpOp::Le, &[x, two]);
                    q.push(lo);
                    q.push(hi);
                }
                let corner: Vec<u64> = syms.iter().map(|_| konst(w, 2.0)).collect();
                let top = s.bv_const(w, eval_fp(op, ty, &corner));
                let le = s.fp(FpOp::Le, &[t, top]);
                q.push(s.not(le));
                let mut z = Z3Solver::new(CheckMode::FreshPerCheck);
                z.set_timeout(Some(timeout));
                let t0 = Instant::now();
                let r = z.check(&s, &q);
                let secs = t0.elapsed().as_secs_f64();
                if r == CheckResult::Unsat {
                    format!("{secs:.2}")
                } else {
                    format!("{secs:.2} ({r:?})")
                }
            } else {
                "-".to_string()
            };
            println!("| {name} | f{w} | {median:.2} | {max:.2} | {proof} | {timeouts} |");
        }
    }
}
