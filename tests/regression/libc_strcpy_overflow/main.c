/* strcpy into a buffer one byte too small: the write of the terminator inside the library's
 * model is undefined behaviour like any other write outside an object. */
#include <string.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  char small[3];
  const char *src = __VERIFIER_nondet_uchar() ? "ab" : "abc";
  strcpy(small, src);
  return small[0];
}
