//! Random loop-free IR programs: the BMC verdict agrees with exhaustive interpretation.
//!
//! Each program reads two inputs, `x: i8` and `y: i2` (1024 combinations, all run through
//! the interpreter), computes with branches, memory (a zeroed 4-byte static object, indices
//! masked into bounds) and every bit-vector operator, and checks a few assertions. Being
//! loop-free and free of undefined-behaviour checks, every program must get a conclusive
//! verdict: FALSE exactly when some input reaches an assertion (and then the witness replays
//! to one of those), TRUE exactly when none does.

mod common;
use common::*;
use proptest::prelude::*;
use qicc_bmc::BmcOptions;
use qicc_interp::{InputOracle, Interpreter, Outcome, RunConfig};
use std::collections::BTreeSet;

const NVARS: usize = 4;

#[derive(Clone, Debug)]
enum E {
    Var(usize),
    Const(i8),
    Bin(&'static str, Box<E>, Box<E>),
}

#[derive(Clone, Debug)]
enum C {
    Cmp(&'static str, E, E),
    Not(Box<C>),
    And(Box<C>, Box<C>),
}

#[derive(Clone, Debug)]
enum S {
    Assign(usize, E),
    Store(E, E),
    Load(usize, E),
    If(C, Vec<S>, Vec<S>),
    Assert(C),
}

const BINOPS: [&str; 13] = [
    "add", "sub", "mul", "udiv", "sdiv", "urem", "srem", "shl", "lshr", "ashr", "and", "or", "xor",
];
const CMPS: [&str; 6] = ["eq", "ne", "ult", "ule", "slt", "sle"];

fn expr() -> impl Strategy<Value = E> {
    let leaf = prop_oneof![
        (0..NVARS).prop_map(E::Var),
        any::<i8>().prop_map(E::Const),
        prop_oneof![Just(0i8), Just(1), Just(-1), Just(7), Just(-128)].prop_map(E::Const),
    ];
    leaf.prop_recursive(2, 6, 2, |inner| {
        (prop::sample::select(&BINOPS[..]), inner.clone(), inner)
            .prop_map(|(op, a, b)| E::Bin(op, Box::new(a), Box::new(b)))
    })
}

fn cond() -> impl Strategy<Value = C> {
    let leaf =
        (prop::sample::select(&CMPS[..]), expr(), expr()).prop_map(|(op, a, b)| C::Cmp(op, a, b));
    leaf.prop_recursive(1, 3, 2, |inner| {
        prop_oneof![
            inner.clone().prop_map(|c| C::Not(Box::new(c))),
            (inner.clone(), inner).prop_map(|(a, b)| C::And(Box::new(a), Box::new(b))),
        ]
    })
}

fn simple_stmt() -> impl Strategy<Value = S> {
    prop_oneof![
        3 => ((0..NVARS), expr()).prop_map(|(v, e)| S::Assign(v, e)),
        1 => (expr(), expr()).prop_map(|(a, e)| S::Store(a, e)),
        1 => ((0..NVARS), expr()).prop_map(|(v, a)| S::Load(v, a)),
        2 => cond().prop_map(S::Assert),
    ]
}

fn stmt() -> impl Strategy<Value = S> {
    prop_oneof![
        4 => simple_stmt(),
        1 => (
            cond(),
            prop::collection::vec(simple_stmt(), 0..3),
            prop::collection::vec(simple_stmt(), 0..3)
        )
            .prop_map(|(c, t, f)| S::If(c, t, f)),
    ]
}

fn e_text(e: &E) -> String {
    match e {
        E::Var(i) => format!("%v{i}"),
        E::Const(c) => format!("{c}:i8"),
        E::Bin(op, a, b) => format!("{op}({}, {})", e_text(a), e_text(b)),
    }
}

fn c_text(c: &C) -> String {
    match c {
        C::Cmp(op, a, b) => format!("{op}({}, {})", e_text(a), e_text(b)),
        C::Not(a) => format!("not({})", c_text(a)),
        C::And(a, b) => format!("and({}, {})", c_text(a), c_text(b)),
    }
}

/// The address of `@m[index & 3]`.
fn cell(index: &E) -> String {
    format!("add(@m, zext.i32(and({}, 3:i8)))", e_text(index))
}

struct Gen {
    edges: Vec<String>,
    next_loc: u32,
    asserts: u32,
}

impl Gen {
    fn loc(&mut self) -> u32 {
        self.next_loc += 1;
        self.next_loc - 1
    }

