extern void abort(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
unsigned short g;
unsigned char id(unsigned char x) { return x; }
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  unsigned char b = a;
  unsigned char c = id(b);
  g = -1;
  signed char d = -1;
  __VERIFIER_assert(c != 255 || d != -1);
  return 0;
}
