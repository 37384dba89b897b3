//! Bad input gives the right kind of diagnostic, at a plausible position, on one line.

use qicc_frontend::{lower_file, lower_source, DiagKind, Diagnostic, Options};
use std::path::Path;

fn lower(text: &str) -> Result<qicc_frontend::Lowered, Diagnostic> {
    lower_source("t.c", text, false, &Options::default())
}

fn err(text: &str) -> Diagnostic {
    match lower(text) {
        Ok(_) => panic!("expected an error for:\n{text}"),
        Err(d) => {
            assert!(!d.to_string().contains('\n'), "one line: {d}");
            d
        }
    }
}

#[test]
fn truncated_file_is_a_syntax_error_at_its_end() {
    let d = err("int main(void) {\n  int x = 1;\n  if (x) {\n    x = 2;\n");
    assert_eq!(d.kind, DiagKind::Syntax, "{d}");
    assert_eq!(d.file, "t.c");
    assert!(d.line >= 4, "{d}");
    assert!(d.to_string().starts_with("t.c:"), "{d}");
}

#[test]
fn syntax_error_points_at_the_bad_token() {
    let d = err("int main(void) {\n  int x = ;\n  return x;\n}\n");
    assert_eq!(d.kind, DiagKind::Syntax, "{d}");
    assert_eq!((d.line, d.col), (2, 11), "{d}");
    assert!(
        d.to_string().starts_with("t.c:2:11: error: syntax error"),
        "{d}"
    );
}

#[test]
fn missing_member_is_a_type_error() {
    let d = err(
        "struct s { int a; };\nint main(void) {\n  struct s v;\n  v.a = 1;\n  return v.b;\n}\n",
    );
    assert_eq!(d.kind, DiagKind::Type, "{d}");
    assert_eq!((d.line, d.col), (5, 12), "{d}");
    assert!(d.message.contains("no member named 'b'"), "{d}");
}

#[test]
fn struct_assigned_to_int_is_a_type_error() {
    let d = err("struct s { int a; };\nint main(void) {\n  struct s v = {1};\n  int x;\n  x = v;\n  return x;\n}\n");
    assert_eq!(d.kind, DiagKind::Type, "{d}");
    assert_eq!(d.line, 5, "{d}");
    assert!(d.message.contains("cannot convert"), "{d}");
}

#[test]
fn calls_of_what_is_not_a_function_are_type_errors() {
    let cases: &[(&str, (u32, u32), &str)] = &[
        ("int main(void) {\n  int x = 3;\n  return x(1);\n}\n", (3, 10), "called object type 'int' is not a function"),
        ("int f(int x) { return x; }\nint main(void) {\n  int (*p)(int) = f;\n  return p(1, 2);\n}\n", (4, 10), "2 arguments for 1 parameters"),
        ("int f(int x) { return x; }\nint main(void) {\n  int (*p)(int) = f;\n  return p[0](1);\n}\n", (4, 11), "subscript of a pointer to a function"),
    ];
    for (src, pos, what) in cases {
        let d = err(src);
        assert_eq!(d.kind, DiagKind::Type, "{d}\n{src}");
        assert_eq!((d.line, d.col), *pos, "{d}\n{src}");
        assert!(d.message.contains(what), "{d}");
    }
}

#[test]
fn undeclared_identifier_is_a_type_error() {
    let d = err("int main(void) {\n  return y + 1;\n}\n");
    assert_eq!(d.kind, DiagKind::Type, "{d}");
    assert_eq!((d.line, d.col), (2, 10), "{d}");
}

#[test]
fn missing_file_is_an_io_error() {
    let d = lower_file(Path::new("/nonexistent/dir/x.c"), &Options::default()).unwrap_err();
    assert_eq!(d.kind, DiagKind::Io);
    let s = d.to_string();
    assert!(
        s.starts_with("/nonexistent/dir/x.c:1:1: error: cannot read file: "),
        "{s}"
    );
}

