/* rxi/map, a false property: "a key set under one name is still there after removing another
 * name" fails when the two names are equal. */
#include "map.h"
extern char __VERIFIER_nondet_char(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  map_int_t m;
  map_init(&m);
  char a[2] = {__VERIFIER_nondet_char(), 0}, b[2] = {__VERIFIER_nondet_char(), 0};
  __VERIFIER_assume(a[0] >= 'a' && a[0] <= 'd' && b[0] >= 'a' && b[0] <= 'd');
  map_set(&m, a, 1);
  map_remove(&m, b);
  __VERIFIER_assert(map_get(&m, a) != 0);
  map_deinit(&m);
  return 0;
}
