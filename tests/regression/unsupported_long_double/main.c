extern double __VERIFIER_nondet_double(void);
int main(void) {
  long double f = __VERIFIER_nondet_double();
  return f > 1.0L;
}
