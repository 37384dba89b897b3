/* tiny-AES-c CTR mode: applying the keystream twice gives the plaintext back, for any
 * plaintext of up to 20 bytes (crossing a block boundary). */
#include <string.h>
#define CTR 1
#include "aes.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  uint8_t key[16], iv[16], buf[20], orig[20];
  for (int i = 0; i < 16; i++) {
    key[i] = (uint8_t)(3 * i + 1);
    iv[i] = (uint8_t)(0xf0 + i);
  }
  unsigned len = __VERIFIER_nondet_uint();
  __VERIFIER_assume(len <= 20);
  for (unsigned i = 0; i < len; i++)
    orig[i] = buf[i] = __VERIFIER_nondet_uchar();
  struct AES_ctx ctx;
  AES_init_ctx_iv(&ctx, key, iv);
  AES_CTR_xcrypt_buffer(&ctx, buf, len);
  AES_ctx_set_iv(&ctx, iv);
  AES_CTR_xcrypt_buffer(&ctx, buf, len);
  __VERIFIER_assert(memcmp(buf, orig, len) == 0);
  return 0;
}
