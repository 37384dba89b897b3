#include <math.h>
extern float __VERIFIER_nondet_float(void);
extern void __VERIFIER_assert(int);
/* A computed NaN's bits are chosen once, where it is computed: every use sees the same sign,
   negation flips it, and it stays a NaN. */
int main(void) {
  float x = __VERIFIER_nondet_float();
  float n = x * 0.0f;
  if (isnan(n)) {
    int s = signbit(n) != 0;
    __VERIFIER_assert(s == (signbit(n) != 0));
    __VERIFIER_assert((signbit(-n) != 0) != s);
    __VERIFIER_assert(isnan((double)n) && n != n);
  }
  return 0;
}
