extern void __VERIFIER_assert(int);
extern float __VERIFIER_nondet_float(void);
int main(void) {
  volatile float a = 16777216.0f;
  float b = a + 1.0f;
  __VERIFIER_assert(b == 16777216.0f);
  return 0;
}
