//! From a [`Skeleton`] to the final program: rendering (for qicc, for probing, for gcc), the
//! probe runs that find each slot's minimum and maximum, and the choice of each assertion.
//!
//! A slot becomes a *violable* assertion (`e < max`, `e != min`, … — false exactly where
//! the extreme value is taken) or a *safe* one (`e <= max`, `e != max + 1`, …); a slot that
//! no input reaches becomes `__VERIFIER_assert(0)`. About half the programs get one violable
//! slot. This is only the generator's intent: the verdict every engine is judged against is
//! the exhaustive execution of the final program ([`crate::truth`]).

use crate::gen::{generate, lit, slot_marker, Input, Profile, Rng, Skeleton, Ty};
use crate::truth;
use std::fmt::Write as _;

/// How the program text is rendered.
pub enum Variant<'a> {
    /// The program the engines verify: slots replaced by these assertions.
    Final(&'a [String]),
    /// Slot `slot` records the maximum (or minimum) of its expression; `main` returns it, and
    /// fails an assertion if the slot was never reached.
    Probe { slot: usize, max: bool },
    /// For gcc: the nondet functions read a list, and a harness runs the program once per
    /// input combination (in a forked child) and prints `E` (reach_error), `.` or `?`.
    Gcc(&'a [String], &'a [Input]),
}

fn nondet_ret(suffix: &str) -> &'static str {
    match suffix {
        "char" => "char",
        "uchar" => "unsigned char",
        "short" => "short",
        "ushort" => "unsigned short",
        "uint" => "unsigned int",
        "long" => "long",
        "ulong" => "unsigned long",
        _ => "int",
    }
}

pub fn render(sk: &Skeleton, v: &Variant) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "/* qicc-fuzz seed {} */", sk.seed);
    match v {
        Variant::Gcc(..) => {
            s.push_str("#include <stdio.h>\n#include <stdlib.h>\n#include <unistd.h>\n#include <sys/wait.h>\n");
            s.push_str("static long long __fz_in[3];\nstatic int __fz_k;\n");
            s.push_str("void reach_error() { _exit(10); }\n");
            s.push_str("void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }\n");
            s.push_str("void __VERIFIER_assume(int c) { if (!c) _exit(3); }\n");
            for n in &sk.nondets {
                let t = nondet_ret(n);
                let _ = writeln!(
                    s,
                    "{t} __VERIFIER_nondet_{n}(void) {{ return ({t})__fz_in[__fz_k++]; }}"
                );
            }
        }
        _ => {
            s.push_str("extern void abort(void);\n");
            s.push_str("void reach_error() {}\n");
            s.push_str("void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }\n");
            s.push_str("extern void __VERIFIER_assume(int cond);\n");
            for n in &sk.nondets {
                let _ = writeln!(s, "extern {} __VERIFIER_nondet_{n}(void);", nondet_ret(n));
            }
            s.push_str("extern void *malloc(unsigned long size);\nextern void free(void *p);\n");
        }
    }
    if let Variant::Probe { .. } = v {
        s.push_str("long long __fz_best;\nint __fz_seen;\n");
    }
    s.push('\n');
    let mut body = format!("{}\n", sk.decls);
    let main_name = match v {
        Variant::Final(_) => "main",
        _ => "__fz_main",
    };
    let _ = write!(body, "int {main_name}(void) {{\n{}}}\n", sk.main_body);
    for k in 0..sk.slots.len() {
        let text = match v {
            Variant::Final(a) | Variant::Gcc(a, _) => a[k].clone(),
            Variant::Probe { slot, max } => {
                if *slot == k {
                    format!(
                        "{{ long long __fz_v = (long long)({}); if (!__fz_seen || __fz_v {} __fz_best) __fz_best = __fz_v; __fz_seen = 1; }}",
                        sk.slots[k].expr,
                        if *max { ">" } else { "<" }
                    )
                } else {
                    ";".to_string()
                }
            }
        };
        body = body.replace(&slot_marker(k), &text);
    }
    s.push_str(&body);
    match v {
        Variant::Probe { .. } => {
            s.push_str("\nint main(void) {\n    __fz_main();\n    __VERIFIER_assert(__fz_seen);\n    return (int)__fz_best;\n}\n");
        }
        Variant::Gcc(_, inputs) => {
            s.push_str("\nint main(void) {\n");
            for (k, inp) in inputs.iter().enumerate() {
                // Counted, not `v <= hi`: `hi` may be LLONG_MAX.
                let _ = writeln!(
                    s,
                    "    for (unsigned long long n{k} = 0; n{k} < {}ULL; n{k}++)",
                    (inp.hi as i128 - inp.lo as i128 + 1)
                );
            }
            s.push_str("    {\n");
            for (k, inp) in inputs.iter().enumerate() {
                let _ = writeln!(
                    s,
                    "        __fz_in[{k}] = {} + (long long)n{k};",
                    lit(inp.lo as i128, Ty::LLong)
                );
            }
            s.push_str("        fflush(stdout);\n        int pid = fork();\n        if (pid == 0) { __fz_k = 0; __fz_main(); _exit(0); }\n        int st = 0;\n        waitpid(pid, &st, 0);\n        putchar(WIFEXITED(st) && WEXITSTATUS(st) == 10 ? 'E' : WIFEXITED(st) && WEXITSTATUS(st) == 0 ? '.' : '?');\n    }\n    putchar('\\n');\n    return 0;\n}\n");
        }
        Variant::Final(_) => {}
    }
    s
}

