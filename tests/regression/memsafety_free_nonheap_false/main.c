#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int x = 0;
  int *p = malloc(sizeof(int));
  if (__VERIFIER_nondet_int()) {
    free(p);
    p = &x;
  }
  free(p);
  return x;
}
