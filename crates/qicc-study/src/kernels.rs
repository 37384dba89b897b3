//! The loop-free kernels the study wraps in synthetic loops.
//!
//! A kernel is a tiny SV-COMP style program cut into three parts: variable declarations, a
//! *fact* (statements that read fresh inputs and compute what the assertion needs) and an
//! assertion condition. Invariant every kernel keeps: **the assertion holds after the fact
//! alone, whatever values the variables had before it** — the fact writes every variable the
//! assertion reads. That is what lets the wrappers in [`crate::structures`] put the fact and the
//! assertion at any distance (Fig. 7 of the Qicc paper) without changing the verdict.
//!
//! Each kernel also has an unsafe twin: the same program with the assertion (or, once, the fact)
//! changed so that some input makes the assertion fail the first time it is checked. The
//! `witness` lists such an input: the values the kernel's `__VERIFIER_nondet_*` calls return, in
//! call order. The tests replay it on every generated unsafe scenario, and also search 300
//! random seeds; that search finds most twins but misses, in some scenarios, those whose failing
//! input is a single point — `array_chain` (k = 99), `ushort_product` (a = b = 65535), at times
//! `double_sum` (x = 999) and `pow2_mask` (k = 31) — which is why the witness is documented.
//!
//! Identifiers: kernels never use names starting with `qs_`; that prefix is reserved for the
//! loop counters the wrappers add.

/// One loop-free kernel and its unsafe twin.
#[derive(Clone, Copy, Debug)]
pub struct Kernel {
    /// Short name, also the directory name of its scenarios (`[a-z0-9_]+`).
    pub name: &'static str,
    /// What the kernel exercises, one line.
    pub about: &'static str,
    /// File-scope declarations the kernel needs (struct types), placed before `main`.
    pub preamble: &'static [&'static str],
    /// Local declarations at the top of `main`, without initialisers.
    pub decls: &'static [&'static str],
    /// The fact: statements that establish everything the assertion reads.
    pub fact: &'static [&'static str],
    /// The condition of `__VERIFIER_assert` in the safe kernel.
    pub assertion: &'static str,
    /// The unsafe twin: `Some(fact)` replaces the fact, `None` keeps it.
    pub unsafe_fact: Option<&'static [&'static str]>,
    /// The condition of `__VERIFIER_assert` in the unsafe twin.
    pub unsafe_assertion: &'static str,
    /// Inputs (in `__VERIFIER_nondet_*` call order) for which the twin's assertion fails on its
    /// first check; each is converted to the called function's return type.
    pub witness: &'static [i64],
}

impl Kernel {
    /// The fact of the safe kernel (`safe`) or of its unsafe twin.
    pub fn fact_for(&self, safe: bool) -> &'static [&'static str] {
        if safe {
            self.fact
        } else {
            self.unsafe_fact.unwrap_or(self.fact)
        }
    }

    /// The assertion condition of the safe kernel (`safe`) or of its unsafe twin.
    pub fn assertion_for(&self, safe: bool) -> &'static str {
        if safe {
            self.assertion
        } else {
            self.unsafe_assertion
        }
    }
}

/// All kernels, in a fixed order (the order of the table runs and of `--kernels` listings).
pub fn all() -> &'static [Kernel] {
    KERNELS
}

/// The loop kernels (the `loops` suite, [`crate::loop_kernels`]), in a fixed order.
pub fn loops() -> &'static [Kernel] {
    crate::loop_kernels::LOOP_KERNELS
}

/// The kernel called `name`, in either suite, if any.
pub fn find(name: &str) -> Option<&'static Kernel> {
    KERNELS.iter().chain(loops()).find(|k| k.name == name)
}

/// The kernels named in `names` (all of them for `None`), in the order given; an unknown name
/// is an error that lists the known ones.
pub fn select(names: Option<&[String]>) -> Result<Vec<&'static Kernel>, String> {
    let Some(names) = names else {
        return Ok(KERNELS.iter().collect());
    };
    names
        .iter()
        .map(|n| {
            find(n).ok_or_else(|| {
                let known: Vec<&str> = KERNELS.iter().chain(loops()).map(|k| k.name).collect();
                format!("unknown kernel '{n}' (known: {})", known.join(", "))
            })
        })
        .collect()
}

