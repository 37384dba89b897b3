#include <math.h>
extern void __VERIFIER_assert(int);
/* Static initialisers are computed by the compiler: a NaN there is a constant (rejected as
   "not a constant expression" once computed NaNs became a choice made at run time). */
const float plus_infinity = 1.0f / 0.0f;
const float not_a_number = 0.0f * (1.0f / 0.0f);
int main(void) {
  __VERIFIER_assert(!(not_a_number < plus_infinity) && isnan(not_a_number));
  return 0;
}
