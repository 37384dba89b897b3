/* Several properties in one run: the overflow comes first, so the run violates no-overflow
   (checking unreach-call alone, the overflow is undefined behaviour before reach_error). */
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = x + 1;
  if (y < x)
    reach_error();
  return 0;
}
