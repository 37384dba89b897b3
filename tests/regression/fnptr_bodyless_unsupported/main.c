/* `ext` has no body and its address is taken: a call through a pointer of its type cannot be
 * modelled faithfully (what would `ext` do?), so it is rejected, located at the call. */
extern int ext(int);
extern int __VERIFIER_nondet_int(void);
static int twice(int x) { return 2 * x; }
int main(void) {
  int (*p)(int) = twice;
  if (__VERIFIER_nondet_int())
    p = ext;
  return p(1);
}
