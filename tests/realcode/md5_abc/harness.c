/* crypto-algorithms MD5: the RFC 1321 test vector "abc" (900150983cd24fb0d6963f7d28e17f72). */
#include <string.h>
#include "md5.h"
extern void __VERIFIER_assert(int);
int main(void) {
  static const BYTE expect[16] = {0x90, 0x01, 0x50, 0x98, 0x3c, 0xd2, 0x4f, 0xb0,
                                  0xd6, 0x96, 0x3f, 0x7d, 0x28, 0xe1, 0x7f, 0x72};
  MD5_CTX ctx;
  BYTE hash[16];
  md5_init(&ctx);
  md5_update(&ctx, (const BYTE *)"abc", 3);
  md5_final(&ctx, hash);
  __VERIFIER_assert(memcmp(hash, expect, 16) == 0);
  return 0;
}
