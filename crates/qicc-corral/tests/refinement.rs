//! Hierarchical refinement on generated paths (Sec. 3.1 and 4.1): straight-line programs over
//! many globals whose one assertion holds, so that tracking every global proves it.
//!
//! Three refinements find the globals to track: Alg. 1 (each query encodes the abstracted
//! program of `qicc_corral::abstraction` afresh), Alg. 2 (each query is a set of assumptions
//! over one parameterized VC, the engine's way) and STORM's one-at-a-time. Alg. 1 and Alg. 2
//! must give the same set (the same recursion over oracles that must agree on every query);
//! every answer must prove the path and be minimal. The query counts are printed side by side.

use qicc_corral::abstraction::abstract_globals;
use qicc_corral::refine::{hierarchical, one_at_a_time};
use qicc_engine::Budget;
use qicc_ir::{parse_program, verify_program, GlobalId, Program};
use qicc_smt::{CheckMode, CheckResult, Solver, Sort, TermId, TermStore, Z3Solver};
use qicc_symex::symex::{run, run_with};
use qicc_symex::{Bounds, CallMode, FnInfo, MemModel};
use std::collections::{BTreeSet, HashMap};

/// A small deterministic generator (the paths must not change between runs).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A path over `globals` globals: `steps` assignments `g_a := g_b + c` or `g_a := c`, then
/// the assertion that some global has the value it has.
fn path(seed: u64, globals: usize, steps: usize) -> Program {
    let mut rng = Lcg(seed);
    let mut value = vec![0u32; globals];
    let mut text = String::from("qicc-ir 1\ndata-model ilp32\n");
    for g in 0..globals {
        text.push_str(&format!("global $g{g}: i32 = 0:i32\n"));
    }
    text.push_str("assertion #0 verifier_assert in @main \"g == v\"\nentry @main\nfn @main() {\n");
    text.push_str(&format!(
        "  locs {} entry L0 exit L1 err L2 halt L3\n",
        steps + 6
    ));
    let loc = |i: usize| if i == 0 { 0 } else { i + 3 };
    for i in 0..steps {
        let a = rng.next(globals as u64) as usize;
        let c = rng.next(7) as u32;
        let op = if rng.next(4) == 0 {
            value[a] = c;
            format!("$g{a} := {c}:i32")
        } else {
            let b = rng.next(globals as u64) as usize;
            value[a] = value[b].wrapping_add(c);
            format!("$g{a} := add($g{b}, {c}:i32)")
        };
        text.push_str(&format!("  L{} -> L{}: {op}\n", loc(i), loc(i + 1)));
    }
    let x = rng.next(globals as u64) as usize;
    let end = loc(steps);
    let (bad, good) = (steps + 4, steps + 5);
    let v = value[x];
    text.push_str(&format!(
        "  L{end} -> L{bad}: assume ne($g{x}, {v}:i32)\n  L{bad} -> L2: error #0\n  \
         L{end} -> L{good}: assume eq($g{x}, {v}:i32)\n  L{good} -> L1: skip\n}}\n"
    ));
    let p = parse_program(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    verify_program(&p).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    p
}

/// Is the error unreachable in `p` (no loops, no calls: one unwinding decides)?
fn safe(p: &Program) -> bool {
    let mut s = TermStore::new();
    let info = FnInfo::of_program(p);
    let mm = MemModel::new(p, &mut s).expect("memory model");
    let bounds = Bounds {
        default: 1,
        loops: HashMap::new(),
    };
    let enc = run(p, &mut s, &info, &mm, &bounds, &Budget::unlimited()).expect("symex");
    let guards: Vec<TermId> = enc.errors.iter().map(|h| h.guard).collect();
    let goal = s.or_all(&guards);
    let mut solver = Z3Solver::new(CheckMode::FreshPerCheck);
    match solver.check(&s, &[goal]) {
        CheckResult::Unsat => true,
        CheckResult::Sat => false,
        CheckResult::Unknown(why) => panic!("no answer: {why}"),
    }
}

/// The parameterized VC of `p` on one incremental solver: `correct(T)` by assumptions.
struct Parameterized {
    s: TermStore,
    solver: Z3Solver,
    goal: TermId,
    tracked: Vec<TermId>,
}

impl Parameterized {
    fn new(p: &Program) -> Parameterized {
        let mut s = TermStore::new();
        let info = FnInfo::of_program(p);
        let mm = MemModel::new(p, &mut s).expect("memory model");
        let bounds = Bounds {
            default: 1,
            loops: HashMap::new(),
        };
        let enc = run_with(
            p,
            &mut s,
            &info,
            &mm,
            &bounds,
            &Budget::unlimited(),
            CallMode::Open,
            true,
            None,
        )
        .expect("symex");
        let guards: Vec<TermId> = enc.errors.iter().map(|h| h.guard).collect();
        let goal = s.or_all(&guards);
        let tracked = enc.tracked.clone().expect("parameterized");
        assert!(tracked.iter().all(|&b| s.sort(b) == Sort::Bool));
        Parameterized {
            s,
            solver: Z3Solver::new(CheckMode::Incremental),
            goal,
            tracked,
        }
    }

    fn correct(&mut self, t: &BTreeSet<usize>) -> bool {
        let mut a = vec![self.goal];
        for (v, &b) in self.tracked.iter().enumerate() {
            a.push(if t.contains(&v) { b } else { self.s.not(b) });
        }
        match self.solver.check(&self.s, &a) {
            CheckResult::Unsat => true,
            CheckResult::Sat => false,
            CheckResult::Unknown(why) => panic!("no answer: {why}"),
        }
    }
}

/// The globals among the abstraction's variables (the memory's index is past them all, so
/// it names no global of the program).
fn globals_of(t: &BTreeSet<usize>) -> BTreeSet<GlobalId> {
    t.iter().map(|&v| GlobalId(v as u32)).collect()
}

#[test]
fn alg1_alg2_and_storm_find_minimal_sets_alg1_and_alg2_the_same() {
    let mut totals = [0u64; 3];
    println!(
        "{:>6} {:>8} {:>8} {:>6} {:>6} {:>6}",
        "seed", "globals", "tracked", "alg1", "alg2", "storm"
    );
    for seed in 1..=12u64 {
        let globals = 16 + (seed as usize % 4) * 8;
        let p = path(seed, globals, globals);
        // Every global, then the memory as a whole (index `globals`).
        let universe: BTreeSet<usize> = (0..=globals).collect();
        assert!(safe(&p), "seed {seed}: the path's assertion must hold");
        let mut vc = Parameterized::new(&p);
        assert!(
            vc.correct(&universe),
            "seed {seed}: tracking everything proves it"
        );
        let (mut q1, mut q2, mut q3) = (0u64, 0u64, 0u64);
        let r1 = hierarchical(&BTreeSet::new(), &BTreeSet::new(), &universe, &mut |t| {
            q1 += 1;
            Ok(safe(&abstract_globals(
                &p,
                &globals_of(t),
                t.contains(&globals),
            )))
        })
        .expect("alg1");
        let r2 = hierarchical(&BTreeSet::new(), &BTreeSet::new(), &universe, &mut |t| {
            q2 += 1;
            Ok(vc.correct(t))
        })
        .expect("alg2");
        let r3 = one_at_a_time(&BTreeSet::new(), &universe, &mut |t| {
            q3 += 1;
            Ok(vc.correct(t))
        })
        .expect("storm");
        assert_eq!(r1, r2, "seed {seed}: Alg. 1 and Alg. 2 disagree");
        for (name, r) in [("alg1/2", &r2), ("storm", &r3)] {
            assert!(
                vc.correct(r),
                "seed {seed}: {name}'s set {r:?} does not prove the path"
            );
            for v in r {
                let mut less = r.clone();
                less.remove(v);
                assert!(
                    !vc.correct(&less),
                    "seed {seed}: {name}'s set {r:?} is not minimal ({v})"
                );
            }
        }
        println!(
            "{seed:>6} {globals:>8} {:>8} {q1:>6} {q2:>6} {q3:>6}",
            r2.len()
        );
        totals[0] += q1;
        totals[1] += q2;
        totals[2] += q3;
    }
    println!(
        "{:>6} {:>8} {:>8} {:>6} {:>6} {:>6}",
        "total", "", "", totals[0], totals[1], totals[2]
    );
    // The point of the hierarchical algorithms: far fewer queries than one per global.
    assert!(totals[1] < totals[2], "{totals:?}");
}
