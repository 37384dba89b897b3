#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
  int *p = malloc(2 * sizeof(int));
  if (!p) return 0;
  p[0] = a; p[1] = b;
  int *q = realloc(p, 4 * sizeof(int));
  if (!q) { free(p); return 0; }
  q[2] = 7; q[3] = 8;
  __VERIFIER_assert(q[0] == a && q[1] == b && q[3] == 9);
  free(q);
  return 0;
}
