#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = malloc(sizeof(int));
  if (__VERIFIER_nondet_int()) {
    free(p);
    p = malloc(sizeof(int));
  }
  free(p);
  return 0;
}
