/* rxi/map: a value set under a key is found under that key, and only there; setting a key
 * again replaces its value. Keys are built from bounded nondeterministic bytes. */
#include <string.h>
#include "map.h"
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  map_int_t m;
  map_init(&m);
  char k1[3], k2[3];
  for (int i = 0; i < 2; i++) {
    k1[i] = __VERIFIER_nondet_char();
    k2[i] = __VERIFIER_nondet_char();
    __VERIFIER_assume(k1[i] >= 'a' && k1[i] <= 'c' && k2[i] >= 'a' && k2[i] <= 'c');
  }
  k1[2] = k2[2] = 0;
  int v = __VERIFIER_nondet_int(), w = __VERIFIER_nondet_int();
  __VERIFIER_assert(map_set(&m, k1, v) == 0);
  __VERIFIER_assert(map_set(&m, k2, w) == 0);
  int *p = map_get(&m, k1);
  __VERIFIER_assert(p != 0);
  __VERIFIER_assert(*p == (strcmp(k1, k2) == 0 ? w : v));
  __VERIFIER_assert(map_get(&m, "zz") == 0);
  map_deinit(&m);
  return 0;
}
