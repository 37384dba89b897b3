#include <stdlib.h>
extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
/* Allocations inside a region: after the region's havoc_memory the next object number is
   arbitrary, and the region must still prove what holds for every number. */
int main(void) {
  while (__VERIFIER_nondet_int()) {
    int *q = malloc(sizeof(int));
    if (!q) break;
    *q = 7;
    int *r = malloc(sizeof(int));       /* a second one in the same iteration */
    if (r) { *r = 8; __VERIFIER_assert(q != r && *q == 7); free(r); }
    free(q);
  }
  return 0;
}
