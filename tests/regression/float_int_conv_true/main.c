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

/* Every int is exact as a double, and converts back unchanged. */
int main(void) {
  int i = __VERIFIER_nondet_int();
  double d = i;
  __VERIFIER_assert((int)d == i);
  __VERIFIER_assert(d - i == 0.0);
  return 0;
}
