/* A CBMC harness: nondet_T() are inputs, __CPROVER_assume restricts them, and the message of
   __CPROVER_assert names the assertion. (Before: nondet_uint and __CPROVER_assume were unknown
   functions with arbitrary effects, and the first assertion failed.) */
int nondet_int(void);
unsigned nondet_uint();
void __CPROVER_assume(_Bool);
void __CPROVER_assert(_Bool, const char *);
int main(void) {
  int x = nondet_int();
  __CPROVER_assume(x > 0 && x < 100);
  unsigned u = nondet_uint();
  __CPROVER_assert(x + 1 > 1, "x stays positive");
  __CPROVER_assume(u != 7u);
  __CPROVER_assert(u < 4000000000u, "u is small");
  return 0;
}
