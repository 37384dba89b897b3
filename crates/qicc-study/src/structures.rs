//! Wrapping a kernel in synthetic loops: the loop structures of Fig. 7 and the loop bounds of
//! Sec. 4.3 of the Qicc paper, and the complete SV-COMP C file of each scenario.
//!
//! Invariants of every generated program:
//! - the synthetic loops only read and write their own counters (`qs_i` outer, `qs_j` inner,
//!   names no kernel uses), so between the fact and the assertion nothing writes a kernel
//!   variable except the fact itself; hence the verdict is the kernel's (TRUE for the kernel,
//!   FALSE for its twin, whose assertion fails on its first check);
//! - it is a whole translation unit that gcc, qicc and other SV-COMP tools read unchanged: the
//!   `extern` declarations of `abort`, `__assert_fail` and the `__VERIFIER_*` functions, the
//!   standard `reach_error` and `__VERIFIER_assert`, then the kernel's preamble and `main`.

use crate::kernels::Kernel;
use std::fmt::{self, Write};

/// Iterations of a loop with a small static bound (the paper's 10).
pub const SMALL_BOUND: u32 = 10;
/// Iterations of a loop with a large static bound (the paper's 200).
pub const LARGE_BOUND: u32 = 200;
/// The head of every loop with an arbitrary bound: it runs as long as the environment wants.
/// (The tests replace exactly this text to drive it from a stub.)
pub const ARBITRARY_LOOP_HEAD: &str = "while (__VERIFIER_nondet_int())";
/// The counter of the outer (or only) synthetic loop.
pub const OUTER_COUNTER: &str = "qs_i";
/// The counter of the inner synthetic loop.
pub const INNER_COUNTER: &str = "qs_j";

/// Where the fact and the assertion sit relative to the synthetic loops (Fig. 7).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Structure {
    /// No synthetic loop: the kernel as is.
    Baseline,
    /// One loop; fact and assertion in its body (Qicc hits).
    Single1,
    /// Fact before the loop, assertion in its body (Qicc misses).
    Single2,
    /// Two nested loops; fact and assertion in the inner body (Qicc hits).
    Double1,
    /// Fact in the outer body before the inner loop, assertion in the inner body (miss, then hit).
    Double2,
    /// Fact before both loops, assertion in the inner body (Qicc misses).
    Double3,
}

impl Structure {
    pub const ALL: [Structure; 6] = [
        Structure::Baseline,
        Structure::Single1,
        Structure::Single2,
        Structure::Double1,
        Structure::Double2,
        Structure::Double3,
    ];

    /// The name used in file names and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Structure::Baseline => "baseline",
            Structure::Single1 => "single1",
            Structure::Single2 => "single2",
            Structure::Double1 => "double1",
            Structure::Double2 => "double2",
            Structure::Double3 => "double3",
        }
    }

    /// The paper's name (Table 1's column header).
    pub fn title(self) -> &'static str {
        match self {
            Structure::Baseline => "Baseline",
            Structure::Single1 => "Single 1",
            Structure::Single2 => "Single 2",
            Structure::Double1 => "Double 1",
            Structure::Double2 => "Double 2",
            Structure::Double3 => "Double 3",
        }
    }

    /// Fig. 7's relation between the loops, the furthest fact and the assertion.
    pub fn describe(self) -> &'static str {
        match self {
            Structure::Baseline => "no synthetic loop",
            Structure::Single1 => "one loop; the fact and the assertion in its body",
            Structure::Single2 => "the fact before the loop, the assertion in its body",
            Structure::Double1 => "two nested loops; the fact and the assertion in the inner body",
            Structure::Double2 => {
                "the fact in the outer body before the inner loop, the assertion in the inner body"
            }
            Structure::Double3 => "the fact before both loops, the assertion in the inner body",
        }
    }

    /// How many synthetic loops the structure has (0, 1 or 2).
    pub fn loops(self) -> usize {
        match self {
            Structure::Baseline => 0,
            Structure::Single1 | Structure::Single2 => 1,
            Structure::Double1 | Structure::Double2 | Structure::Double3 => 2,
        }
    }

    /// Parses `single1`, `Single 1`, `single-1` and the like.
    pub fn parse(s: &str) -> Option<Structure> {
        let key: String = s
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase();
        Structure::ALL.into_iter().find(|st| st.id() == key)
    }
}

