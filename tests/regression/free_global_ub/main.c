#include <stdlib.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
/* Issue 28 item 3: free of a global's address (or of a string literal) is undefined; the
   heap object next to it may be freed. */
int g[2];
int main(void) {
  int *h = malloc(sizeof(int));
  int *p = __VERIFIER_nondet_int() ? h : g;
  free(p);
  __VERIFIER_assert(1);
  return 0;
}
