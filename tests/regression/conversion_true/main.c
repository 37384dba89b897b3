/* The safe twin: every conversion to a signed type keeps its value. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
int a[10];
int main(void) {
  unsigned int u = __VERIFIER_nondet_uint();
  signed char c = 100;
  c += (signed char) (u % 16) - 15;
  int x = (int) (u / 2);
  unsigned long i = __VERIFIER_nondet_ulong() % 10;
  a[i] = x;
  long d = &a[i] - a;
  short s = (short) d;
  return x == 7 ? c + s : 0;
}
