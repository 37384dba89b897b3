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

/* 2^53 + 1 has no double: it rounds to 2^53. */
int main(void) {
  long long n = __VERIFIER_nondet_longlong();
  __VERIFIER_assume(n >= 9007199254740992LL && n <= 9007199254740994LL);
  double d = n;
  __VERIFIER_assert((long long)d == n);
  return 0;
}
