/* verisec_NetBSD-libc_loop's shape: a program without inputs whose one run compares a
   pointer 5 elements past its array (undefined) before the assertion fails. Natively it
   reaches the error; that is no FALSE (the run had undefined behaviour first), and no
   internal error either (the invariant prover rightly finds no run without it that fails). */
extern void __VERIFIER_assert(int);
int *tmp;
void g(int *b, int *lim) {
  for (int *p = b; p <= lim; p++) {
    __VERIFIER_assert(p <= tmp);
    *p = 1;
  }
}
int main(void) {
  int buf[2];
  tmp = buf + 1;
  g(buf, buf + 7);
  return 0;
}
