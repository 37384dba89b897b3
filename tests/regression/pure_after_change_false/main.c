/* A pure function may read globals and memory: after a global changes, the same call may
   return something else. A const function's results differ where the arguments do. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int g(int) __attribute__((pure));
int h(int) __attribute__((const));
int G;
int main(void) {
  int x = __VERIFIER_nondet_int();
  int a = g(x);
  G = 1;
  int b = g(x);
  if (__VERIFIER_nondet_int())
    __VERIFIER_assert(a == b);
  __VERIFIER_assert(h(x) == h(x + 1));
  return 0;
}
