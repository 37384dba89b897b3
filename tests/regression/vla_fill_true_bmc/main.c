extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "main.c", 5, "reach_error"); }
void __VERIFIER_assert(int cond) {
  if (!cond) {
  ERROR: { reach_error(); abort(); }
  }
}

int main(void) {
  int N = __VERIFIER_nondet_int();
  __VERIFIER_assume(N > 0 && N < 10);
  int a[N];
  for (int i = 0; i < N; i++) a[i] = 2 * i + 1;
  for (int i = 0; i < N; i++) __VERIFIER_assert(a[i] % 2 == 1);
  return 0;
}
