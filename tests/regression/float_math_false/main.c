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

/* x - floor(x) is below 1 in reals, but for a tiny negative x (floor -1) the difference
 * 1 - |x| rounds to 1.0. */
#include <math.h>
int main(void) {
  double x = __VERIFIER_nondet_double();
  __VERIFIER_assume(x >= -100.0 && x <= 100.0);
  double f = floor(x);
  __VERIFIER_assert(x - f < 1.0);
  return 0;
}
