extern void __VERIFIER_assert(int);
/* No inputs, about 1,600 iterations of a float division (x shrinks until it stops changing,
   in the subnormals, never at 0): the native run decides it. The division's computed-NaN
   choice is no input (it once made the program look input-dependent: UNKNOWN). */
int main(void) {
  double x = 1.0;
  double x1 = x / 1.6;
  while (x1 != x) {
    x = x1;
    x1 = x / 1.6;
  }
  __VERIFIER_assert(x == 0);
  return 0;
}
