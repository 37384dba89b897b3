extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond)
    reach_error();
}

/* A double just below 2^31 truncates to INT_MAX: defined, and exact. */
int main(void) {
  double d = __VERIFIER_nondet_double();
  __VERIFIER_assume(d > 2147483647.0 && d < 2147483648.0);
  int i = (int)d;
  __VERIFIER_assert(i == 2147483647);
  return 0;
}
