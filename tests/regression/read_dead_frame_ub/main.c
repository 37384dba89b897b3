extern void __VERIFIER_assert(int);
int *p;
void f(void) { int x = 5; p = &x; }
int main(void) {
  f();
  int v = *p;
  __VERIFIER_assert(v == 5);
  return 0;
}