#[test]
fn binary_garbage_is_a_syntax_error_at_the_first_bad_byte() {
    let dir = std::env::temp_dir().join(format!("qicc-frontend-garbage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("bin.c");
    std::fs::write(&p, b"int x;\nint y\x00\x01\x02;\n").unwrap();
    let d = lower_file(&p, &Options::default()).unwrap_err();
    assert_eq!(d.kind, DiagKind::Syntax, "{d}");
    assert_eq!((d.line, d.col), (2, 6), "{d}");
    let q = dir.join("utf.i");
    std::fs::write(&q, b"int main(void) { return 0; }\n\xff\xfe\n").unwrap();
    let d = lower_file(&q, &Options::default()).unwrap_err();
    assert_eq!(d.kind, DiagKind::Syntax, "{d}");
    assert_eq!((d.line, d.col), (2, 1), "{d}");
    let _ = std::fs::remove_dir_all(&dir);
    let d = lower_source("s.i", "int\0 main;", true, &Options::default()).unwrap_err();
    assert_eq!((d.kind, d.line, d.col), (DiagKind::Syntax, 1, 4), "{d}");
}

#[test]
fn preprocessor_errors_are_located() {
    let d = err("int a;\n#include \"no_such_header_here.h\"\nint main(void) { return 0; }\n");
    assert_eq!(d.kind, DiagKind::Preprocess, "{d}");
    assert_eq!((d.file.as_str(), d.line), ("t.c", 2), "{d}");
    let d = err("#error stop here\n");
    assert_eq!((d.kind, d.line, d.col), (DiagKind::Preprocess, 1, 2), "{d}");
}

#[test]
fn no_main_is_an_error() {
    let d = err("int f(void) { return 1; }\n");
    assert_eq!(d.kind, DiagKind::Type, "{d}");
    assert!(d.message.contains("main"), "{d}");
}

#[test]
fn unsupported_constructs_are_located_and_named() {
    let cases: &[(&str, (u32, u32), &str)] = &[
        ("int main(void) {\n  long double d = 1.5L;\n  return 0;\n}\n", (2, 15), "long double"),
        ("double sin(double);\nint main(void) {\n  double x = sin(1.0);\n  return 0;\n}\n", (3, 14), "library function sin"),
        ("int fesetround(int);\nint main(void) {\n  fesetround(0);\n  return 0;\n}\n", (3, 3), "library function fesetround"),
        ("int main(void) {\n  const char *s = \"1\";\n  double x = __builtin_nan(s);\n  return x == x;\n}\n", (3, 14), "of a string that is not a literal"),
        ("int g(int);\nint f(int x) { return x; }\nint main(void) {\n  int (*p)(int) = f;\n  if (__VERIFIER_nondet_int()) p = g;\n  return p(1);\n}\n", (6, 10), "call through a function pointer that may point to body-less function 'g'"),
        ("int n = 3;\nint a[n];\nint main(void) {\n  return a[0];\n}\n", (2, 7), "variable-length arrays outside a function"),
        ("struct __attribute__((packed)) s { char c : 3; unsigned long long x : 64; };\nint main(void) {\n  struct s v;\n  return 0;\n}\n", (1, 1), "a bit-field whose bytes span more than 8"),
        ("struct w { unsigned long long x : 40; };\nint main(void) {\n  struct w v;\n  v.x = 1;\n  return 0;\n}\n", (1, 35), "a bit-field of type 'unsigned long long' narrower than its type"),
        ("int main(void) {\n  __asm__(\"nop\");\n  return 0;\n}\n", (2, 3), "inline assembly"),
        ("typedef int v4 __attribute__((vector_size(16)));\nint main(void) {\n  v4 a;\n  return 0;\n}\n", (1, 31), "vector types"),
        ("__attribute__((constructor)) void init(void) { }\nint main(void) { return 0; }\n", (1, 1), "constructor"),
        ("void f(int *p) { }\nint main(void) {\n  int x __attribute__((cleanup(f))) = 1;\n  return x;\n}\n", (3, 7), "cleanup"),
    ];
    for (src, pos, what) in cases {
        let d = err(src);
        assert_eq!(d.kind, DiagKind::Unsupported, "{d}\n{src}");
        assert_eq!((d.line, d.col), *pos, "{d}\n{src}");
        assert!(d.message.contains(what), "{d}");
        assert!(
            d.to_string()
                .starts_with(&format!("t.c:{}:{}: unsupported: ", pos.0, pos.1)),
            "{d}"
        );
    }
}

#[test]
fn unsupported_constructs_in_unreachable_functions_do_not_matter() {
    let src = "long double half(long double x) { return x / 2; }\nstruct b { int f : 2; };\nint unused(struct b *p) { return p->f; }\nint main(void) { return 0; }\n";
    let l = lower(src).expect("lowers");
    assert_eq!(l.program.functions.len(), 1);
}

#[test]
fn gnu_syntax_the_parser_lacks_is_unsupported_not_a_syntax_error() {
    // gcc accepts these; lang-c cannot parse them.
    let d = err("int main(void) {\n  void *p = &&l;\n  goto *p;\nl:\n  return 0;\n}\n");
    assert_eq!(d.kind, DiagKind::Unsupported, "{d}");
    assert_eq!(d.line, 2, "{d}");
    assert!(d.message.contains("computed goto"), "{d}");
    let opts = Options::default();
    let d = lower_source(
        "t.c",
        "int main(void) {\n  __int128 x = 1;\n  return 0;\n}\n",
        false,
        &opts,
    )
    .unwrap_err();
    assert_eq!((d.kind, d.line), (DiagKind::Unsupported, 2), "{d}");
    assert!(d.message.starts_with("128-bit types"), "{d}");
}

#[test]
fn setjmp_and_threads_are_unsupported() {
    let d = err("#include <setjmp.h>\njmp_buf b;\nint main(void) {\n  if (setjmp(b)) return 1;\n  return 0;\n}\n");
    assert_eq!((d.kind, d.line), (DiagKind::Unsupported, 4), "{d}");
    assert!(d.message.contains("setjmp"), "{d}");
    let d = err("int pthread_create(void *, void *, void *, void *);\nint main(void) {\n  return pthread_create(0, 0, 0, 0);\n}\n");
    assert_eq!((d.kind, d.line), (DiagKind::Unsupported, 3), "{d}");
}
