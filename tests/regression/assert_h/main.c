#include <assert.h>
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  unsigned char c = __VERIFIER_nondet_uchar();
  int widened = c + 1;          /* int arithmetic: never wraps at 255 */
  assert(widened > c);
  unsigned char narrow = c + 1; /* truncated back to 8 bits: wraps */
  assert(narrow > c);
  return 0;
}
