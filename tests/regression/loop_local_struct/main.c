extern void abort(void);
extern int __VERIFIER_nondet_int(void);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
struct pair { int a; char b; };
int main(void) {
  int i;
  for (i = 0; i < 3; i++) {
    struct pair s;                       /* a fresh object, indeterminate, at every entry */
    int *p = &s.a;
    if (i == 0) { s.a = 7; s.b = 1; }
    else __VERIFIER_assert(*p == 7 || s.b != 1);
  }
  return 0;
}
