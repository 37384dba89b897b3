extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  unsigned int s = 0;
  for (unsigned int i = 0; i < 20; i++) {
    unsigned int v = __VERIFIER_nondet_uint() % 10u;
    s += v;
  }
  __VERIFIER_assert(s <= 180);
  return 0;
}
