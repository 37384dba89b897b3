extern void abort(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  unsigned x = __VERIFIER_nondet_uint();
  if (x < 0x80000000u) return 0;
  unsigned y = -x;                          /* y = 2^32 - x */
  while (__VERIFIER_nondet_int())
    __VERIFIER_assert(y <= 0x7fffffffu);    /* fails for x = 0x80000000 */
  return 0;
}
