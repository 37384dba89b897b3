/* crypto-algorithms base64 with line breaks: the length with newlines is the length without
 * plus one per full 76-character line, and the decoder skips the newlines. */
#include <string.h>
#include "base64.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  BYTE in[60], enc[128], dec[64];
  for (int i = 0; i < 60; i++)
    in[i] = (BYTE)(i * 7 + 1);
  in[17] = __VERIFIER_nondet_uchar();
  size_t plain = base64_encode(in, 0, 60, 0);
  size_t n = base64_encode(in, enc, 60, 1);
  __VERIFIER_assert(plain == 80 && n == 81 && enc[76] == '\n');
  size_t m = base64_decode(enc, dec, n);
  __VERIFIER_assert(m == 60 && memcmp(in, dec, 60) == 0);
  return 0;
}
