/* free(&v) before the loop ends v's life: no stack fact may claim it is live, so the write
 * in the loop stays an unproven invalid write (UNKNOWN), never TRUE. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int v = 0;
  int *q = &v;
  free(q);
  while (__VERIFIER_nondet_int()) {
    *q = 1;
    __VERIFIER_assert(v == 1);
  }
  return 0;
}
