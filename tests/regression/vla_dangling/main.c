extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);

/* Each iteration's array is a new object whose life ends at the end of the loop body: the
 * pointer kept from the previous iteration dangles, and writing through it is undefined. */
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 10);
  int *keep = 0;
  for (int i = 0; i < 3; i++) {
    int a[n];
    a[0] = i;
    if (keep)
      *keep = i;
    keep = a;
  }
  return 0;
}
