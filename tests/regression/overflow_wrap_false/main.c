extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
/* loop-zilu/benchmark01_conjunctive: the assertion fails only after x + y overflows. */
int main(void) {
  int x = 1, y = 1;
  while (__VERIFIER_nondet_int()) {
    x = x + y;
    y = x;
  }
  __VERIFIER_assert(y >= 1);
  return 0;
}
