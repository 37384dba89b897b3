extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d >= 0 && d < 4);
  int q = 100 / d;
  __VERIFIER_assert(q >= 25);
  return 0;
}
