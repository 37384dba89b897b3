/* free(&v) of a local is itself undefined (issue 28: only malloc'ed objects are freeable),
 * and it ends v's life in qicc's model all the same: no stack fact may claim v is live after
 * it, so the answer is UNKNOWN at the free, never TRUE. */
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
