extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int a = __VERIFIER_nondet_int();
  if (a % 5 == 3) __builtin_unreachable();
  return 0;
}