impl fmt::Display for Structure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.title())
    }
}

/// The bound type of one synthetic loop (Sec. 4.3, "Loop bounds").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bound {
    Small,
    Large,
    Arbitrary,
}

impl Bound {
    pub const ALL: [Bound; 3] = [Bound::Small, Bound::Large, Bound::Arbitrary];

    pub fn id(self) -> &'static str {
        match self {
            Bound::Small => "small",
            Bound::Large => "large",
            Bound::Arbitrary => "arbitrary",
        }
    }

    /// The static iteration count, `None` for an arbitrary bound.
    pub fn iterations(self) -> Option<u32> {
        match self {
            Bound::Small => Some(SMALL_BOUND),
            Bound::Large => Some(LARGE_BOUND),
            Bound::Arbitrary => None,
        }
    }

    fn describe(self) -> String {
        match self.iterations() {
            Some(n) => format!("{} ({n} iterations)", self.id()),
            None => "arbitrary (nondeterministic)".to_string(),
        }
    }
}

/// The bounds of a scenario's synthetic loops: none, one, or outer and inner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Bounds {
    None,
    Single(Bound),
    Double { outer: Bound, inner: Bound },
}

impl Bounds {
    /// Every bounds value in Table 1's row order: none (the baseline), the three single bounds
    /// (which also name the double rows with equal bounds), then the six unequal permutations.
    pub fn table_rows() -> Vec<Bounds> {
        let mut rows = vec![Bounds::None];
        rows.extend(Bound::ALL.map(Bounds::Single));
        for outer in Bound::ALL {
            for inner in Bound::ALL {
                if outer != inner {
                    rows.push(Bounds::Double { outer, inner });
                }
            }
        }
        rows
    }

    /// The part of the file name after the structure: `small`, `large_arbitrary`, empty for none.
    pub fn id(self) -> String {
        match self {
            Bounds::None => String::new(),
            Bounds::Single(b) => b.id().to_string(),
            Bounds::Double { outer, inner } => format!("{}_{}", outer.id(), inner.id()),
        }
    }

    /// Table 1's row: `small` for small and small/small, `small/large` for outer small, inner
    /// large, `none` for the baseline.
    pub fn row_label(self) -> String {
        match self {
            Bounds::None => "none".to_string(),
            Bounds::Single(b) => b.id().to_string(),
            Bounds::Double { outer, inner } if outer == inner => outer.id().to_string(),
            Bounds::Double { outer, inner } => format!("{}/{}", outer.id(), inner.id()),
        }
    }

    /// The row this bounds value is counted in (`Double {b, b}` shares the row of `Single(b)`).
    pub fn row(self) -> Bounds {
        match self {
            Bounds::Double { outer, inner } if outer == inner => Bounds::Single(outer),
            other => other,
        }
    }

    fn arity(self) -> usize {
        match self {
            Bounds::None => 0,
            Bounds::Single(_) => 1,
            Bounds::Double { .. } => 2,
        }
    }

    /// How many loops of the scenario have an arbitrary bound.
    pub fn arbitrary_loops(self) -> usize {
        match self {
            Bounds::None => 0,
            Bounds::Single(b) => usize::from(b == Bound::Arbitrary),
            Bounds::Double { outer, inner } => {
                usize::from(outer == Bound::Arbitrary) + usize::from(inner == Bound::Arbitrary)
            }
        }
    }
}

