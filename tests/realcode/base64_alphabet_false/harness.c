/* crypto-algorithms base64, a false property: "an encoding is letters and digits only" fails
 * on a byte whose top six bits are 62 ('+') or 63 ('/'). */
#include "base64.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  BYTE in[3], enc[8];
  for (int i = 0; i < 3; i++)
    in[i] = __VERIFIER_nondet_uchar();
  base64_encode(in, enc, 3, 0);
  for (int i = 0; i < 4; i++)
    __VERIFIER_assert(enc[i] != '+' && enc[i] != '/');
  return 0;
}
