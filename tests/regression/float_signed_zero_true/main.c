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

/* The zeros compare equal; dividing by +0 gives +inf. */
#include <math.h>
int main(void) {
  double z = __VERIFIER_nondet_double();
  __VERIFIER_assume(z == 0.0);
  __VERIFIER_assert(z == -z);
  if (!signbit(z)) {
    __VERIFIER_assert(1.0 / z > 0.0);
  }
  return 0;
}
