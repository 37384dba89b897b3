int re_matchp(const char *pattern, const char *text, int *len);
extern void __VERIFIER_assert(int);
int main(void) {
  int len = 0;
  int m = re_matchp("a$", "aa", &len);
  __VERIFIER_assert(m == -1 || len == 1);
  return 0;
}
