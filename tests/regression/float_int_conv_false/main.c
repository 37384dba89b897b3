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

/* 2^24 + 1 has no float: it rounds to 2^24 (to even). */
int main(void) {
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(i > 16777215 && i < 16777220);
  float f = i;
  __VERIFIER_assert((int)f == i);
  return 0;
}
