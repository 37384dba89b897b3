/* Cohen's cube inside another loop (qicc-study's Single 1 placement): the samples give the
   closed forms x == i*i*i, y == 3*i*i + 3*i + 1, z == 6*i + 6 at the inner head; at its exit
   i == n, and n takes i's term, so x == n*n*n is the invariant's own term (issue 35). */
extern void abort(void);
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main() {
  int n, i, x, y, z;
  while (__VERIFIER_nondet_int()) {
    n = __VERIFIER_nondet_int();
    __VERIFIER_assume(0 <= n && n <= 1000);
    x = 0; y = 1; z = 6;
    for (i = 0; i < n; i++) { x = x + y; y = y + z; z = z + 6; }
    __VERIFIER_assert(x == n * n * n);
  }
  return 0;
}
