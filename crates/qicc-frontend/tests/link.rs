//! Programs of several translation units, linked as C links them, against gcc: each program
//! is lowered with `lower_files`, run by the interpreter, and compiled from the same files
//! with gcc; `main`'s results must agree. And the link errors a C linker gives.

mod common;

use qicc_frontend::{lower_files, DiagKind, Options};
use qicc_interp::{Interpreter, Outcome, RandomOracle, RunConfig};
use std::path::PathBuf;
use std::process::Command;

/// Writes the files of one program into a fresh directory.
fn write(tag: &str, files: &[(&str, &str)]) -> Vec<PathBuf> {
    let dir = common::scratch_dir(tag);
    files
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).expect("scratch files are writable");
            p
        })
        .collect()
}

/// `main`'s result under the interpreter and under gcc (both files compiled and linked).
fn both(tag: &str, files: &[(&str, &str)]) -> (u64, i32) {
    let paths = write(tag, files);
    let lowered = lower_files(&paths, &Options::default())
        .unwrap_or_else(|d| panic!("{tag}: the program lowers: {d}"));
    let interp = Interpreter::new(&lowered.program).expect("the interpreter takes the program");
    let run = interp.run(&mut RandomOracle::new(1), &RunConfig::default());
    let ir = match run.outcome {
        Outcome::Returned { value } => value.unwrap_or(0),
        other => panic!("{tag}: main does not return: {other:?}"),
    };
    let exe = paths[0].with_extension("exe");
    let out = Command::new("gcc")
        // Tentative definitions in two units merge (qicc's rule, and gcc's before 10).
        .args(["-w", "-fcommon", "-o"])
        .arg(&exe)
        .args(&paths)
        .output()
        .expect("gcc runs");
    assert!(
        out.status.success(),
        "{tag}: gcc: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let code = Command::new(&exe)
        .status()
        .expect("the program runs")
        .code();
    (ir & 0xff, code.expect("the program exits"))
}

fn agree(tag: &str, files: &[(&str, &str)], expected: i32) {
    let (ir, native) = both(tag, files);
    assert_eq!(native, expected, "{tag}: gcc's result");
    assert_eq!(ir as i32, native, "{tag}: qicc's and gcc's results");
}

#[test]
fn static_names_stay_per_unit_and_externals_are_shared() {
    let a = "static int count = 1;\nstatic int bump(void) { return count += 10; }\n\
             int total;\nint lib(void);\nint get_count(void);\n\
             int main(void) { bump(); lib(); lib(); return count + total * 3 + get_count() * 7; }";
    let b =
        "static int count = 100;\nstatic int bump(void) { static int calls; return ++calls; }\n\
             int total;\nint get_count(void) { return count / 100; }\n\
             int lib(void) { count++; total += bump(); return total; }";
    // count 11 in a; b's count 102, get_count 1; total 1 + 2 = 3.
    agree("statics", &[("a.c", a), ("b.c", b)], 11 + 9 + 7);
}

#[test]
fn records_pass_between_units_by_value_and_by_pointer() {
    let h = "struct pt { int x; short y; };\n";
    let a = format!(
        "{h}struct pt mk(int x, int y);\nint norm(const struct pt *p);\nextern struct pt origin;\n\
         int main(void) {{ struct pt p = mk(3, 4); struct pt q = origin; q = p;\n\
         return norm(&q) + origin.x; }}"
    );
    let b = format!(
        "{h}struct pt origin = {{ 1, 2 }};\n\
         struct pt mk(int x, int y) {{ struct pt p = {{ x, (short)y }}; return p; }}\n\
         int norm(const struct pt *p) {{ return p->x * p->x + p->y * p->y; }}"
    );
    agree("records", &[("a.c", &a), ("b.c", &b)], 26);
}

#[test]
fn function_pointers_cross_units() {
    let a = "typedef int (*op)(int);\nop pick(int k);\nint run(op f, int x);\n\
             static int neg(int x) { return -x; }\n\
             int main(void) { return run(pick(0), 5) + run(pick(1), 5) + run(neg, -3) + (pick(1) == neg); }";
    let b = "typedef int (*op)(int);\nstatic int twice(int x) { return 2 * x; }\n\
             static int neg(int x) { return 100 - x; }\n\
             op pick(int k) { return k ? neg : twice; }\nint run(op f, int x) { return f(x); }";
    agree("fnptr", &[("a.c", a), ("b.c", b)], 10 + 95 + 3);
}

#[test]
fn arrays_of_unknown_size_and_block_scope_externs() {
    let a = "extern int table[];\nint size(void);\n\
             int main(void) { extern int scale; int s = 0; for (int i = 0; i < size(); i++) s += table[i];\n\
             return s * scale; }";
    let b = "int table[] = { 1, 2, 3, 4 };\nint scale = 2;\n\
             int size(void) { return sizeof table / sizeof table[0]; }";
    agree("arrays", &[("a.c", a), ("b.c", b)], 20);
}

#[test]
fn two_definitions_are_an_error_naming_both() {
    let paths = write(
        "dup",
        &[
            (
                "a.c",
                "int f(void) { return 1; }\nint main(void) { return f(); }",
            ),
            ("b.c", "\nint f(void) { return 2; }"),
        ],
    );
    let d = lower_files(&paths, &Options::default()).expect_err("two definitions of f");
    assert_eq!(d.kind, DiagKind::Type, "{d}");
    assert!(d.file.ends_with("b.c") && d.line == 2, "{d}");
    assert!(
        d.message.contains("multiple definition of 'f'") && d.message.contains("a.c:1:5"),
        "{d}"
    );
    let paths = write(
        "dupvar",
        &[
            ("a.c", "int x = 1;\nint main(void) { return x; }"),
            ("b.c", "int x = 2;"),
        ],
    );
    let d = lower_files(&paths, &Options::default()).expect_err("two initialisers of x");
    assert!(d.message.contains("multiple definition of 'x'"), "{d}");
}

#[test]
fn a_missing_main_is_an_error() {
    let paths = write(
        "nomain",
        &[("a.c", "int f(void) { return 1; }"), ("b.c", "int g;")],
    );
    let d = lower_files(&paths, &Options::default()).expect_err("no main");
    assert!(d.message.contains("no function 'main'"), "{d}");
}
