struct S { int a; char b[3]; };
struct S nondet_S(void);
union U { int i; float f; };
union U nondet_U(void);
extern void __VERIFIER_assert(int);
int main(void) {
  struct S s = nondet_S();
  union U u = nondet_U();
  if (s.b[1] == 'x' && u.i == 7)
    __VERIFIER_assert(s.a != 42);
  return 0;
}
