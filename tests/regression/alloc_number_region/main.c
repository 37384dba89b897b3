#include <stdlib.h>
extern void abort(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int *a = malloc(4);
  while (__VERIFIER_nondet_int()) {
    int *q = malloc(4);
    __VERIFIER_assert((unsigned long)q >> 48 != 2);
  }
  return 0;
}
