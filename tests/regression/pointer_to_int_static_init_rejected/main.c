/* An object's address as an integer in a static initialiser: its value is the compiler's
   layout, which no verdict may rest on; where no check can be placed (before main runs),
   the input is rejected, never given the model's object number. */
extern void __VERIFIER_assert(int);
int g;
unsigned long a = (unsigned long)&g;
int main(void) {
  __VERIFIER_assert(a % 64 == 0);
  return 0;
}
