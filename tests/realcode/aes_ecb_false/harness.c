/* tiny-AES-c, a false property: "encryption changes the first byte of a block" fails for some
 * value of that byte (the other fifteen fixed, the FIPS-197 key). */
#define AES128 1
#include "aes.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  uint8_t key[16], buf[16];
  for (int i = 0; i < 16; i++) {
    key[i] = (uint8_t)i;
    buf[i] = (uint8_t)(i * 0x11);
  }
  buf[0] = __VERIFIER_nondet_uchar();
  uint8_t first = buf[0];
  struct AES_ctx ctx;
  AES_init_ctx(&ctx, key);
  AES_ECB_encrypt(&ctx, buf);
  __VERIFIER_assert(buf[0] != first);
  return 0;
}
