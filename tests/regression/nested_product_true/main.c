/* k == i*m at the outer head and k == j + i*m at the inner one: polynomial equalities from
   the states runs visit (issue 35). */
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main() {
  int n = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int(), k = 0, i, j;
  __VERIFIER_assume(10 <= n && n <= 10000); __VERIFIER_assume(10 <= m && m <= 10000);
  for (i = 0; i < n; i++) for (j = 0; j < m; j++) k++;
  __VERIFIER_assert(k >= 100);
  return 0;
}
