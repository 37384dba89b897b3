/* rxi/map: a removed key is gone, the other keys stay, and removing an absent key changes
 * nothing. */
#include "map.h"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  map_int_t m;
  map_init(&m);
  int n = __VERIFIER_nondet_int();
  map_set(&m, "a", n);
  map_set(&m, "b", n + 1);
  map_remove(&m, "x");
  map_remove(&m, "a");
  __VERIFIER_assert(map_get(&m, "a") == 0);
  int *p = map_get(&m, "b");
  __VERIFIER_assert(p != 0 && *p == n + 1);
  map_deinit(&m);
  return 0;
}
