/* Bounded verification (--bound K, or CBMC's --unwind K --no-unwinding-assertions): the
 * violation needs ten iterations of the first loop, so within bound 3 there is none — the
 * answer BOUNDED (exit 4), never TRUE, naming both loops the bound cut; within 12, FALSE. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i & 1;
  return s;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned h = 0;
  for (int i = 0; i < n; i++)
    h = h * 31u + (unsigned)__VERIFIER_nondet_int();
  int m = sum(__VERIFIER_nondet_int());
  __VERIFIER_assert(n < 10 || h != 12345u || m < 0);
  return 0;
}
