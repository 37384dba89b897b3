extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "newton_sin_1.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* One Newton step for a root of a Taylor polynomial of sin, from inputs near 0
 * (in the style of SV-COMP's floats-cdfpl/newton_1_*): the step lands within 0.1 of 0. */
extern double __VERIFIER_nondet_double(void);
#define f(x) (x - (x*x*x)/6.0 + (x*x*x*x*x)/120.0 + (x*x*x*x*x*x*x)/5040.0)
#define fp(x) (1 - (x*x)/2.0 + (x*x*x*x)/24.0 + (x*x*x*x*x*x)/720.0)
int main(void) {
  double in = __VERIFIER_nondet_double();
  __VERIFIER_assume(in > -0.2 && in < 0.2);
  double x = in - f(in) / fp(in);
  __VERIFIER_assert(x < 0.1);
  return 0;
}
