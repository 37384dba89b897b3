extern void __VERIFIER_assert(int);
static g(void) { register i = 3; return i - 1; }
main() {
  static n; n = 1 / 0;
  __VERIFIER_assert(g() == 2);
  return 0;
}
