/* crypto-algorithms base64: decoding an encoding gives the input back, for every input of up
 * to 4 bytes; the encoded length is 4 * ceil(len / 3). */
#include <string.h>
#include "base64.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  BYTE in[4], enc[16], dec[16];
  size_t len = __VERIFIER_nondet_uint();
  __VERIFIER_assume(len >= 1 && len <= 4);
  for (size_t i = 0; i < len; i++)
    in[i] = __VERIFIER_nondet_uchar();
  size_t n = base64_encode(in, enc, len, 0);
  __VERIFIER_assert(n == 4 * ((len + 2) / 3));
  size_t m = base64_decode(enc, dec, n);
  __VERIFIER_assert(m == len);
  __VERIFIER_assert(memcmp(in, dec, len) == 0);
  return 0;
}
