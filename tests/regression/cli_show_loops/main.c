extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned n = __VERIFIER_nondet_uint(), s = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < i; j++)
      s += j;
  __VERIFIER_assert(n > 3 || s < 10);
  return 0;
}
