/* The twin of relational_step_true: j == 1 every time makes k == 100. */
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main() {
  int i = 0, k = 0;
  while (i < 100) { int j = __VERIFIER_nondet_int(); __VERIFIER_assume(1 <= j && j < 100); i = i + j; k++; }
  __VERIFIER_assert(k <= 99);
  return 0;
}
