/* Several properties in one run: no overflow, no memory error, but reach_error() is
   reachable: a FALSE of unreach-call (the verdict line names no property, as SV-COMP's). */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  *p = x % 100;
  if (*p + 1 == 42)
    reach_error();
  free(p);
  return 0;
}
