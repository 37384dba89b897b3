#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned char a = __VERIFIER_nondet_uchar();
  char s[16];
  strcpy(s, "abc");
  s[1] = (char)a;
  __VERIFIER_assert(strlen(s) == 3 || a == 1);
  __VERIFIER_assert(strcmp(s, "abc") != 0 || a == 'b');
  __VERIFIER_assert(strcmp(s, "a") > 0 || a == 1);
  return 0;
}
