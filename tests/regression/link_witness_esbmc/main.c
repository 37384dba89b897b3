extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__ ((__nothrow__ , __leaf__)) __attribute__ ((__noreturn__));
void reach_error() { __assert_fail("0", "main.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
void __VERIFIER_assert(int cond) {
  if (!(cond)) {
    ERROR: {reach_error();abort();}
  }
  return;
}
int twice(int x);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = twice(x);
  __VERIFIER_assert(y != 10);
  return 0;
}

/* Two translation units in SV-COMP style: the counterexample crosses into lib.c, and its
 * witness (both files, with their hashes) is validated by ESBMC (crates/qicc-cli/tests/witness.rs). */
