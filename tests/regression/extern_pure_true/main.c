/* A function declared pure writes nothing: the assertion holds. */
extern int f(int *p) __attribute__((pure));
extern void __VERIFIER_assert(int);
int g;
int main(void) {
  int x = 1;
  g = 2;
  int r = f(&x);
  __VERIFIER_assert(x == 1 && g == 2);
  return r;
}
