/* Cohen's cube inside another loop with z stepping by 5: x == n*n*n fails from n == 3 on;
   the closed forms the samples give differ, and none may hide the bug (issue 35). */
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
    for (i = 0; i < n; i++) { x = x + y; y = y + z; z = z + 5; }
    __VERIFIER_assert(x == n * n * n);
  }
  return 0;
}
