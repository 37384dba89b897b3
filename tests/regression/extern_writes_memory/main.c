/* A function without a body may write what it can reach (here: x through its argument and the
 * global g): the assertion can fail, and the counterexample says which body-less function's
 * behaviour it chose. */
extern int f(int *p);
extern void __VERIFIER_assert(int);
int g;
int main(void) {
  int x = 1;
  g = 2;
  int r = f(&x);
  __VERIFIER_assert(x == 1 && g == 2);
  return r;
}
