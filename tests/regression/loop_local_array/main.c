extern void abort(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
int main(void) {
  int i = 0;
  while (i < 2) {
    int a[1];
    if (i == 0) a[0] = 5;
    else __VERIFIER_assert(a[0] == 5);      /* a[0] is indeterminate on the second iteration */
    i++;
  }
  return 0;
}
