extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a[4] = {1, 2, 3, 4};
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 4) return 0;
  int v = a[i];
  __VERIFIER_assert(v != 77);
  return 0;
}
