extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int a[4]; int i = __VERIFIER_nondet_int();
  if (i >= 0 && i <= 4) a[i] = 1;
  __VERIFIER_assert(1);
  return 0;
}
