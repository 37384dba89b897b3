/* %n makes printf write memory: rejected, never "no effect". */
#include <stdio.h>
extern void __VERIFIER_assert(int);
int main(void) {
  int n = 0;
  printf("abc%n", &n);
  __VERIFIER_assert(n == 3);
  return 0;
}
