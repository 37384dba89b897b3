/* x grows by k, which the loop does not change: the closed form x == x0 + k*(i - i0) (Impulse's
   acceleration of the loop) is proven as an invariant, and with it the assertion. Every
   variable the loop changes has a closed form but the counter: the report says the loop is
   closed by exact acceleration. k is a short: the equalities sampled from runs (one width at a
   time, qicc-invariants' `sampled`) do not see it, so the closed form is what proves this. */
extern int __VERIFIER_nondet_int(void);
extern short __VERIFIER_nondet_short(void);
extern void abort(void);
void reach_error(void) { abort(); }
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main(void) {
  short k = __VERIFIER_nondet_short();
  int n = __VERIFIER_nondet_int();
  if (k < 0 || k > 100 || n < 0 || n > 1000) return 0;
  int x = 0;
  int i = 0;
  while (i < n) {
    x += k;
    i++;
  }
  __VERIFIER_assert(x == k * n);
  return 0;
}