/// Every input combination, first input outermost (the order the gcc harness uses).
pub fn combos(inputs: &[Input]) -> Vec<Vec<i64>> {
    let mut out = vec![Vec::new()];
    for inp in inputs {
        let mut next = Vec::new();
        for c in &out {
            for v in inp.lo..=inp.hi {
                let mut c2 = c.clone();
                c2.push(v);
                next.push(c2);
            }
        }
        out = next;
    }
    out
}

/// A generated program, ready for the engines.
#[derive(Clone, Debug)]
pub struct Built {
    pub seed: u64,
    pub skeleton: Skeleton,
    /// The assertion text of each slot.
    pub asserts: Vec<String>,
    /// The program the engines verify.
    pub text: String,
    /// Did the generator mean one assertion to be violable?
    pub intended_false: bool,
    pub combos: Vec<Vec<i64>>,
    /// The hazard added to `main` (see [`hazard`]), if any: the program may then have
    /// undefined behaviour (or observe an address) on some inputs, and gcc is no reference.
    pub hazard: Option<&'static str>,
    /// The floating-point computation added to `main` (see [`float_block`]), if any.
    pub float: Option<&'static str>,
    /// The calls of a body-less `const`/`pure` function added to `main` (see [`applied`]), if
    /// any: their results are enumerated like inputs (`combos` lists them after the inputs),
    /// and gcc, which has no body for the function, is no reference.
    pub applied: Option<&'static str>,
    /// The signed-arithmetic block added to `main` (see [`overflow`]), if any: some inputs
    /// may overflow in it (the `no-overflow` property's FALSE cases; the IR and gcc's
    /// `-fwrapv` wrap, so the unreach-call truth is unchanged).
    pub overflow: Option<&'static str>,
}

impl Built {
    pub fn gcc_text(&self) -> String {
        render(
            &self.skeleton,
            &Variant::Gcc(&self.asserts, &self.skeleton.inputs),
        )
    }
}

fn value_lit(v: i64, unsigned: bool) -> String {
    lit(v as i128, if unsigned { Ty::UInt } else { Ty::Int })
}

/// Probes slot `k` (its maximum when `max`): `None` when no input reaches it.
fn probe(sk: &Skeleton, k: usize, max: bool, combos: &[Vec<i64>]) -> Result<Option<i64>, String> {
    let text = render(sk, &Variant::Probe { slot: k, max });
    let loaded = truth::lower(&text, sk.ilp32).map_err(|e| format!("probe does not lower: {e}"))?;
    let mut best: Option<i64> = None;
    for c in combos {
        match truth::run_once(&loaded.program, c) {
            truth::End::Returned(v) => {
                let v = v as u32;
                let v = if sk.slots[k].unsigned {
                    v as i64
                } else {
                    v as i32 as i64
                };
                best = Some(match best {
                    None => v,
                    Some(b) if max => b.max(v),
                    Some(b) => b.min(v),
                });
            }
            truth::End::Error { property: true } => {} // never reached on this input
            other => return Err(format!("probe run on {c:?}: {other:?}")),
        }
    }
    Ok(best)
}

