extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
int main(void) {
  int a[4] = {0, 1, 2, 3};
  int i = __VERIFIER_nondet_int();
  __VERIFIER_assume(0 <= i && i < 4);
  a[i] = 7;
  return a[0];
}
