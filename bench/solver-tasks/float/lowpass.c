extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "lowpass.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* A first-order low-pass filter over bounded inputs stays bounded (float-benchs' filters). */
extern double __VERIFIER_nondet_double(void);
int main(void) {
  double s = 0.0;
  for (int i = 0; i < 8; i++) {
    double in = __VERIFIER_nondet_double();
    __VERIFIER_assume(in >= -1.0 && in <= 1.0);
    s = 0.5 * s + 0.5 * in;
  }
  __VERIFIER_assert(s >= -1.0 && s <= 1.0);
  return 0;
}
