extern void __VERIFIER_assert(int);
int main(void) {
  const char *s = "hello";
  int n = 0;
  while (s[n]) n++;
  __VERIFIER_assert(n == 5);
  return 0;
}
