/* tiny-AES-c CBC mode: decrypting an encryption gives the plaintext back; two bytes of the
 * 32-byte plaintext are nondeterministic. */
#include <string.h>
#define CBC 1
#include "aes.h"
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assert(int);
int main(void) {
  uint8_t key[16], iv[16], buf[32], orig[32];
  for (int i = 0; i < 16; i++) {
    key[i] = (uint8_t)(5 * i);
    iv[i] = (uint8_t)i;
  }
  for (int i = 0; i < 32; i++)
    orig[i] = buf[i] = (uint8_t)(i + 100);
  orig[3] = buf[3] = __VERIFIER_nondet_uchar();
  orig[20] = buf[20] = __VERIFIER_nondet_uchar();
  struct AES_ctx ctx;
  AES_init_ctx_iv(&ctx, key, iv);
  AES_CBC_encrypt_buffer(&ctx, buf, 32);
  AES_ctx_set_iv(&ctx, iv);
  AES_CBC_decrypt_buffer(&ctx, buf, 32);
  __VERIFIER_assert(memcmp(buf, orig, 32) == 0);
  return 0;
}
