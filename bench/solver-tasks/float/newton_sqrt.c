extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "newton_sqrt.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Six Newton steps for sqrt(x) from (x + 1) / 2, x in [1, 100]: r*r is within 0.1 % of x. */
extern double __VERIFIER_nondet_double(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= 1.0 && x <= 100.0);
  double r = (x + 1.0) / 2.0;
  for (int i = 0; i < 6; i++) r = 0.5 * (r + x / r);
  __VERIFIER_assert(r * r <= x * 1.001 && r * r >= x * 0.999);
  return 0;
}
