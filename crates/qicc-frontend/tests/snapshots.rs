//! Snapshots of the printed IR of small C programs, at least one per construct the front-end
//! lowers. Each snapshot was reviewed by reading it: it encodes C's semantics as the comment
//! above the test says.

use qicc_frontend::{lower_source, Options};
use qicc_ir::DataModel;

fn ir_with(src: &str, preprocessed: bool, opts: &Options) -> String {
    match lower_source("t.c", src, preprocessed, opts) {
        Ok(l) => {
            let mut s = String::new();
            for w in &l.warnings {
                s.push_str(&format!("; {w}\n"));
            }
            s.push_str(&qicc_ir::print_program(&l.program));
            s
        }
        Err(d) => format!("ERROR {d}"),
    }
}

fn ir(src: &str) -> String {
    ir_with(
        src,
        true,
        &Options {
            data_model: DataModel::Ilp32,
            ..Default::default()
        },
    )
}

fn ir_cpp(src: &str) -> String {
    ir_with(
        src,
        false,
        &Options {
            data_model: DataModel::Ilp32,
            ..Default::default()
        },
    )
}

macro_rules! snap {
    ($name:ident, $src:expr) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(stringify!($name), ir($src));
        }
    };
}

// Integer conversions: char is signed (sext), unsigned char zero-extends, narrowing
// truncates, `_Bool` is `!= 0`, int + unsigned is unsigned (udiv, ult), constants get their
// type by value (0x80000000 is unsigned int, 2147483648 is long long on ILP32).
snap!(
    types_conversions,
    r#"
int main(void) {
  char c = -1;
  unsigned char uc = 200;
  short s = 70000;
  int i = c + uc;
  unsigned int u = i;
  _Bool b = 256;
  long long ll = c;
  unsigned long long ull = uc;
  int cmp = i < u;
  unsigned int q = u / 3;
  int big = 0x80000000 > 0;
  long long big2 = 2147483648;
  int chr = 'A' + '\xff';
  s = (short)(i * 1000);
  return (int)ll + b + cmp + q + big + chr + s + (int)ull;
}
"#
);

// `c += 1` computes in int then truncates; post-increment yields the old value; pre the new.
snap!(
    compound_assignment_and_increments,
    r#"
int main(void) {
  char c = 127;
  c += 1;
  unsigned short us = 0;
  us--;
  int i = 5;
  int a = i++;
  int b = --i;
  int *p = 0;
  p++;
  _Bool t = 0;
  t++;
  return c + us + a + b + t;
}
"#
);

// Statements: if/else, while, do/while, for with a declaration, break and continue.
snap!(
    loops_and_branches,
    r#"
int main(void) {
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (i == 3) continue;
    if (i == 8) break;
    s += i;
  }
  int k = 0;
  while (k < s) k += 2;
  do { k--; } while (k > 100);
  if (s) s = 1; else s = 2;
  return s + k;
}
"#
);

// switch: dispatch edges from one location (mutually exclusive guards), fall-through from
// case 1 into case 2, a GNU case range, default in the middle, break to the end.
snap!(
    switch_fallthrough,
    r#"
int main(void) {
  int x = 3, r = 0;
  switch (x) {
  case 1: r = 1;
  case 2: r += 2; break;
  default: r = 9;
  case 5 ... 7: r = 5; break;
  }
  return r;
}
"#
);

// goto and labels, forward and backward.
snap!(
    goto_labels,
    r#"
int main(void) {
  int n = 0;
again:
  n++;
  if (n < 5) goto again;
  goto done;
  n = 100;
done:
  return n;
}
"#
);

// && and || short-circuit: in conditions as branches; as values with side effects through
// control flow into a temporary; without side effects as one expression. ?: likewise.
snap!(
    short_circuit_and_conditional,
    r#"
int f(int x);
int g;
int main(void) {
  int a = 1, b = 0, c;
  if (a && (b || g)) c = 1; else c = 2;
  int v = a && f(b);
  int w = a || b;
  int y = a ? f(1) : 7;
  int z = a ? b : c;
  int m = (a = 2, b = 3, a + b);
  return v + w + y + z + m + c;
}
"#
);

// An operand C may skip is not read when it loads from memory (`p && *p`): control flow,
// even without side effects.
snap!(
    short_circuit_memory_reads,
    r#"
int main(void) {
  int x = 3;
  int *p = &x;
  int ok = p && *p > 0;
  int v = ok ? *p : 1;
  return ok + v;
}
"#
);

// Calls with argument conversion (char argument to an int parameter sign-extends, an int
// to a char parameter truncates), recursion, an unprototyped (K&R) definition.
snap!(
    calls_and_recursion,
    r#"
int fact(int n) { if (n <= 1) return 1; return n * fact(n - 1); }
char narrow(char c) { return c; }
int old(a, b) int a; char b; { return a + b; }
int main(void) {
  char c = -2;
  return fact(c) + narrow(300) + old(1, 2);
}
"#
);

