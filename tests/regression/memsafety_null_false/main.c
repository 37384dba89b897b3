#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int *p = 0;
  if (__VERIFIER_nondet_int())
    p = malloc(sizeof(int));
  *p = 1;
  free(p);
  return 0;
}
