/* printf only writes output the program cannot read: arbitrary result, no effect on memory. */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 10) return 0;
  printf("x = %d, 100%%n\n", x);
  puts("done");
  __VERIFIER_assert(x <= 10);
  return 0;
}
