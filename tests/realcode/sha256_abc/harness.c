/* crypto-algorithms SHA-256: the FIPS 180-2 test vector "abc", fed in one call or split at a
 * nondeterministic point (the result must not depend on how the input is split). */
#include <string.h>
#include "sha256.h"
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void __VERIFIER_assert(int);
int main(void) {
  static const BYTE expect[32] = {
      0xba, 0x78, 0x16, 0xbf, 0x8f, 0x01, 0xcf, 0xea, 0x41, 0x41, 0x40, 0xde, 0x5d, 0xae, 0x22, 0x23,
      0xb0, 0x03, 0x61, 0xa3, 0x96, 0x17, 0x7a, 0x9c, 0xb4, 0x10, 0xff, 0x61, 0xf2, 0x00, 0x15, 0xad};
  const BYTE text[] = "abc";
  unsigned split = __VERIFIER_nondet_uint();
  __VERIFIER_assume(split <= 3);
  SHA256_CTX ctx;
  BYTE hash[32];
  sha256_init(&ctx);
  sha256_update(&ctx, text, split);
  sha256_update(&ctx, text + split, 3 - split);
  sha256_final(&ctx, hash);
  __VERIFIER_assert(memcmp(hash, expect, 32) == 0);
  return 0;
}
