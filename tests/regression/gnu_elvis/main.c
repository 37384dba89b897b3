/* GNU's `x ?: y`: x evaluated once, its value when nonzero. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int calls;
int f(int x) { calls++; return x; }
int main(void) { int x = __VERIFIER_nondet_int(); int y = f(x) ?: 7; long z = x ? : 3L;
  __VERIFIER_assert(calls == 1);
  __VERIFIER_assert(y == (x ? x : 7));
  __VERIFIER_assert(z == (x ? x : 3));
  __VERIFIER_assert(y != 7);
  return 0; }
