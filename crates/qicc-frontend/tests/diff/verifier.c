/* The SV-COMP intrinsics: assume, assert, reach_error, exit. */
#include <assert.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assume(int);
void reach_error() { __assert_fail("0", "verifier.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }

int main(void) {
  int a = __VERIFIER_nondet_int();
  unsigned char b = __VERIFIER_nondet_uchar();
  _Bool c = __VERIFIER_nondet_bool();
  __VERIFIER_assume(a > -100 && a < 100);
  if (b == 200) exit(3);
  if (b == 201) exit(-1);
  __VERIFIER_assert(a != 42);
  __VERIFIER_assert(c == 0 || c == 1);
  assert(b != 7);
  if (a == 13 && c) reach_error();
  return a + b + c;
}
