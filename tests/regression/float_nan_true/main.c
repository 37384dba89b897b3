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

/* NaN is the only value unequal to itself, and every comparison with it is false. */
#include <math.h>
int main(void) {
  double x = __VERIFIER_nondet_double();
  if (x != x) {
    __VERIFIER_assert(isnan(x));
    __VERIFIER_assert(!(x < 1.0) && !(x >= 1.0) && !(x == x));
  } else {
    __VERIFIER_assert(!isnan(x));
  }
  return 0;
}
