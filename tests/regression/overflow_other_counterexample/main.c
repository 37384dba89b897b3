extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
/* Two ways to fail: x = INT_MAX (only through the overflow of x + 1) and x = 5 (defined).
   Under C's semantics only the second is a counterexample. */
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  __VERIFIER_assert(y > x && x != 5);
  return 0;
}
