/* Writes through the addresses of locals inside an unbounded loop: the region proves them
 * valid and distinct only with the stack facts injected at its head. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
void set(int *p, int x) { *p = x; }
int main(void) {
  int a, b;
  while (__VERIFIER_nondet_int()) {
    set(&a, 1);
    set(&b, 2);
    __VERIFIER_assert(a == 1 && b == 2);
  }
  return 0;
}
