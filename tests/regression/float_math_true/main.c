extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond)
    reach_error();
}

/* floor, ceil, fabs, sqrt and fmax are exact (IEEE 754): their bounds hold. x - floor(x) is
 * below 1 in reals, but rounds to 1.0 for a tiny negative x: hence <= 1.0. */
#include <math.h>
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= -100.0 && x <= 100.0);
  double f = floor(x), c = ceil(x);
  __VERIFIER_assert(f <= x && x - f <= 1.0);
  __VERIFIER_assert(c >= x && c - f <= 1.0);
  __VERIFIER_assert(fabs(x) >= 0.0 && fmax(x, -x) == fabs(x));
  if (x >= 1.0) {
    /* sqrt is correctly rounded, hence monotone: 1 <= sqrt(x) <= x. */
    __VERIFIER_assert(sqrt(x) >= 1.0 && sqrt(x) <= x);
  }
  return 0;
}
