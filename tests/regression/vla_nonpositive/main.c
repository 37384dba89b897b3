extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

/* The size may be 0 or negative: a variable-length array of that size is undefined behaviour
 * (C99 6.7.6.2p5), so the program is not TRUE even though the assertion holds. */
int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n < 10);
  int a[n];
  if (sizeof a > 40)
    reach_error();
  return 0;
}