    fn stmts(&mut self, from: u32, ss: &[S]) -> u32 {
        let mut cur = from;
        for s in ss {
            cur = self.stmt(cur, s);
        }
        cur
    }

    fn stmt(&mut self, cur: u32, s: &S) -> u32 {
        let next = self.loc();
        match s {
            S::Assign(v, e) => self
                .edges
                .push(format!("L{cur} -> L{next}: %v{v} := {}", e_text(e))),
            S::Store(a, e) => self.edges.push(format!(
                "L{cur} -> L{next}: store.i8 {}, {}",
                cell(a),
                e_text(e)
            )),
            S::Load(v, a) => self
                .edges
                .push(format!("L{cur} -> L{next}: %v{v} := load.i8({})", cell(a))),
            S::Assert(c) => {
                let bad = self.loc();
                let k = self.asserts;
                self.asserts += 1;
                self.edges
                    .push(format!("L{cur} -> L{bad}: assume not({})", c_text(c)));
                self.edges.push(format!("L{bad} -> L2: error #{k}"));
                self.edges
                    .push(format!("L{cur} -> L{next}: assume {}", c_text(c)));
            }
            S::If(c, t, f) => {
                let (lt, lf) = (self.loc(), self.loc());
                self.edges
                    .push(format!("L{cur} -> L{lt}: assume {}", c_text(c)));
                self.edges
                    .push(format!("L{cur} -> L{lf}: assume not({})", c_text(c)));
                let et = self.stmts(lt, t);
                let ef = self.stmts(lf, f);
                self.edges.push(format!("L{et} -> L{next}: skip"));
                self.edges.push(format!("L{ef} -> L{next}: skip"));
            }
        }
        next
    }
}

fn program_text(body: &[S]) -> String {
    let mut g = Gen {
        edges: Vec::new(),
        next_loc: 6,
        asserts: 0,
    };
    g.edges
        .push("L0 -> L4: havoc %v0 nondet \"__VERIFIER_nondet_char\"".into());
    g.edges
        .push("L4 -> L5: havoc %y nondet \"__VERIFIER_nondet_two_bits\"".into());
    let start = g.loc();
    g.edges.push(format!("L5 -> L{start}: %v1 := zext.i8(%y)"));
    let end = g.stmts(start, body);
    g.edges.push(format!("L{end} -> L1: skip"));
    let mut text = String::from("qicc-ir 1\ndata-model ilp32\nobject @m size 4 zeroed\n");
    for k in 0..g.asserts {
        text.push_str(&format!("assertion #{k} verifier_assert in @main\n"));
    }
    text.push_str("entry @main\nfn @main() {\n");
    for i in 0..NVARS {
        text.push_str(&format!("  local %v{i}: i8\n"));
    }
    text.push_str("  local %y: i2\n");
    text.push_str(&format!(
        "  locs {} entry L0 exit L1 err L2 halt L3\n",
        g.next_loc
    ));
    for e in &g.edges {
        text.push_str(&format!("  {e}\n"));
    }
    text.push_str("}\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn verdict_agrees_with_exhaustive_interpretation(
        body in prop::collection::vec(stmt(), 1..7)
    ) {
        let text = program_text(&body);
        let p = program(&text);
        let interp = Interpreter::new(&p).expect("well-formed");
        let mut reached = BTreeSet::new();
        for x in 0..256u64 {
            for y in 0..4u64 {
                let mut oracle = InputOracle::new(vec![x, y], 0);
                let run = interp.run(&mut oracle, &RunConfig::default());
                match run.outcome {
                    Outcome::ErrorReached { assertion } => {
                        reached.insert(assertion);
                    }
                    Outcome::Returned { .. } => {}
                    other => prop_assert!(false, "unexpected outcome {other:?}\n{text}"),
                }
            }
        }
        let r = run_with(&p, &BmcOptions::default());
        if reached.is_empty() {
            prop_assert_eq!(verdict(&r), Verdict::True, "{:?}\n{}", r, text);
        } else {
            prop_assert_eq!(verdict(&r), Verdict::False, "{:?}\n{}", r, text);
            let (a, _) = r.violation.as_ref().expect("FALSE has a violation");
            prop_assert!(reached.contains(a), "{:?} not among {:?}\n{}", a, reached, text);
        }
    }
}