/// The 34 (structure, bounds) pairs of the study: the baseline, 3 bounds for each single
/// structure, 9 outer/inner permutations for each double structure.
pub fn shapes() -> Vec<(Structure, Bounds)> {
    let mut out = Vec::with_capacity(34);
    for s in Structure::ALL {
        match s.loops() {
            0 => out.push((s, Bounds::None)),
            1 => out.extend(Bound::ALL.map(|b| (s, Bounds::Single(b)))),
            _ => {
                for outer in Bound::ALL {
                    for inner in Bound::ALL {
                        out.push((s, Bounds::Double { outer, inner }));
                    }
                }
            }
        }
    }
    out
}

/// One generated program of the study.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// `<kernel>/<stem>`, unique in the study.
    pub name: String,
    pub kernel: &'static str,
    pub structure: Structure,
    pub bounds: Bounds,
    /// The kernel (`true`) or its unsafe twin.
    pub safe: bool,
    /// The whole C file.
    pub c_source: String,
    /// SV-COMP's expected verdict for `unreach-call`: `true` when `reach_error` is unreachable.
    pub expected_verdict: bool,
}

impl Scenario {
    /// The file name without extension: `<structure>_<bounds>[_unsafe]`, `baseline[_unsafe]`.
    pub fn stem(&self) -> String {
        stem(self.structure, self.bounds, self.safe)
    }
}

fn stem(structure: Structure, bounds: Bounds, safe: bool) -> String {
    let mut s = structure.id().to_string();
    if bounds != Bounds::None {
        s.push('_');
        s.push_str(&bounds.id());
    }
    if !safe {
        s.push_str("_unsafe");
    }
    s
}

/// A structure combined with bounds for a different number of loops.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("structure {structure} has {} synthetic loop(s) but the bounds are for {given}", structure.loops())]
pub struct ShapeError {
    pub structure: Structure,
    pub given: usize,
}

/// The scenario that wraps `kernel` (or its unsafe twin) in `structure` with `bounds`.
pub fn generate(
    kernel: &Kernel,
    structure: Structure,
    bounds: Bounds,
    safe: bool,
) -> Result<Scenario, ShapeError> {
    if structure.loops() != bounds.arity() {
        return Err(ShapeError {
            structure,
            given: bounds.arity(),
        });
    }
    let fact = kernel.fact_for(safe);
    let assertion = format!("__VERIFIER_assert({});", kernel.assertion_for(safe));
    let (outer, inner) = match bounds {
        Bounds::None => (None, None),
        Bounds::Single(b) => (Some(b), None),
        Bounds::Double { outer, inner } => (Some(outer), Some(inner)),
    };

    let mut c = Code::default();
    header(&mut c, kernel, structure, bounds, safe);
    c.line("int main(void) {");
    c.indent += 1;
    c.lines(kernel.decls);
    if outer.is_some_and(|b| b != Bound::Arbitrary) {
        c.line(&format!("int {OUTER_COUNTER};"));
    }
    if inner.is_some_and(|b| b != Bound::Arbitrary) {
        c.line(&format!("int {INNER_COUNTER};"));
    }
    match structure {
        Structure::Baseline => {
            c.lines(fact);
            c.line(&assertion);
        }
        Structure::Single1 => {
            c.open_loop(outer, OUTER_COUNTER);
            c.lines(fact);
            c.line(&assertion);
            c.close();
        }
        Structure::Single2 => {
            c.lines(fact);
            c.open_loop(outer, OUTER_COUNTER);
            c.line(&assertion);
            c.close();
        }
        Structure::Double1 => {
            c.open_loop(outer, OUTER_COUNTER);
            c.open_loop(inner, INNER_COUNTER);
            c.lines(fact);
            c.line(&assertion);
            c.close();
            c.close();
        }
        Structure::Double2 => {
            c.open_loop(outer, OUTER_COUNTER);
            c.lines(fact);
            c.open_loop(inner, INNER_COUNTER);
            c.line(&assertion);
            c.close();
            c.close();
        }
        Structure::Double3 => {
            c.lines(fact);
            c.open_loop(outer, OUTER_COUNTER);
            c.open_loop(inner, INNER_COUNTER);
            c.line(&assertion);
            c.close();
            c.close();
        }
    }
    c.line("return 0;");
    c.indent -= 1;
    c.line("}");

    let scenario_stem = stem(structure, bounds, safe);
    Ok(Scenario {
        name: format!("{}/{scenario_stem}", kernel.name),
        kernel: kernel.name,
        structure,
        bounds,
        safe,
        c_source: c.text,
        expected_verdict: safe,
    })
}

