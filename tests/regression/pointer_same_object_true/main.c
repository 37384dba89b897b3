/* What C does promise about addresses is still proved: pointers into one array compare and
   subtract by their positions, distinct live objects compare unequal, a pointer converted
   from an integer converts back to it, and a null pointer compares with anything. */
#include <stdlib.h>
extern void __VERIFIER_assert(int);
int a[10], x, y;
int main(void) {
  int *p = a, *e = a + 10, n = 0;
  while (p != e) {
    n++;
    p++;
  }
  __VERIFIER_assert(n == 10);
  __VERIFIER_assert(e - a == 10 && &a[3] < &a[5]);
  __VERIFIER_assert(&x != &y);
  int *h = malloc(sizeof(int));
  __VERIFIER_assert(h != &x && h != 0);
  unsigned long off = (unsigned long)((char *)0 + 8);
  __VERIFIER_assert(off == 8);
  int *q = 0;
  __VERIFIER_assert(q != &x && (unsigned long)q == 0);
  free(h);
  return 0;
}
