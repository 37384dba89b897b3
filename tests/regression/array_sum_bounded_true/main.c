/* The sum of n elements, each assumed in -5..5, lies in -5n..5n. The proof needs what holds
 * of every element the first loop stored (-5 <= a[k] <= 5), used at the element the second
 * loop reads, and the sum's bound over the iterations (s <= 5*i). */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 < n && n <= 1000);
  int a[1000];
  int i, s = 0;
  for (i = 0; i < n; i++) {
    a[i] = __VERIFIER_nondet_int();
    __VERIFIER_assume(-5 <= a[i] && a[i] <= 5);
  }
  for (i = 0; i < n; i++) s += a[i];
  __VERIFIER_assert(-5 * n <= s && s <= 5 * n);
  return 0;
}
