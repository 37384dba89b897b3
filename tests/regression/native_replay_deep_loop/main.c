// The shape of loop-acceleration/simple_1-1: the violation comes after 2^27 iterations,
// too long for the interpreter's replay; the native replay (gcc) confirms it in a fraction
// of a second. The program has no input, so its one execution is run natively.
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error() { __assert_fail("0", "main.c", 6, "reach_error"); }
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
}
int main(void) {
  unsigned int x = 0;
  while (x < 0x0fffffff) {
    x += 2;
  }
  __VERIFIER_assert(x % 2);
  return 0;
}
