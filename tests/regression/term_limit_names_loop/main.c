/* An unwinding that outgrows half the memory limit stops with a message naming the bound and
 * the loop being unwound (and the limit that raises it), not a fixed term count. */
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
  __VERIFIER_assert(a[3] != 123456789);
  return 0;
}
