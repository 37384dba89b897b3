#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(2 * sizeof(int));
  p[0] = 1;
  p[1] = 2;
  free(p);
  if (__VERIFIER_nondet_int())
    return p[1];
  return 0;
}
