extern void __VERIFIER_assert(int);
extern unsigned int __VERIFIER_nondet_uint(void);
/* Constant steps: x goes up by 2 and y down by 1, so x + 2*y stays 2*n (modulo 2^32), x stays
   even, and x < n + 2 after the first iteration. */
int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned int x = 0, y = n;
  while (x < n) {
    x += 2;
    y--;
  }
  __VERIFIER_assert(x % 2 == 0);
  __VERIFIER_assert(x + 2 * y == 2 * n);
  return 0;
}
