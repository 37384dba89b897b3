extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "interpolation.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* A piecewise linear table in float (float-benchs' interpolation style). */
extern float __VERIFIER_nondet_float(void);
int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 0.0f && x <= 10.0f);
  float y;
  if (x < 5.0f) y = x * 0.5f; else y = 2.5f + (x - 5.0f) * 1.5f;
  __VERIFIER_assert(y >= 0.0f && y <= 10.0f);
  return 0;
}
