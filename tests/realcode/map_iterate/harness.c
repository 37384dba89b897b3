/* rxi/map: iteration visits every key once (a nondeterministic number of distinct keys). */
#include "map.h"
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  static const char *keys[] = {"k0", "k1", "k2", "k3"};
  map_int_t m;
  map_init(&m);
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 0 && n <= 4);
  for (int i = 0; i < n; i++)
    map_set(&m, keys[i], i);
  int count = 0, sum = 0;
  const char *key;
  map_iter_t it = map_iter(&m);
  while ((key = map_next(&m, &it))) {
    count++;
    sum += *map_get(&m, key);
  }
  __VERIFIER_assert(count == n);
  __VERIFIER_assert(sum == n * (n - 1) / 2);
  map_deinit(&m);
  return 0;
}
