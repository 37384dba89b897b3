/* inih: parsing "[s]\nK=V\n" where K and V are one nondeterministic letter or digit each calls
 * the handler once, with section "s" and the key and value the text holds (whitespace
 * stripped), and reports no error. */
#include <string.h>
#include "ini.h"
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
struct seen { int calls; char name[4], value[4], section[4]; };
static int handler(void *user, const char *section, const char *name, const char *value) {
  struct seen *s = user;
  s->calls++;
  strncpy(s->section, section, 3);
  strncpy(s->name, name, 3);
  strncpy(s->value, value, 3);
  return 1;
}
static int plain(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
int main(void) {
  char text[] = "[s]\nK = V\n";
  char k = __VERIFIER_nondet_char(), v = __VERIFIER_nondet_char();
  __VERIFIER_assume(plain(k) && plain(v));
  text[4] = k;
  text[8] = v;
  struct seen s = {0};
  int r = ini_parse_string(text, handler, &s);
  __VERIFIER_assert(r == 0);
  __VERIFIER_assert(s.calls == 1);
  __VERIFIER_assert(strcmp(s.section, "s") == 0);
  __VERIFIER_assert(s.name[0] == k && s.name[1] == 0);
  __VERIFIER_assert(s.value[0] == v && s.value[1] == 0);
  return 0;
}
