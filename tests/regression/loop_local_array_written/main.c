extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
/* A loop-local array written before it is read: still provable. */
int main(void) {
  int i;
  for (i = 0; i < 4; i++) {
    int a[2];
    a[0] = i;
    a[1] = a[0] + 1;
    __VERIFIER_assert(a[1] == i + 1);
  }
  return 0;
}
