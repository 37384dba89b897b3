extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "sine_taylor_false.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* The polynomial of sine_taylor reaches 0.8416... at x = 1: above 0.84. */
extern double __VERIFIER_nondet_double(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= -1.0 && x <= 1.0);
  double y = x - x * x * x / 6.0 + x * x * x * x * x / 120.0;
  __VERIFIER_assert(y <= 0.84);
  return 0;
}
