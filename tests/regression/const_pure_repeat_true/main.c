/* Body-less const and pure functions: a call repeated with equal arguments (and, for pure,
   with no global or memory byte changed in between) returns the same result. Each call
   used to get an independent result, so h(x) == h(x) was FALSE. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int h(int, long) __attribute__((const));
int p(const int *) __attribute__((pure));
int a[10];
int main(void) {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  __VERIFIER_assert(h(x, 2) == h(x, 2));
  int r = h(x, 1), s = h(y, 1L); /* the argument is converted to long: equal */
  if (x == y)
    __VERIFIER_assert(r == s);
  for (int i = 0; i < 10; i++)
    a[i] = h(i, 0);
  if (x >= 0 && x < 10)
    __VERIFIER_assert(a[x] == h(x, 0));
  int u = p(a), v = p(a);
  __VERIFIER_assert(u == v);
  return 0;
}
