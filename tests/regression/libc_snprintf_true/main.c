/* snprintf's model formats as glibc: the count of the whole output, truncation to the
 * buffer, padding, the alternative form. */
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int main(void) {
  char buf[8];
  int n = snprintf(buf, 4, "%-6s|", "ab");
  __VERIFIER_assert(n == 7 && strcmp(buf, "ab ") == 0);
  n = sprintf(buf, "%#x", 255);
  __VERIFIER_assert(n == 4 && strcmp(buf, "0xff") == 0);
  n = snprintf(buf, sizeof buf, "v=%03d", 7);
  __VERIFIER_assert(n == 5 && strcmp(buf, "v=007") == 0);
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= x && x < 1000);
  n = snprintf(buf, sizeof buf, "v=%d", x);
  __VERIFIER_assert(n >= 3 && n <= 5 && buf[n] == 0);
  return 0;
}
