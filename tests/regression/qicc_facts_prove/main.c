extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int n = __VERIFIER_nondet_int(), x = 1;
  while (n < 1000) {
    __VERIFIER_assert(x == 1);
    n += x;
  }
  return 0;
}
