/* GNU's cast to a union type: a union whose member of the operand's type holds it. */
union u { int i; float f; unsigned char b[4]; };
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
union u mk(int x) { return (union u)x; }
int main(void) { int x = __VERIFIER_nondet_int(); union u v = (union u)x; union u w = (union u)2.5f;
  __VERIFIER_assert(v.i == x && mk(x).b[0] == (unsigned char)x);
  __VERIFIER_assert(w.b[3] == 0x40);
  __VERIFIER_assert(v.b[1] != 7);
  return 0; }