// Intrinsics: nondet havocs with the declared return type (undeclared: int; _Bool: an i8
// compared with 0), assume, reach_error and __VERIFIER_error assertions, exit and abort halt.
snap!(
    verifier_intrinsics,
    r#"
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void *__VERIFIER_nondet_pointer(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void exit(int);
void reach_error() { }
int main(void) {
  char c = __VERIFIER_nondet_char();
  _Bool b = __VERIFIER_nondet_bool();
  unsigned long ul = __VERIFIER_nondet_ulong();
  void *p = __VERIFIER_nondet_pointer();
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(c > 0 && i < 10);
  if (b) reach_error();
  if (ul == 3) __VERIFIER_error();
  if (p == 0) abort();
  if (i == 4) exit(i + 1);
  return 0;
}
"#
);

// __VERIFIER_assert with the standard body: an inline assertion at each call (the argument
// converted to the parameter type first), the definition is not lowered.
snap!(
    verifier_assert_standard,
    r#"
extern void abort(void);
void reach_error() { }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
int main(void) {
  long long x = 0x100000000LL;
  __VERIFIER_assert(x);
  __VERIFIER_assert(x != 0);
  return 0;
}
"#
);

// __VERIFIER_assert declared without a body: inline too.
snap!(
    verifier_assert_declared,
    r#"
void __VERIFIER_assert(int);
int main(void) {
  int a = 1;
  __VERIFIER_assert(a == 1 && a > 0);
  return 0;
}
"#
);

// __VERIFIER_assert with a non-standard body: an ordinary function.
snap!(
    verifier_assert_ordinary,
    r#"
void reach_error();
int calls;
void __VERIFIER_assert(int cond) { calls++; if (!cond) reach_error(); }
int main(void) {
  __VERIFIER_assert(calls == 0);
  return calls;
}
"#
);

// Heap and memory intrinsics: malloc with the size check, calloc zeroes, free skips null and
// checks the start of a live object, memset/memcpy check both ends of the destination,
// alloca is freed at exit when it was executed.
snap!(
    memory_intrinsics,
    r#"
typedef unsigned int size_t;
void *malloc(size_t);
void *calloc(size_t, size_t);
void free(void *);
void *memset(void *, int, size_t);
void *memcpy(void *, const void *, size_t);
int main(void) {
  int *p = malloc(4 * sizeof(int));
  int *q = calloc(2, 4);
  memset(p, 0, 16);
  memcpy(q, p, 8);
  char *s = __builtin_alloca(8);
  s[0] = 1;
  free(p);
  free(q);
  return 0;
}
"#
);

// A function without a body: its result is arbitrary (with one warning), its arguments are
// still evaluated, and the call goes to its stub `extern.NAME`, which makes every global and
// all memory contents arbitrary; a function declared `pure` (or `const`) keeps memory. (`printf`
// is an output-only library function: like a `pure` one; a library function with a result or
// effect qicc does not model, such as `rand`, is rejected: `clib.rs`.)
snap!(
    extern_functions,
    r#"
int printf(const char *, ...);
int sensor(void);
void log_it(int);
int checksum(const int *p) __attribute__((pure));
int main(void) {
  int k = 0;
  printf("%d\n", k++);
  int r = sensor() + sensor();
  log_it(r);
  r += checksum(&k);
  return k + r;
}
"#
);

// The C library's models: a call of `strlen` (declared by the program, defined nowhere) is a
// call of its model `__qicc_strlen`, lowered from `clib_models.c` like the program's own
// functions (its loop, its reads); `abs` likewise. Only the models called are lowered.
snap!(
    library_models,
    r#"
unsigned long strlen(const char *);
int abs(int);
int main(void) {
  char s[4] = "ab";
  return (int)strlen(s) + abs(-3);
}
"#
);

// Pointers and arrays: address-of, dereference, arithmetic scaled by the element size,
// difference divided by it, unsigned comparisons, 2-D arrays, decay.
snap!(
    pointers_and_arrays,
    r#"
int main(void) {
  int a[4][3];
  int x = 5;
  int *p = &x;
  *p = 6;
  int *q = &a[1][2];
  int *r = q + 2;
  long d = r - q;
  int lt = p < q;
  a[2][0] = *p;
  int (*row)[3] = a;
  row++;
  char *cp = (char *)q;
  cp += 1;
  return (int)d + lt + (*row)[1] + *cp;
}
"#
);

// Structs and unions: member offsets with alignment, nested members, struct assignment as
// memcpy, struct parameters (a copy in the caller) and results (through a hidden pointer),
// unions overlapping at offset 0, sizeof.
snap!(
    structs_and_unions,
    r#"
struct in { char c; int i; };
struct out { short s; struct in in; long long ll; };
union u { int i; char c[4]; };
struct in mk(int v) { struct in r; r.c = 1; r.i = v; return r; }
int get(struct in v) { return v.i; }
int main(void) {
  struct out o;
  o.in.i = 3;
  o.ll = 4;
  struct in copy = o.in;
  struct in *pi = &copy;
  pi->c = 2;
  union u un;
  un.i = 0x41424344;
  struct in made = mk(7);
  return get(copy) + un.c[1] + sizeof(struct out) + made.i;
}
"#
);

// Globals: a scalar never address-taken is an IR global (0 when not initialised), an
// address-taken one and an array are static objects, an extern never defined has no initial
// value, a static local is `main.count`, a pointer global holds an object's address.
snap!(
    globals_and_statics,
    r#"
int plain;
int inited = 42;
int taken = 7;
int arr[3] = {1, 2};
extern int outside;
int *ptr = &arr[1];
int unused_global = 5;
int main(void) {
  static int count = 1;
  int *t = &taken;
  count++;
  plain = inited + *t + arr[2] + outside + *ptr;
  return plain + count;
}
"#
);

// String literals are readonly objects `str.N`; a char array initialised from a string is a
// zeroed copy; a global char array holds the bytes.
snap!(
    strings,
    r#"
char greeting[8] = "hi";
int main(void) {
  const char *s = "abc";
  char buf[] = "xy\n";
  char tight[2] = "ab";
  return s[1] + buf[2] + greeting[1] + sizeof buf + tight[1];
}
"#
);

// Initialisers of locals: the object is zeroed, then each given element stored (designators,
// nested braces, brace elision); compound literals are stack objects initialised where they
// are evaluated.
snap!(
    local_initializers,
    r#"
struct p { int x, y; };
int main(void) {
  int a[5] = {1, [3] = 4, 5};
  struct p ps[2] = {{1, 2}, {.y = 7}};
  int m[2][2] = {1, 2, 3};
  struct p *cp = &(struct p){.x = 9};
  int s = {3};
  return a[4] + ps[1].y + m[1][0] + cp->x + s;
}
"#
);

// Static initialisers: InitItems over a zeroed object (designators, nested, strings, an
// address constant).
snap!(
    static_initializers,
    r#"
struct p { int x; char name[4]; int *ref; };
int target;
struct p table[3] = {{1, "ab", &target}, [2] = {.x = 3, .name = "z"}};
int main(void) {
  return table[2].x + table[0].name[1];
}
"#
);

// Function pointers: each function used as a value is a one-byte readonly object `fn.NAME`
// (the global `p` holds `@fn.inc`, the table stores `@fn.inc`, `@fn.dbl`); a call through a
// pointer reads it once, checks it is one of the candidates of its type (`invalid-call`:
// `inc`, `dbl`; not `neg`, whose type differs), converts the argument (char to int) once,
// and calls the candidate it equals, the last without a test, all into one result
// temporary. `(*inc)(1)` is a direct call; a null test is a pointer compare with 0.
snap!(
    function_pointers,
    r#"
int inc(int x) { return x + 1; }
int dbl(int x) { return 2 * x; }
long neg(long x) { return -x; }
int (*p)(int) = inc;
int main(void) {
  int (*tbl[2])(int) = {inc, dbl};
  long (*n)(long) = neg;
  char c = 3;
  int r = tbl[c & 1](c);
  if (p != 0)
    r += p(2);
  return r + (*inc)(1) + (int)n(1);
}
"#
);

// UB checks: signed division (zero and INT_MIN / -1), unsigned division (zero only), a
// constant divisor needs no check, shifts (amount below the promoted width), stores through
// pointers (valid.N) but not to a local's own object at a constant offset.
snap!(
    ub_checks,
    r#"
int main(void) {
  int a = 7, b = 2;
  unsigned int u = 9, v = 3;
  int arr[4];
  int *p = arr;
  int q = a / b + a % b;
  unsigned int w = u / v;
  int c = a / 4;
  int s = a << b;
  unsigned long long t = 1ULL << a;
  arr[1] = q;
  p[a] = 3;
  return q + w + c + s + (int)t + arr[1];
}
"#
);

#[test]
fn ub_checks_can_be_disabled() {
    let src =
        "int main(void) { int a = 7, b = 2; int x[2]; int *p = x; p[b] = a / b; return a << b; }\n";
    let opts = Options {
        data_model: DataModel::Ilp32,
        ub_checks: false,
        ..Default::default()
    };
    insta::assert_snapshot!("ub_checks_disabled", ir_with(src, true, &opts));
}

// The data model: long and pointers are 4 bytes on ILP32 and 8 on LP64; long long aligns to
// 4 inside structs on ILP32 and to 8 on LP64.
const DATA_MODEL_SRC: &str = r#"
struct s { char c; long long ll; long l; void *p; };
int main(void) {
  long l = -1;
  unsigned long ul = l;
  struct s v;
  v.ll = l;
  v.p = &v;
  return sizeof(struct s) + sizeof(long) + (ul > 0xffffffffUL);
}
"#;

#[test]
fn data_model_ilp32() {
    insta::assert_snapshot!("data_model_ilp32", ir(DATA_MODEL_SRC));
}

#[test]
fn data_model_lp64() {
    let opts = Options {
        data_model: DataModel::Lp64,
        ..Default::default()
    };
    insta::assert_snapshot!("data_model_lp64", ir_with(DATA_MODEL_SRC, true, &opts));
}

// Shadowing: inner declarations are `x.1`, `x.2`; each execution of a declaration without
// initialiser havocs the variable (uninit); statement expressions; main falls off its end
// with 0 and another function with whatever its return variable holds.
snap!(
    scopes_and_uninitialised,
    r#"
int noret(int a) { if (a) return 1; }
int main(void) {
  int x = 1;
  {
    int x = 2;
    {
      int x;
      x = x + 1;
    }
  }
  for (int i = 0; i < 2; i++) {
    int y;
    x += y;
  }
  int z = ({ int x = 5; x * 2; });
  x = noret(z);
}
"#
);

// glibc's assert(): both expansions (the ?: one and the statement-expression one) become an
// `assert` assertion whose text is the asserted expression.
#[test]
fn glibc_assert() {
    let src = "#include <assert.h>\nint main(void) {\n  int x = 1;\n  assert(x > 0);\n  ((x) ? (void) (0) : __assert_fail (\"x\", \"t.c\", 5, __PRETTY_FUNCTION__));\n  return 0;\n}\n";
    insta::assert_snapshot!("glibc_assert", ir_cpp(src));
}

// Variable-length arrays: the size is checked positive (`vla-size`) and within the largest
// object (`alloc-too-large`), stored in `vla.size`; the array is a stack object allocated when
// the declaration executes (in the loop: after freeing a copy a `goto` may have left live),
// freed at the end of its block and by `break`; `sizeof` reads the stored size; `g[i][j]`
// scales `i` by the row size `vla.size.1`; the parameter `m[][k]` gets its row size computed on
// entry, from `k`.
snap!(
    vla,
    r#"
int rows(int k, int m[][k], int i) { return m[i][k - 1]; }
int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int t = 0; t < 2; t++) {
    int a[n];
    a[0] = (int)sizeof a;
    if (t) break;
  }
  int g[2][n];
  g[1][n - 1] = 3;
  return rows(n, g, 1);
}
"#
);