/// All 34 scenarios of `kernel` (or of its unsafe twin), in [`shapes`] order.
pub fn scenarios(kernel: &Kernel, safe: bool) -> Vec<Scenario> {
    shapes()
        .into_iter()
        .map(|(s, b)| {
            generate(kernel, s, b, safe)
                .expect("shapes() pairs every structure with bounds of its arity")
        })
        .collect()
}

/// The SV-COMP prelude every scenario starts with (after its comment).
const PRELUDE: &str = r#"extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "gen.c", 1, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern void __VERIFIER_assume(int);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
"#;

fn header(c: &mut Code, kernel: &Kernel, structure: Structure, bounds: Bounds, safe: bool) {
    let bounds_text = match bounds {
        Bounds::None => "none".to_string(),
        Bounds::Single(b) => b.describe(),
        Bounds::Double { outer, inner } => {
            format!("outer {}, inner {}", outer.describe(), inner.describe())
        }
    };
    let twin = if safe { "" } else { ", unsafe twin" };
    let _ = writeln!(
        c.text,
        "/* qicc-study: kernel {}{twin}: {}",
        kernel.name, kernel.about
    );
    let _ = writeln!(
        c.text,
        " * structure {}: {}",
        structure.title(),
        structure.describe()
    );
    let _ = writeln!(c.text, " * loop bounds: {bounds_text}");
    let _ = writeln!(
        c.text,
        " * expected verdict: {} */",
        if safe { "true" } else { "false" }
    );
    c.text.push_str(PRELUDE);
    c.text.push('\n');
    if !kernel.preamble.is_empty() {
        c.lines(kernel.preamble);
        c.text.push('\n');
    }
}

/// Indented C text.
#[derive(Default)]
struct Code {
    text: String,
    indent: usize,
}

impl Code {
    fn line(&mut self, l: &str) {
        for _ in 0..self.indent {
            self.text.push_str("  ");
        }
        self.text.push_str(l);
        self.text.push('\n');
    }

    fn lines(&mut self, ls: &[&str]) {
        for l in ls {
            self.line(l);
        }
    }

    /// Opens a synthetic loop; `bound` is `Some` whenever the structure has this loop.
    fn open_loop(&mut self, bound: Option<Bound>, counter: &str) {
        let head = match bound.and_then(Bound::iterations) {
            Some(n) => format!("for ({counter} = 0; {counter} < {n}; {counter}++) {{"),
            None => format!("{ARBITRARY_LOOP_HEAD} {{"),
        };
        self.line(&head);
        self.indent += 1;
    }

