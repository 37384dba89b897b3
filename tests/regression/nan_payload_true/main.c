#include <math.h>
#include <string.h>
extern void __VERIFIER_assert(int);
int main(void) {
  double a = __builtin_nan("12"), b = nan("0x10"), c = nan("");
  float f = __builtin_nanf("7");
  unsigned long long ba, bb, bc; unsigned bf;
  memcpy(&ba, &a, 8); memcpy(&bb, &b, 8); memcpy(&bc, &c, 8); memcpy(&bf, &f, 4);
  __VERIFIER_assert(ba == 0x7ff800000000000cULL && bb == 0x7ff8000000000010ULL);
  __VERIFIER_assert(bc == 0x7ff8000000000000ULL && bf == 0x7fc00007u);
  return 0;
}
