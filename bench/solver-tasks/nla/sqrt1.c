extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "sqrt1.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Integer square root by odd numbers (nla-digbench's sqrt1). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 1000);
  int a = 0, s = 1, t = 1;
  while (s <= n) { a++; t += 2; s += t; }
  __VERIFIER_assert(t == 2 * a + 1);
  __VERIFIER_assert(s == (a + 1) * (a + 1));
  __VERIFIER_assert(a * a <= n && n < (a + 1) * (a + 1));
  return 0;
}
