/* A pointer just past one object may equal a pointer to the start of another (C11
   6.5.9p6): whether it does is the compiler's layout. */
extern void __VERIFIER_assert(int);
int a, b;
int main(void) {
  __VERIFIER_assert(&a + 1 != &b);
  return 0;
}
