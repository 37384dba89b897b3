/* <ctype.h> through glibc's macros (__ctype_b_loc) and strtol with an end pointer. */
#include <ctype.h>
#include <stdlib.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  unsigned char d = __VERIFIER_nondet_uchar();
  char s[4] = {'-', (char)d, '7', 0};
  char *end = 0;
  long v = strtol(s, &end, 10);
  if (isdigit(d)) {
    __VERIFIER_assert(v == -((d - '0') * 10 + 7) && end == s + 3);
  } else {
    __VERIFIER_assert(v == 0 && end == s);
  }
  __VERIFIER_assert(toupper(tolower(d)) == toupper(d));
  __VERIFIER_assert(!isalpha(d) || isalnum(d));
  return 0;
}
