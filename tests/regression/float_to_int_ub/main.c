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

/* 2^31 does not fit an int: converting it is undefined (C11 6.3.1.4p1). */
int main(void) {
  float f = __VERIFIER_nondet_float();
  __VERIFIER_assume(f >= 2147483520.0f && f <= 2147483648.0f);
  int i = (int)f;
  __VERIFIER_assert(i > 0);
  return 0;
}