/// Generates, probes and fills the program of `seed`.
pub fn build(seed: u64, profile: Profile) -> Result<Built, String> {
    let mut sk = generate(seed, profile);
    let mut fl = Rng::new(seed ^ 0x0f10_a700_0000_0001);
    let float = fl
        .chance(profile.float_percent)
        .then(|| float_block(&mut fl, &mut sk));
    let mut combos = combos(&sk.inputs);
    let mut rng = Rng::new(seed.wrapping_mul(31).wrapping_add(7));
    let intended_false = rng.chance(50);
    let violable = rng.below(sk.slots.len() as u64) as usize;
    let mut asserts = Vec::new();
    for k in 0..sk.slots.len() {
        let e = &sk.slots[k].expr;
        let uns = sk.slots[k].unsigned;
        let (tmin, tmax) = if uns {
            (0i64, u32::MAX as i64)
        } else {
            (i32::MIN as i64, i32::MAX as i64)
        };
        let hi = probe(&sk, k, true, &combos)?;
        let lo = probe(&sk, k, false, &combos)?;
        let (Some(hi), Some(lo)) = (hi, lo) else {
            asserts.push("__VERIFIER_assert(0);".to_string());
            continue;
        };
        let cond = if intended_false && k == violable {
            match rng.below(4) {
                0 if hi > tmin => format!("{e} < {}", value_lit(hi, uns)),
                1 if lo < tmax => format!("{e} > {}", value_lit(lo, uns)),
                2 => format!("{e} != {}", value_lit(lo, uns)),
                _ => format!("{e} != {}", value_lit(hi, uns)),
            }
        } else {
            match rng.below(5) {
                0 => format!("{e} <= {}", value_lit(hi, uns)),
                1 => format!("{e} >= {}", value_lit(lo, uns)),
                2 if hi < tmax => format!("{e} != {}", value_lit(hi + 1, uns)),
                3 if lo > tmin => format!("{e} != {}", value_lit(lo - 1, uns)),
                _ => format!(
                    "{e} >= {} && {e} <= {}",
                    value_lit(lo, uns),
                    value_lit(hi, uns)
                ),
            }
        };
        asserts.push(format!("__VERIFIER_assert({cond});"));
    }
    let mut hz = Rng::new(seed ^ 0x4a7a_2d00_0000_0001);
    let hazard = hz.chance(HAZARD_PERCENT).then(|| hazard(&mut hz, &sk));
    let mut ap = Rng::new(seed ^ 0x0a99_1ed0_0000_0001);
    let applied = ap.chance(APPLIED_PERCENT).then(|| applied(&mut ap, &sk));
    let mut ov = Rng::new(seed ^ 0x0f10_0000_0000_0001);
    let overflow = ov.chance(OVERFLOW_PERCENT).then(|| overflow(&mut ov, &sk));
    let mut with = sk.clone();
    let end = |w: &Skeleton| {
        w.main_body
            .rfind("    return 0;")
            .unwrap_or(w.main_body.len())
    };
    if let Some((_, at_start, block)) = &hazard {
        with.decls.push_str("int __hz_sink;\n");
        let at = if *at_start {
            with.main_after_inputs
        } else {
            end(&with)
        };
        with.main_body.insert_str(at, &format!("    {block}\n"));
    }
    if let Some((_, block)) = &overflow {
        with.decls.push_str("int __ov_sink;\n");
        with.main_body
            .insert_str(with.main_after_inputs, &format!("    {block}\n"));
    }
    if let Some(a) = &applied {
        with.decls.push_str(&a.decls);
        let at = end(&with);
        with.main_body.insert_str(at, &format!("    {}\n", a.last));
        with.main_body
            .insert_str(with.main_after_inputs, &format!("    {}\n", a.first));
        // Each of the two calls asks for a result (a repeated one then takes the first):
        // both results range over what `& 1` keeps, after the inputs.
        combos = combos
            .into_iter()
            .flat_map(|c| {
                (0..4).map(move |k| {
                    let mut c = c.clone();
                    c.extend([k & 1, k >> 1]);
                    c
                })
            })
            .collect();
    }
    let text = render(&with, &Variant::Final(&asserts));
    Ok(Built {
        seed,
        skeleton: sk,
        asserts,
        text,
        intended_false,
        combos,
        hazard: hazard.map(|(name, ..)| name),
        float,
        applied: applied.map(|a| a.name),
        overflow: overflow.map(|(name, _)| name),
    })
}

/// How many programs in 100 get the calls of a body-less `const`/`pure` function (the share
/// with a floating-point block is the profile's: few, as symbolic floats are slow and most of
/// those programs end UNKNOWN at the fuzzer's timeouts).
const APPLIED_PERCENT: u64 = 20;

/// The value a generated fragment computes from: the first input reduced to `0..64` (or 1).
fn small_input(sk: &Skeleton) -> String {
    match sk.inputs.first() {
        Some(i) => format!("(int)((unsigned)({}) % 64u)", i.name),
        None => "1".to_string(),
    }
}

