#include <stdlib.h>
#include <string.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
typedef struct {
  void *(*allocate)(size_t);
  void (*deallocate)(void *);
  void *(*reallocate)(void *, size_t);
} hooks;
static hooks global_hooks = { malloc, free, realloc };
static char *copy(const char *s) {
  size_t n = strlen(s) + 1;
  char *d = global_hooks.allocate(n);
  memcpy(d, s, n);
  return d;
}
int main(void) {
  char *d = copy("abc");
  d = global_hooks.reallocate(d, 8);
  d[4] = 'x';
  int k = __VERIFIER_nondet_int();
  __VERIFIER_assert(d[0] == 'a' && (k != 3 || d[4] == 'x'));
  __VERIFIER_assert(strlen(d) == 3);
  global_hooks.deallocate(d);
  void *(*z)(size_t, size_t) = calloc;
  int *q = z(2, sizeof(int));
  __VERIFIER_assert(q[1] == 0);
  free(q);
  return 0;
}
