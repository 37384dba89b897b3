#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int *p = malloc(sizeof(int));
  int *q = p;
  if (__VERIFIER_nondet_int())
    q = &x;
  int r = q == &x;
  free(p);
  return x + r;
}