/// Adds to the start of `main` a block that computes with `float` and `double` from the first
/// input — rounding at 2^24, decimal constants, conversions both ways, a loop of additions,
/// an overflow to infinity — and ends in an `int` that becomes a new slot, so the probes
/// choose its assertion. Free of undefined behaviour: every conversion to `int` is of a value
/// well inside its range (the input is reduced to `0..64`). Its name.
fn float_block(rng: &mut Rng, sk: &mut Skeleton) -> &'static str {
    let kinds: [(&str, &str); 8] = [
        ("float tenths", "float __fl_f = (float)__fl_v * 0.1f; int __fl_r = (int)(__fl_f * 10.0f);"),
        ("float at 2^24", "float __fl_f = 16777216.0f + (float)__fl_v; int __fl_r = (int)(__fl_f - 16777216.0f);"),
        ("double thirds", "double __fl_d = (double)__fl_v / 3.0; int __fl_r = __fl_d * 3.0 == (double)__fl_v;"),
        ("float to double", "float __fl_f = (float)__fl_v / 7.0f; double __fl_d = __fl_f; int __fl_r = (int)(__fl_d * 7000.0) % 1000;"),
        ("double sum loop", "double __fl_d = 0.0; for (int __fl_i = 0; __fl_i < __fl_v % 8; __fl_i++) __fl_d += 0.1; int __fl_r = (__fl_d == 0.1 * (double)(__fl_v % 8)) + 2 * (int)(__fl_d * 10.0);"),
        ("float sign and truncation", "float __fl_f = (float)__fl_v * 1.5f - 40.0f; int __fl_r = (__fl_f > 0.0f) - (__fl_f < 0.0f) + 4 * (int)__fl_f;"),
        ("float square", "float __fl_f = (float)__fl_v; double __fl_d = (double)(__fl_f * __fl_f) * 0.01; int __fl_r = (int)(__fl_d * 100.0 + 0.5);"),
        ("float overflow to infinity", "float __fl_f = (float)__fl_v * 1e37f * 10.0f; int __fl_r = __fl_f > 3.0e38f ? 2 : __fl_f == __fl_f;"),
    ];
    let (name, text) = kinds[rng.below(kinds.len() as u64) as usize];
    let k = sk.slots.len();
    sk.slots.push(crate::gen::Slot {
        expr: "__fl_r".to_string(),
        unsigned: false,
    });
    let block = format!(
        "    {{ int __fl_v = {}; {text} {} }}\n",
        small_input(sk),
        slot_marker(k)
    );
    sk.main_body.insert_str(sk.main_after_inputs, &block);
    name
}

/// The calls of a body-less `const` or `pure` function [`build`] adds to `main`: one right
/// after the inputs, one before `return` with an assertion comparing the two results.
struct Applied {
    name: &'static str,
    decls: String,
    first: String,
    last: String,
}

/// Two calls of a body-less `const`/`pure` function: equal arguments (for `pure`: and equal
/// memory) must give equal results, others may not. The arguments and the memory in between
/// depend on the first input, so both verdicts occur.
fn applied(rng: &mut Rng, sk: &Skeleton) -> Applied {
    let v = small_input(sk);
    let kinds: [(&str, &str, &str, &str); 4] = [
        (
            "const, same argument",
            "int __ap_h(int) __attribute__((const));\n",
            "int __ap_r = __ap_h(@V % 3) & 1;",
            "__VERIFIER_assert(__ap_r == (__ap_h(@V % 3) & 1));",
        ),
        (
            "const, argument may differ",
            "int __ap_h(int) __attribute__((const));\n",
            "int __ap_r = __ap_h(@V % 3) & 1;",
            "__VERIFIER_assert(__ap_r == (__ap_h(2) & 1));",
        ),
        (
            "pure, global may change",
            "int __ap_p(int) __attribute__((pure));\nint __ap_g;\n",
            "int __ap_r = __ap_p(4) & 1;",
            "if (@V % 2 == 1) __ap_g = __ap_g + 1; __VERIFIER_assert(__ap_r == (__ap_p(4) & 1));",
        ),
        (
            "pure, result tested",
            "int __ap_p(int) __attribute__((pure));\nint __ap_g;\n",
            "int __ap_r = __ap_p(@V) & 1;",
            "__VERIFIER_assert(__ap_r + (__ap_p(@V) & 1) != 2 || @V % 5 != 3);",
        ),
    ];
    let (name, decls, first, last) = kinds[rng.below(kinds.len() as u64) as usize];
    Applied {
        name,
        decls: decls.to_string(),
        first: first.replace("@V", &v),
        last: last.replace("@V", &v),
    }
}