const KERNELS: &[Kernel] = &[
    Kernel {
        name: "double_sum",
        about: "signed multiplication under a range assumption",
        preamble: &[],
        decls: &["int x, y;"],
        fact: &[
            "x = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(x > -1000 && x < 1000);",
            "y = x * 2;",
        ],
        assertion: "y - x == x && y <= 1998",
        unsafe_fact: None,
        // Off by one: x = 999 gives y = 1998.
        unsafe_assertion: "y - x == x && y < 1998",
        witness: &[999],
    },
    Kernel {
        name: "abs_branchless",
        about: "absolute value with an arithmetic shift and xor",
        preamble: &[],
        decls: &["int x, m, a;"],
        fact: &[
            "x = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(x > -100000 && x < 100000);",
            "m = x >> 31;",
            "a = (x ^ m) - m;",
        ],
        assertion: "a >= 0 && (a == x || a == -x)",
        unsafe_fact: None,
        // x = 0 gives a = 0.
        unsafe_assertion: "a > 0 && (a == x || a == -x)",
        witness: &[0],
    },
    Kernel {
        name: "uint_wrap",
        about: "unsigned wrap-around of an increment",
        preamble: &[],
        decls: &["unsigned int u, v;"],
        fact: &["u = __VERIFIER_nondet_uint();", "v = u + 1u;"],
        assertion: "v > u || v == 0u",
        unsafe_fact: None,
        // u = UINT_MAX wraps v to 0.
        unsafe_assertion: "v > u",
        witness: &[4294967295],
    },
    Kernel {
        name: "parity_fold",
        about: "parity by xor folding against a bit-by-bit popcount of an unsigned char",
        preamble: &[],
        decls: &["unsigned char b;", "unsigned int t;", "int q;"],
        fact: &[
            "b = __VERIFIER_nondet_uchar();",
            "t = b;",
            "t ^= t >> 4;",
            "t ^= t >> 2;",
            "t ^= t >> 1;",
            "q = (b & 1) + ((b >> 1) & 1) + ((b >> 2) & 1) + ((b >> 3) & 1)",
            "  + ((b >> 4) & 1) + ((b >> 5) & 1) + ((b >> 6) & 1) + ((b >> 7) & 1);",
        ],
        assertion: "(t & 1u) == (unsigned int)(q & 1) && q <= 8",
        unsafe_fact: None,
        // b = 255 has eight bits set.
        unsafe_assertion: "(t & 1u) == (unsigned int)(q & 1) && q < 8",
        witness: &[255],
    },
    Kernel {
        name: "array_chain",
        about: "array cells with constant indices computed from each other",
        preamble: &[],
        decls: &["int a[4];", "int k;"],
        fact: &[
            "k = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(k >= 0 && k < 100);",
            "a[0] = k;",
            "a[1] = k + 1;",
            "a[2] = a[0] + a[1];",
            "a[3] = a[2] - a[1];",
        ],
        assertion: "a[3] == k && a[2] == 2 * k + 1 && a[2] <= 199",
        unsafe_fact: None,
        // k = 99 gives a[2] = 199.
        unsafe_assertion: "a[3] == k && a[2] == 2 * k + 1 && a[2] < 199",
        witness: &[99],
    },
    Kernel {
        name: "struct_mirror",
        about: "struct fields, short to int promotion and negation",
        preamble: &["struct pair { short x; int y; };"],
        decls: &["struct pair p;"],
        fact: &["p.x = __VERIFIER_nondet_short();", "p.y = -p.x;"],
        assertion: "p.x + p.y == 0 && p.y >= -32767 && p.y <= 32768",
        unsafe_fact: None,
        // p.x = -32768 gives p.y = 32768.
        unsafe_assertion: "p.x + p.y == 0 && p.y >= -32767 && p.y < 32768",
        witness: &[-32768],
    },
    Kernel {
        name: "pointer_alias",
        about: "writes through a pointer to a local",
        preamble: &[],
        decls: &["int v, w;", "int *q;"],
        fact: &[
            "v = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(v >= 0 && v <= 100);",
            "q = &v;",
            "*q = *q + 5;",
            "w = *q;",
        ],
        assertion: "w == v && v >= 5 && v <= 105",
        unsafe_fact: None,
        // v = 100 becomes 105.
        unsafe_assertion: "w == v && v >= 5 && v < 105",
        witness: &[100],
    },
    Kernel {
        name: "minmax_branchless",
        about: "branch-free minimum and maximum with masks",
        preamble: &[],
        decls: &["int a, b, lo, hi;"],
        fact: &[
            "a = __VERIFIER_nondet_int();",
            "b = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(a > -1000 && a < 1000 && b > -1000 && b < 1000);",
            "lo = b ^ ((a ^ b) & -(a < b));",
            "hi = a ^ ((a ^ b) & -(a < b));",
        ],
        assertion: "lo <= hi && lo + hi == a + b && (lo == a || lo == b)",
        unsafe_fact: None,
        // Equal inputs give lo == hi.
        unsafe_assertion: "lo < hi && lo + hi == a + b",
        witness: &[7, 7],
    },
    Kernel {
        name: "ushort_product",
        about: "unsigned short operands promoted, multiplied in unsigned int",
        preamble: &[],
        decls: &["unsigned short a, b;", "unsigned int p;"],
        fact: &[
            "a = __VERIFIER_nondet_ushort();",
            "b = __VERIFIER_nondet_ushort();",
            "p = (unsigned int)a * b;",
        ],
        // No `p / a == b`: a 32-bit division of a product takes Z3 minutes even in the
        // baseline, so such a kernel would measure the solver, not the loop structure.
        assertion: "p <= 4294836225u && (a == 0 || p >= b)",
        unsafe_fact: None,
        // Only a = b = 65535 reaches 65535 * 65535 = 4294836225.
        unsafe_assertion: "p < 4294836225u && (a == 0 || p >= b)",
        witness: &[65535, 65535],
    },
    Kernel {
        name: "schar_sign",
        about: "signed char to int and to unsigned char",
        preamble: &[],
        decls: &["signed char c;", "int i;", "unsigned int z;"],
        fact: &[
            "c = __VERIFIER_nondet_char();",
            "i = c;",
            "z = (unsigned char)c;",
        ],
        assertion: "i == (int)z || i == (int)z - 256",
        unsafe_fact: None,
        // Any negative c: i = z - 256, not z - 255.
        unsafe_assertion: "i == (int)z || i == (int)z - 255",
        witness: &[-1],
    },
    Kernel {
        name: "xor_swap",
        about: "swap by three xors on unconstrained inputs",
        preamble: &[],
        decls: &["int a, b, a0, b0;"],
        fact: &[
            "a = __VERIFIER_nondet_int();",
            "b = __VERIFIER_nondet_int();",
            "a0 = a;",
            "b0 = b;",
            "a ^= b;",
            "b ^= a;",
            "a ^= b;",
        ],
        assertion: "a == b0 && b == a0",
        unsafe_fact: None,
        // Equal inputs: the swap changes nothing.
        unsafe_assertion: "a == b0 && b == a0 && a != a0",
        witness: &[3, 3],
    },
    Kernel {
        name: "avg_floor",
        about: "overflow-free unsigned average; the twin averages with a wrapping sum",
        preamble: &[],
        decls: &["unsigned int x, y, m;"],
        fact: &[
            "x = __VERIFIER_nondet_uint();",
            "y = __VERIFIER_nondet_uint();",
            "m = (x & y) + ((x ^ y) >> 1);",
        ],
        assertion: "(m >= x && m <= y) || (m >= y && m <= x)",
        // x + y wraps for large inputs: UINT_MAX twice averages to 2147483647.
        unsafe_fact: Some(&[
            "x = __VERIFIER_nondet_uint();",
            "y = __VERIFIER_nondet_uint();",
            "m = (x + y) / 2u;",
        ]),
        unsafe_assertion: "(m >= x && m <= y) || (m >= y && m <= x)",
        witness: &[4294967295, 4294967295],
    },
    Kernel {
        name: "divmod",
        about: "signed division and remainder truncate toward zero",
        preamble: &[],
        decls: &["int n, q, r;"],
        fact: &[
            "n = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(n >= -10000 && n <= 10000);",
            "q = n / 7;",
            "r = n % 7;",
        ],
        assertion: "q * 7 + r == n && r > -7 && r < 7",
        unsafe_fact: None,
        // A negative n has a negative remainder: n = -1 gives r = -1.
        unsafe_assertion: "q * 7 + r == n && r >= 0 && r < 7",
        witness: &[-1],
    },
    Kernel {
        name: "pow2_mask",
        about: "variable shift of an unsigned one and the mask below it",
        preamble: &[],
        decls: &["int k;", "unsigned int x, m;"],
        fact: &[
            "k = __VERIFIER_nondet_int();",
            "__VERIFIER_assume(k >= 0 && k < 32);",
            "x = 1u << k;",
            "m = x - 1u;",
        ],
        assertion: "(x & m) == 0u && (x | m) == x + m",
        unsafe_fact: None,
        // k = 31 gives m = 2147483647.
        unsafe_assertion: "(x & m) == 0u && m < 2147483647u",
        witness: &[31],
    },
    // Floating-point kernels, modelled on the fragments of SV-COMP's float benchmarks the
    // paper's study draws on (Sec. 4.3): bit-precise IEEE arithmetic, where the real-number
    // reading of the program gives the other verdict. Inputs are whole numbers (the witness
    // values are converted to the called function's type).
    Kernel {
        name: "float_drift",
        about: "float rounding drift of adding and subtracting 0.1f",
        preamble: &["extern float __VERIFIER_nondet_float(void);"],
        decls: &["float t, t1, t2, e;"],
        fact: &[
            "t = __VERIFIER_nondet_float();",
            "__VERIFIER_assume(t >= 0.0f && t <= 100.0f);",
            "t1 = t + 0.1f;",
            "t2 = t1 - 0.1f;",
            "e = t2 - t;",
        ],
        // Two roundings of at most half an ulp of 128 (2^-17) each.
        assertion: "e <= 1e-5f && e >= -1e-5f",
        unsafe_fact: None,
        // t = 32: (32 + 0.1f) - 0.1f - 32 is -2^-19, about -1.9e-6.
        unsafe_assertion: "e <= 1e-6f && e >= -1e-6f",
        witness: &[32],
    },
    Kernel {
        name: "rump_poly",
        about: "Rump's polynomial in double: catastrophic cancellation",
        preamble: &[],
        decls: &["double a, b, b2, b4, r;"],
        // Rump's inputs are one point (as in the float tasks built on it): no input is read.
        fact: &[
            "a = 77617.0;",
            "b = 33096.0;",
            "b2 = b * b;",
            "b4 = b2 * b2;",
            "r = 333.75 * (b4 * b2) + a * a * (11.0 * a * a * b2 - b4 * b2 - 121.0 * b4 - 2.0) \
             + 5.5 * (b4 * b4) + a / (2.0 * b);",
        ],
        // Rounded, the value is about -1.18e21 (the exact one is -0.827…).
        assertion: "r < -1.0e21 && r > -1.3e21",
        unsafe_fact: None,
        // The real-number value's sign.
        unsafe_assertion: "r < 0.0 && r > -1.0",
        witness: &[],
    },
    Kernel {
        name: "muller_kahan",
        about: "two steps of the Muller-Kahan recurrence u' = 108 - (815 - 1500/u0)/u1",
        preamble: &[],
        decls: &["double u0, u1, u2, u3;"],
        // The recurrence starts at one point (4, 4.25): no input is read.
        fact: &[
            "u0 = 4.0;",
            "u1 = u0 + 0.25;",
            "u2 = 108.0 - (815.0 - 1500.0 / u0) / u1;",
            "u3 = 108.0 - (815.0 - 1500.0 / u1) / u2;",
        ],
        // 4.4705882… and 4.6447368… (the sequence tends to 5 in reals, to 100 rounded).
        assertion: "u2 > 4.4705 && u2 < 4.4706 && u3 > 4.6447 && u3 < 4.6448",
        unsafe_fact: None,
        unsafe_assertion: "u2 > 4.4705 && u3 < 4.6",
        witness: &[],
    },
    Kernel {
        name: "zonotope",
        about: "a float branch on the sign of x*x - x, as SV-COMP's zonotope tasks",
        preamble: &["extern float __VERIFIER_nondet_float(void);"],
        decls: &["float x, y;"],
        fact: &[
            "x = __VERIFIER_nondet_float();",
            "__VERIFIER_assume(x >= 0.0f && x <= 100.0f);",
            "y = x * x - x;",
            "if (y >= 0.0f) y = x / 10.0f; else y = x * x + 2.0f;",
        ],
        assertion: "y >= 0.0f && y <= 105.0f",
        unsafe_fact: None,
        // x = 0 takes the first branch: y = 0.
        unsafe_assertion: "y >= 2.0f",
        witness: &[0],
    },
    Kernel {
        name: "sqrt_poly",
        about: "a Taylor polynomial of sqrt(1 + x) in double on [-1, 1]",
        preamble: &["extern double __VERIFIER_nondet_double(void);"],
        decls: &["double x, s;"],
        fact: &[
            "x = __VERIFIER_nondet_double();",
            "__VERIFIER_assume(x >= -16.0 && x <= 16.0);",
            "x = x / 16.0;",
            "s = 1.0 + 0.5 * x - 0.125 * x * x + 0.0625 * x * x * x - 0.0390625 * x * x * x * x;",
        ],
        // Increasing on [-1, 1]: from 0.2734375 to 1.3984375.
        assertion: "s >= 0.27 && s <= 1.4",
        unsafe_fact: None,
        // x = 16 / 16 gives 1.3984375.
        unsafe_assertion: "s >= 0.27 && s <= 1.39",
        witness: &[16],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_twelve_kernels_with_unique_names() {
        assert!(all().len() >= 12);
        let mut names: Vec<&str> = all().iter().map(|k| k.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all().len());
    }

    #[test]
    fn kernels_never_use_the_reserved_prefix() {
        for k in all() {
            let text = [k.preamble, k.decls, k.fact, k.unsafe_fact.unwrap_or(&[])]
                .concat()
                .join("\n");
            assert!(!text.contains("qs_"), "{} uses the reserved prefix", k.name);
            assert!(!k.assertion.contains("qs_") && !k.unsafe_assertion.contains("qs_"));
            assert!(k
                .name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'));
        }
    }

    #[test]
    fn twins_differ_and_have_witnesses() {
        for k in all() {
            assert!(
                k.unsafe_assertion != k.assertion || k.unsafe_fact.is_some(),
                "{}: the twin is the same program",
                k.name
            );
            let calls = k
                .fact_for(false)
                .concat()
                .matches("__VERIFIER_nondet_")
                .count();
            assert_eq!(
                k.witness.len(),
                calls,
                "{}: one witness value per nondet call",
                k.name
            );
        }
    }

    #[test]
    fn select_reports_unknown_names() {
        let err = select(Some(&["nope".to_string()])).unwrap_err();
        assert!(err.contains("unknown kernel 'nope'") && err.contains("divmod"));
        let two = select(Some(&["divmod".to_string(), "xor_swap".to_string()])).unwrap();
        assert_eq!(
            two.iter().map(|k| k.name).collect::<Vec<_>>(),
            ["divmod", "xor_swap"]
        );
    }
}
