extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(-1000 < x && x < 1000);
  int y = x * x;
  return y == 7;
}
