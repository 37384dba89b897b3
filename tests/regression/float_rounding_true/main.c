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

/* Adding 0.1f to a float in [0, 1000] always changes it: 0.1 is far above half an ulp
 * there (2^-15 at most). */
int main(void) {
  float x = __VERIFIER_nondet_float();
  __VERIFIER_assume(x >= 0.0f && x <= 1000.0f);
  float y = x + 0.1f;
  __VERIFIER_assert(y > x);
  return 0;
}
