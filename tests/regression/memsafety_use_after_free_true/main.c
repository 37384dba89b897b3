#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  p[1] = 2;
  int r = 0;
  if (__VERIFIER_nondet_int())
    r = p[1];
  free(p);
  return r;
}
