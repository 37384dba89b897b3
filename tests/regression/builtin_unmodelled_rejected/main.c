extern void __VERIFIER_assert(int);
int main(void) {
  int x = 5;
  int y = __builtin_nontemporal_load(&x);
  __VERIFIER_assert(y == 5);
  return 0;
}
