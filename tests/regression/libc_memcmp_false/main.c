#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
  unsigned char x[3] = {a, 1, 2}, y[3] = {a, 1, 2};
  __VERIFIER_assert(memcmp(x, y, 3) == 0);
  y[2] = b;
  if (b != 2) __VERIFIER_assert(memcmp(x, y, 3) != 0);
  if (b > 2) __VERIFIER_assert(memcmp(x, y, 3) > 0);
  return 0;
}
