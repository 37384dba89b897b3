typedef int (*op)(int);
int apply(op f, int x);
op get_twice(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
static int inc(int x) { return x + 1; }
int main(void) { int x = __VERIFIER_nondet_int(); if (x < 0 || x > 100) return 0;
  extern int g; g = 2;
  __VERIFIER_assert(apply(inc, x) == x + 1);
  __VERIFIER_assert(apply(get_twice(), x) == 2 * x);
  __VERIFIER_assert(get_twice() != inc);
  __VERIFIER_assert(g == 2);
  return 0; }

/* link_function_pointers: a program of several translation units (see test.desc), linked as C links them. */
