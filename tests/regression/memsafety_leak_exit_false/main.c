#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
static void work(void) {
  char *buf = malloc(16);
  buf[0] = 'a';
}
int main(void) {
  work();
  if (__VERIFIER_nondet_int())
    exit(1);
  return 0;
}
