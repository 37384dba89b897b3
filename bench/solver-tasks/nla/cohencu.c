extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "cohencu.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Cohen's cube (nla-digbench's cohencu): x == n^3 with y, z its differences. */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= 0 && a <= 50);
  int n = 0, x = 0, y = 1, z = 6;
  while (n <= a) {
    __VERIFIER_assert(z == 6 * n + 6);
    __VERIFIER_assert(y == 3 * n * n + 3 * n + 1);
    __VERIFIER_assert(x == n * n * n);
    n++; x += y; y += z; z += 6;
  }
  __VERIFIER_assert(x == n * n * n);
  return 0;
}
