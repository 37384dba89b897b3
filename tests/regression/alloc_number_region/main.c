/* The value of a pointer converted to an integer is the layout's: no verdict rests on the
   model's object numbers (address-observed). The object-number joins this test was written
   for are tested on the IR: filetests/verify/alloc_number_region_*.qir. */
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
