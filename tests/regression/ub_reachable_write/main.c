/* The write a[i] with i == 5 is outside the array: reachable undefined behaviour. The
 * assertion holds (the write never lands in a[0]), but the verdict must be UNKNOWN, and the
 * SARIF log carries the write as a warning. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
int a[2];
int main(void) {
  int i = __VERIFIER_nondet_int();
  if (i == 5) a[i] = 1;
  __VERIFIER_assert(a[0] == 0);
  return 0;
}
