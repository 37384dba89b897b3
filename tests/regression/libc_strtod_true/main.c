/* strtod, strtof and atof on decimal numbers their models round exactly, with the end
 * pointer. */
#include <stdlib.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  const char *s = "  -3.25e1x";
  char *end;
  double d = strtod(s, &end);
  __VERIFIER_assert(d == -32.5 && end == s + 9);
  float f = strtof("0.1", 0);
  __VERIFIER_assert(f == 0.1f);
  __VERIFIER_assert(atof("1e-3") == 0.001);
  d = strtod("inf", &end);
  __VERIFIER_assert(d > 1e308 && *end == 0);
  d = strtod("e5", &end);
  __VERIFIER_assert(d == 0.0 && end[0] == 'e');
  return 0;
}
