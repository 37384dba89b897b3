extern void abort(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x > 0) return 0;
  int y = -x;                               /* -INT_MIN overflows */
  while (__VERIFIER_nondet_int())
    __VERIFIER_assert(y >= 0);
  return 0;
}
