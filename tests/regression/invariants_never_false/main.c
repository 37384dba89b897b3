extern void __VERIFIER_assert(int);
extern unsigned int __VERIFIER_nondet_uint(void);
/* x steps by 2 from 0, so x is even and the assertion fails: the invariant prover proves the
   parity, cannot prove the assertion, and never answers FALSE (it finds no counterexamples). */
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  while (x < n) x += 2;
  __VERIFIER_assert(x % 2 == 1);
  return 0;
}
