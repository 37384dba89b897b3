#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  char *p = malloc(8);
  free(p);
  if (__VERIFIER_nondet_int())
    free(p);
  return 0;
}
