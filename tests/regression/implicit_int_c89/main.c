/* C89's implicit int: functions defined and declared without a type (also K&R style), and a
   block-scope declaration with a storage class only. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
twice();
f(x) int x; { return x + 1; }
static g(void) { register i = 3; return i - 1; }
twice(v) { return 2 * v; }
#include <stddef.h>
main() {
  int x = __VERIFIER_nondet_int();
  static n;
  __VERIFIER_assert(f(1) == 2 && g() == 2 && n == 0);
  __VERIFIER_assert(x < 0 || x > 1000 || twice(x) != 6);
  return 0;
}
