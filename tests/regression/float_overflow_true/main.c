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

/* Above 1e38, ten times a float overflows to +inf (FLT_MAX is about 3.4e38). */
#include <math.h>
int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x > 1e38f);
  float y = x * 10.0f;
  __VERIFIER_assert(isinf(y) && y > 0);
  return 0;
}
