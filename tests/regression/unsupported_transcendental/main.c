#include <math.h>
extern double __VERIFIER_nondet_double(void);
extern void reach_error(void);
int main(void) {
  double x = __VERIFIER_nondet_double();
  if (sin(x) > 1.0)
    reach_error();
  return 0;
}
