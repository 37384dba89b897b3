/* The safe twin: no property of the run is violated, so TRUE holds for every one. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int *p = malloc(sizeof(int));
  if (!p)
    return 0;
  *p = x % 100;
  if (*p + 1 == 142)
    reach_error();
  free(p);
  return 0;
}
