extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "sine_taylor.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* A Taylor polynomial of sin on [-1, 1] stays within 0.85. */
extern double __VERIFIER_nondet_double(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= -1.0 && x <= 1.0);
  double y = x - x * x * x / 6.0 + x * x * x * x * x / 120.0;
  __VERIFIER_assert(y >= -0.85 && y <= 0.85);
  return 0;
}
