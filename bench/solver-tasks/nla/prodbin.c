extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "prodbin.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Product by binary multiplication (nla-digbench's prodbin). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
  __VERIFIER_assume(a >= 0 && a <= 100 && b >= 0 && b <= 100);
  int x = a, y = b, z = 0;
  while (y != 0) {
    __VERIFIER_assert(z + x * y == a * b);
    if (y % 2 == 1) { z = z + x; y = y - 1; }
    x = 2 * x; y = y / 2;
  }
  __VERIFIER_assert(z == a * b);
  return 0;
}
