#include <stdlib.h>
extern void __VERIFIER_assert(int);
/* Issue 28 item 3: free of a local's address is undefined (C11 7.22.3.3: not a pointer
   malloc returned); qicc once proved the assertion after it. */
int main(void) {
  int x = 1;
  int *p = &x;
  if (x) free(p);
  __VERIFIER_assert(x == 1);
  return 0;
}