/// How many programs in 100 get a signed-arithmetic block.
const OVERFLOW_PERCENT: u64 = 25;

/// Signed arithmetic right after the inputs that overflows for some values of the first
/// input (each operator SV-COMP's `no-overflow` names), or a twin that never does.
fn overflow(rng: &mut Rng, sk: &Skeleton) -> (&'static str, String) {
    let x = match sk.inputs.first() {
        Some(i) => format!("(int)((unsigned)({}) % 4u)", i.name),
        None => "1".to_string(),
    };
    let kinds: [(&str, &str); 6] = [
        (
            "signed + overflows",
            "{ int __ov_v = 2147483644 + X; __ov_sink = __ov_v + 2; }",
        ),
        (
            "signed - overflows",
            "{ int __ov_v = -2147483645 - X; __ov_sink = __ov_v - 2; }",
        ),
        ("signed * overflows", "{ __ov_sink = X * 1073741824; }"),
        (
            "signed ++ overflows",
            "{ int __ov_v = 2147483645 + X; __ov_v++; __ov_v++; __ov_sink = __ov_v; }",
        ),
        (
            "unary minus overflows",
            "{ int __ov_v = X == 3 ? -2147483647 - 1 : X; __ov_sink = -__ov_v; }",
        ),
        (
            "signed + in range",
            "{ int __ov_v = 2147483644 + X; __ov_sink = __ov_v - 2; }",
        ),
    ];
    let (name, text) = kinds[rng.below(kinds.len() as u64) as usize];
    (name, text.replace('X', &x))
}

/// How many programs in 100 get a hazard.
const HAZARD_PERCENT: u64 = 30;

/// A statement whose run may be undefined (or observe an object's address), depending on the
/// first input, in the classes a peer's test suite found qicc wrong on: reads past an array,
/// a pointer into a block used after the block, a pointer converted to an integer, `free` of
/// a non-heap object, pointers into different objects ordered, a freed pointer compared,
/// a read after `free`; a leak on some inputs (not undefined: a `valid-memtrack` violation);
/// and a harmless twin of the first (in bounds), to keep TRUE honest.
/// Placed after the inputs (so it may hide later assertions) or before `return`. Its name,
/// whether it goes first, and its text.
fn hazard(rng: &mut Rng, sk: &Skeleton) -> (&'static str, bool, String) {
    let x = match sk.inputs.first() {
        Some(i) => format!("(unsigned)({})", i.name),
        None => "1u".to_string(),
    };
    let kinds: [(&str, &str); 9] = [
        ("read past an array", "{ int __hz_a[3] = {1, 2, 3}; __hz_sink = __hz_a[X % 4u]; }"),
        ("read in bounds", "{ int __hz_a[3] = {1, 2, 3}; __hz_sink = __hz_a[X % 3u]; }"),
        ("pointer into an ended block", "{ int *__hz_p; { int __hz_b[2] = {4, 5}; __hz_p = &__hz_b[X % 2u]; } if (X % 3u == 0u) __hz_sink = *__hz_p; }"),
        ("pointer to integer", "{ int __hz_x = 1; if (X % 5u == 1u) __hz_sink = (int)((unsigned long)&__hz_x % 8ul); }"),
        ("free of a local", "{ int __hz_y = 2; if (X % 4u == 2u) free(&__hz_y); __hz_sink = __hz_y; }"),
        ("pointers into different objects ordered", "{ int __hz_c = 0, __hz_d = 0; if (X % 3u == 2u) __hz_sink = &__hz_c < &__hz_d; }"),
        ("freed pointer compared", "{ int *__hz_h = malloc(sizeof(int)); free(__hz_h); int *__hz_g = malloc(sizeof(int)); if (X % 2u) __hz_sink = __hz_g == __hz_h; free(__hz_g); }"),
        ("read after free", "{ int *__hz_h = malloc(2 * sizeof(int)); __hz_h[0] = 1; __hz_h[1] = 2; if (X % 3u == 1u) free(__hz_h); __hz_sink = __hz_h[X % 2u]; if (X % 3u != 1u) free(__hz_h); }"),
        // Not undefined: a leak on some inputs (valid-memsafety's valid-memtrack).
        ("leak", "{ int *__hz_l = malloc(sizeof(int)); *__hz_l = 1; __hz_sink = *__hz_l; if (X % 2u) free(__hz_l); }"),
    ];
    let (name, text) = kinds[rng.below(kinds.len() as u64) as usize];
    (name, rng.chance(50), text.replace('X', &x))
}
