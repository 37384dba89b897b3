/* The twin of nested_product_true: n == m == 10 makes k == 100. */
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main() {
  int n = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int(), k = 0, i, j;
  __VERIFIER_assume(10 <= n && n <= 10000); __VERIFIER_assume(10 <= m && m <= 10000);
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) k++;
  __VERIFIER_assert(k >= 101);
  return 0;
}
