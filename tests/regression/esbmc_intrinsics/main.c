/* An ESBMC harness: undeclared nondet_int() is an input of type int, __ESBMC_assume and
   __ESBMC_assert as ESBMC defines them. */
int main(void) {
  int x = nondet_int();
  __ESBMC_assume(x >= 0 && x < 10);
  __ESBMC_assert(x * x < 100, "square below 100");
  __ESBMC_assert(x != 7, "x is not 7");
  return 0;
}