// Bit-fields (ILP32): `a` is bits 0..2 and `b` bits 3..7 of byte 0, `c` (which would cross
// its 16-bit unit) starts at byte 2; `d` is bits 0..19 of a 4-byte window at 4. A read loads
// the window, shifts the field to the top and back down (`ashr` for signed `b`, `lshr` for
// unsigned `a`), so `v.a` is an `int` (promoted); a write keeps the other bits of the window
// (`and` with the inverted mask, `or` the new bits); `v.b += 1` reads, adds in `int` and
// writes the low 5 bits back; the static initialiser merges the fields' bits per byte.
snap!(
    bitfields,
    r#"
struct s { unsigned a : 3; int b : 5; short c : 12; int d : 20; };
struct s g = { 5, -2, 7, -1 };
int main(void) {
  struct s v;
  v.a = 9;
  v.b += 1;
  v.d = v.a - 10;
  return v.b + g.c;
}
"#
);

// Floats: `f + i` converts `i` with `sitofp` and adds in float (`fadd.rne`); `f * 2.0`
// computes in double (`fpext`); `(int)d` first checks that `d` truncated lies in
// [-2^31, 2^31) (`float-to-int`), then `fptosi`; comparisons are IEEE (`flt`, `fne` is
// true for NaN); `if (f)` is `f != 0`; a float in memory is stored and loaded as the
// integer of its bits (`fptobits`, `bitstofp`); the static initialiser is folded to bits;
// `fmin` of two zeros of opposite signs is the library's choice (an `extern` havoc).
snap!(
    floats,
    r#"
extern float __VERIFIER_nondet_float(void);
double fmin(double, double);
static double g = 1.0 / 3.0;
int main(void) {
  float f = __VERIFIER_nondet_float();
  int i = 3;
  float s = f + i;
  double d = s * 2.0;
  float a[2];
  a[1] = s;
  int k = (int)d;
  if (f)
    k += a[1] < g;
  return k + (d != d) + (int)fmin(d, -0.0);
}
"#
);
