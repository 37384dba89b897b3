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

/* A NaN input fails x == x (and x - x is NaN, not 0, for infinities too). */
int main(void) {
  double x = __VERIFIER_nondet_double();
  double z = x - x;
  __VERIFIER_assert(z == 0.0);
  return 0;
}
