/* A counterexample in the program's terms: fields and indices, characters, pointers as
 * &buf[1], a heap object typed by the pointer that holds it, a library call as one step with
 * its result, _Bool inputs as 0/1; no temporaries, no passing side of UB checks. */
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern void __VERIFIER_assert(int);
struct pt {
  int x;
  char name[4];
  struct pt *next;
};
int main(void) {
  struct pt a[2];
  char buf[8] = "hi";
  _Bool b = __VERIFIER_nondet_bool();
  int i = __VERIFIER_nondet_int();
  if (i < 0 || i > 1)
    return 0;
  a[i].x = 5;
  a[i].name[2] = 'q';
  a[1 - i].next = &a[i];
  struct pt *h = malloc(2 * sizeof *h);
  if (!h)
    return 0;
  h[1].x = 7;
  size_t n = strlen(buf);
  char *p = &buf[1];
  __VERIFIER_assert(!(b && n == 2 && p[0] == 'i' && a[i].name[2] == 'q'));
  free(h);
  return 0;
}
