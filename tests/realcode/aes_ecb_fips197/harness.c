/* tiny-AES-c: the FIPS-197 appendix C.1 known answer (AES-128), encryption then decryption. */
#include <string.h>
#define AES128 1
#include "aes.h"
extern void __VERIFIER_assert(int);
int main(void) {
  uint8_t key[16], buf[16];
  static const uint8_t expect[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                     0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
  for (int i = 0; i < 16; i++) {
    key[i] = (uint8_t)i;
    buf[i] = (uint8_t)(i * 0x11);
  }
  struct AES_ctx ctx;
  AES_init_ctx(&ctx, key);
  AES_ECB_encrypt(&ctx, buf);
  __VERIFIER_assert(memcmp(buf, expect, 16) == 0);
  AES_ECB_decrypt(&ctx, buf);
  for (int i = 0; i < 16; i++)
    __VERIFIER_assert(buf[i] == (uint8_t)(i * 0x11));
  return 0;
}
