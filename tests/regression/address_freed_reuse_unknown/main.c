/* glibc hands a freed chunk back: b == a is possible. Comparing with the freed pointer is
   undefined (its value is indeterminate, C11 6.2.4p2); comparing the integers it was
   converted to while alive depends on the allocator. Neither may be TRUE. */
#include <stdlib.h>
#include <stdint.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  char *a = malloc(8);
  uintptr_t ia = (uintptr_t)a;
  free(a);
  char *b = malloc(8);
  if (__VERIFIER_nondet_int())
    __VERIFIER_assert(b != a);
  __VERIFIER_assert((uintptr_t)b != ia);
  return 0;
}
