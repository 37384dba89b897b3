/* A program's own strlen is not the library's: it is verified like any other function. */
#include <stddef.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
size_t strlen(const char *s) {
  size_t n = 0;
  while (s[n] != 0) n++;
  return n;
}
int main(void) {
  char s[4] = {'a', 'b', 'c', 0};
  unsigned char a = __VERIFIER_nondet_uchar();
  s[1] = (char)a;
  __VERIFIER_assert(strlen(s) == 3 || a == 0);
  return 0;
}
