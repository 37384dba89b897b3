/* A conversion to a signed type that changes the value: implementation-defined in C
   (C11 6.3.1.3p3), flagged by --check conversion (CBMC's --conversion-check), and not an
   overflow under SV-COMP's no-overflow. */
extern unsigned int __VERIFIER_nondet_uint(void);
int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  signed char c = 120;
  c += (signed char) (u % 16);
  int x = (int) u;
  return x == 7 ? c : 0;
}
