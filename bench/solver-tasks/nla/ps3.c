extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "ps3.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Sum of squares: 6x == 2y^3 + 3y^2 + y (nla-digbench's ps3). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 30);
  int x = 0, y = 0;
  while (y < k) { y++; x += y * y; }
  __VERIFIER_assert(6 * x == 2 * y * y * y + 3 * y * y + y);
  return 0;
}
