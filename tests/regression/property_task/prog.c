extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x * 3 + 1;
  __VERIFIER_assert(y != 16);
  return 0;
}
