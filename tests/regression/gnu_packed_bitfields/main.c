/* Bit-fields in packed records and with member attributes, laid out as gcc lays them out
 * (checked with gcc and gcc -m32): a packed field starts at the next free bit, a zero-width
 * field still aligns, aligned(N) moves a field to a multiple of N bytes. */
#include <stddef.h>
#include <string.h>
extern void __VERIFIER_assert(int);
/* The bits of byte 4 below h.y (bits 32..38: x's top); gnu_packed_bitfields_false includes
 * y's lowest bit (-D HIGH_MASK=0xff), which is set for odd v. */
#ifndef HIGH_MASK
#define HIGH_MASK 0x7f
#endif
extern int __VERIFIER_nondet_int(void);

struct __attribute__((packed)) A { char c; int x : 4; int y : 30; short z; };
struct __attribute__((packed)) B { char c; int : 0; char d; };
struct __attribute__((packed)) C { char c; unsigned long long x : 64; char d : 3; };
struct D { char c; int x : 4 __attribute__((packed)); int y : 30 __attribute__((packed)); };
struct E { char c; int x : 4 __attribute__((aligned(8))); char d; };
struct F { char c; int x : 20 __attribute__((aligned(2))); };
struct __attribute__((packed)) H { char c; int x : 31; unsigned y : 31; };

int main(void) {
  __VERIFIER_assert(sizeof(struct A) == 8 && _Alignof(struct A) == 1);
  __VERIFIER_assert(sizeof(struct B) == 5 && offsetof(struct B, d) == 4);
  __VERIFIER_assert(sizeof(struct C) == 10 && _Alignof(struct C) == 1);
  __VERIFIER_assert(sizeof(struct D) == 6 && _Alignof(struct D) == 1);
  __VERIFIER_assert(sizeof(struct E) == 16 && offsetof(struct E, d) == 9);
  __VERIFIER_assert(sizeof(struct F) == 8 && _Alignof(struct F) == 4);
  __VERIFIER_assert(sizeof(struct H) == 9);

  int v = __VERIFIER_nondet_int();
  struct A a;
  memset(&a, 0, sizeof a);
  a.c = 1;
  a.x = -3;
  a.y = v;
  a.z = 7;
  unsigned char b[8];
  memcpy(b, &a, sizeof a);
  /* x is bits 8..11, y bits 12..41 (its low 30 bits), z bytes 6..7. */
  __VERIFIER_assert(b[0] == 1 && (b[1] & 15) == 13 && b[6] == 7 && b[7] == 0);
  __VERIFIER_assert(((b[1] >> 4) | (b[2] << 4)) == ((v & 0xfff) ^ 0));
  __VERIFIER_assert(a.x == -3 && a.z == 7);
  __VERIFIER_assert(a.y == ((int)((unsigned)v << 2) >> 2));

  struct H h;
  memset(&h, 0xff, sizeof h);
  h.x = 5;
  h.y = (unsigned)v;
  memcpy(b, (unsigned char *)&h + 1, 8);
  __VERIFIER_assert(b[0] == 5 && b[1] == 0 && b[2] == 0 && (b[3] & HIGH_MASK) == 0);
  __VERIFIER_assert(h.y == ((unsigned)v & 0x7fffffffu) && h.x == 5);

  struct C c;
  memset(&c, 0, sizeof c);
  c.x = 0x8123456789abcdefULL;
  c.d = -1;
  __VERIFIER_assert(c.x == 0x8123456789abcdefULL && c.d == -1);
  return 0;
}
