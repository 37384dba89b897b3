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

/* Above 2^24 the ulp of a float exceeds 1: x + 0.1f rounds back to x (e.g. x = 2^24). */
int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 0.0f && x <= 1e8f);
  float y = x + 0.1f;
  __VERIFIER_assert(y > x);
  return 0;
}
