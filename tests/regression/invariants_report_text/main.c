extern void __VERIFIER_assert(int);
extern unsigned int __VERIFIER_nondet_uint(void);
/* An unbounded counting loop: only an invariant (i <= n at the head) proves i == n after it.
   The report names the loop (line 7, column 10: the guard) and prints that invariant. */
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint(), i = 0;
  while (i < n) {
    i++;
  }
  __VERIFIER_assert(i == n);
  return 0;
}
