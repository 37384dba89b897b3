/* Bounded mode still tries a proof for every execution: a loop invariant (s stays even)
 * proves the assertion, so the answer is TRUE, not BOUNDED, although bound 2 cuts the loop. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned s = 0;
  for (int i = 0; i < n; i++)
    s += 2;
  __VERIFIER_assert(s % 2 == 0);
  return 0;
}
