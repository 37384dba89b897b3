#include "lib.h"
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
static int calls = 100;       /* the harness's own, not the library's */
int total = 0;
static int helper(int x) { return x * 2; }
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 5) return 0;
  struct counter c = make(k);
  while (counter_step(&c)) {}
  __VERIFIER_assert(c.n == k);
  __VERIFIER_assert(total == k);
  __VERIFIER_assert(calls == 100 && helper(3) == 6);
  return 0;
}

/* link_duplicate_definition: a program of several translation units (see test.desc), linked as C links them. */
