/* A key formatted into a buffer that is one byte too small for four-digit ids: snprintf
 * truncates, the lookup key differs (gcc: fails for id >= 1000). */
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);

int main(void) {
  int id = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= id && id <= 9999);
  char key[7];
  int n = snprintf(key, sizeof key, "usr%d", id);
  __VERIFIER_assert(strlen(key) == (size_t)n);
  return 0;
}
