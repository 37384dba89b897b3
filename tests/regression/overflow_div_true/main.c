extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d > 0);
  int y = x / d;
  return y == 7;
}