    fn close(&mut self) {
        self.indent -= 1;
        self.line("}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kernels;

    #[test]
    fn thirty_four_shapes_as_in_the_paper() {
        let s = shapes();
        assert_eq!(s.len(), 34);
        let count = |st: Structure| s.iter().filter(|(x, _)| *x == st).count();
        assert_eq!(count(Structure::Baseline), 1);
        assert_eq!(count(Structure::Single1) + count(Structure::Single2), 6);
        assert_eq!(
            count(Structure::Double1) + count(Structure::Double2) + count(Structure::Double3),
            27
        );
        let mut stems: Vec<String> = s.iter().map(|(st, b)| stem(*st, *b, true)).collect();
        stems.sort();
        stems.dedup();
        assert_eq!(stems.len(), 34);
    }

    #[test]
    fn mismatched_bounds_are_an_error() {
        let k = &kernels::all()[0];
        let e = generate(k, Structure::Double1, Bounds::Single(Bound::Small), true).unwrap_err();
        assert_eq!(
            e.to_string(),
            "structure Double 1 has 2 synthetic loop(s) but the bounds are for 1"
        );
        assert!(generate(k, Structure::Baseline, Bounds::Single(Bound::Small), true).is_err());
        assert!(generate(k, Structure::Single2, Bounds::None, false).is_err());
    }

    #[test]
    fn every_table_row_is_some_shape_and_back() {
        let rows = Bounds::table_rows();
        assert_eq!(rows.len(), 10);
        for (_, b) in shapes() {
            assert!(rows.contains(&b.row()), "{b:?}");
        }
        let labels: Vec<String> = rows.iter().map(|r| r.row_label()).collect();
        assert_eq!(
            labels,
            [
                "none",
                "small",
                "large",
                "arbitrary",
                "small/large",
                "small/arbitrary",
                "large/small",
                "large/arbitrary",
                "arbitrary/small",
                "arbitrary/large"
            ]
        );
    }

    #[test]
    fn structure_names_parse() {
        for s in Structure::ALL {
            assert_eq!(Structure::parse(s.id()), Some(s));
            assert_eq!(Structure::parse(s.title()), Some(s));
        }
        assert_eq!(Structure::parse("Double-2"), Some(Structure::Double2));
        assert_eq!(Structure::parse("triple"), None);
    }

    /// The fact and the assertion sit where Fig. 7 puts them: counted by the loop depth of the
    /// line that holds them.
    #[test]
    fn fact_and_assertion_at_the_figure_depths() {
        let k = kernels::find("double_sum").unwrap();
        let depth_of = |src: &str, needle: &str| -> usize {
            let mut depth = 0usize;
            for l in src.lines().skip_while(|l| !l.starts_with("int main")) {
                if l.contains(needle) {
                    return depth;
                }
                if l.trim_start().starts_with("for (") || l.trim_start().starts_with("while (") {
                    depth += 1;
                }
                if l.trim() == "}" {
                    depth -= 1;
                }
            }
            panic!("{needle} not found");
        };
        let expect = [
            (Structure::Baseline, 0, 0),
            (Structure::Single1, 1, 1),
            (Structure::Single2, 0, 1),
            (Structure::Double1, 2, 2),
            (Structure::Double2, 1, 2),
            (Structure::Double3, 0, 2),
        ];
        for (st, fact_depth, assert_depth) in expect {
            let bounds = match st.loops() {
                0 => Bounds::None,
                1 => Bounds::Single(Bound::Large),
                _ => Bounds::Double {
                    outer: Bound::Arbitrary,
                    inner: Bound::Small,
                },
            };
            let sc = generate(k, st, bounds, true).unwrap();
            assert_eq!(depth_of(&sc.c_source, "y = x * 2;"), fact_depth, "{st}");
            assert_eq!(
                depth_of(&sc.c_source, "__VERIFIER_assert(y"),
                assert_depth,
                "{st}"
            );
        }
    }

    #[test]
    fn counters_are_declared_only_when_used() {
        let k = kernels::find("divmod").unwrap();
        let sc = generate(
            k,
            Structure::Double2,
            Bounds::Double {
                outer: Bound::Arbitrary,
                inner: Bound::Large,
            },
            false,
        )
        .unwrap();
        assert!(!sc.c_source.contains("int qs_i;"));
        assert!(sc.c_source.contains("int qs_j;"));
        assert_eq!(sc.c_source.matches(ARBITRARY_LOOP_HEAD).count(), 1);
        assert_eq!(sc.name, "divmod/double2_arbitrary_large_unsafe");
        assert!(!sc.expected_verdict);
    }
}
