/* The end of v's block ends its life: no stack fact may claim it is live afterwards, so the
 * write in the loop stays an unproven invalid write (UNKNOWN), never TRUE. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int *q;
  {
    int v = 0;
    q = &v;
  }
  while (__VERIFIER_nondet_int()) {
    *q = 1;
    __VERIFIER_assert(*q == 1);
  }
  return 0;
}
