#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  char *buf = malloc(16);
  buf[0] = 'a';
  if (__VERIFIER_nondet_int())
    exit(1);
  free(buf);
  return 0;
}
