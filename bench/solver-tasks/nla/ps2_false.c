extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "ps2_false.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* ps2 with the wrong closed form 2x == y*y (y = 1 gives x = 1). */
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assume(k >= 0 && k <= 30);
  int x = 0, y = 0;
  while (y < k) { y++; x += y; }
  __VERIFIER_assert(2 * x == y * y);
  return 0;
}
