/* At the term limit, the loop it was reached in (and the loops around it) stay at the last bound
 * that fitted while the other loops deepen: the bug after the nested loops needs the last loop
 * unwound 20 times, far beyond the bound at which the nested loops outgrow the limit. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int a[256];
int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < n; j++) {
      int k = __VERIFIER_nondet_int();
      if (k >= 0 && k < 256) a[k] = a[(k * 7 + j) & 255] + i * j;
    }
  }
  unsigned m = __VERIFIER_nondet_int();
  unsigned x = 0;
  for (unsigned t = 0; t < m; t++) x += 2;
  __VERIFIER_assert(x != 40);
  return 0;
}
