/* A hexadecimal float is a case strtod's model does not cover: UNKNOWN, naming it. */
#include <stdlib.h>
extern void __VERIFIER_assert(int);

int main(void) {
  double d = strtod("0x1p3", 0);
  __VERIFIER_assert(d == 8.0);
  return 0;
}
