extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail("0", "tenth_sum_false.c", 3, "reach_error"); }
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }
extern void __VERIFIER_assume(int);
/* Ten additions of 0.1f give 1.0000001f, not at most 1. */
extern unsigned __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 10);
  float f = 0.0f;
  for (unsigned i = 0; i < n; i++) f += 0.1f;
  __VERIFIER_assert(f <= 1.0f);
  return 0;
}
