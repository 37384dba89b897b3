/* Ordering or subtracting pointers into different objects is undefined (C11 6.5.8p5,
   6.5.6p9): the model's object numbers ordered them, gcc may place b below a. */
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int a, b;
int main(void) {
  if (__VERIFIER_nondet_int())
    __VERIFIER_assert(&a < &b);
  __VERIFIER_assert(&b - &a != 0);
  return 0;
}
