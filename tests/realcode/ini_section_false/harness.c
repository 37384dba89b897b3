/* inih, a false property: "a line of three arbitrary printable characters never yields a
 * name=value pair" fails ("a=b" does). */
#include "ini.h"
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
static int calls;
static int handler(void *user, const char *section, const char *name, const char *value) {
  calls++;
  return 1;
}
int main(void) {
  char text[5];
  for (int i = 0; i < 3; i++) {
    text[i] = __VERIFIER_nondet_char();
    __VERIFIER_assume(text[i] >= ' ' && text[i] <= '~');
  }
  text[3] = '\n';
  text[4] = 0;
  ini_parse_string(text, handler, 0);
  __VERIFIER_assert(calls == 0);
  return 0;
}
