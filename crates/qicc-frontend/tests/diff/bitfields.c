/* Bit-fields: gcc's layout (packing into units of the declared type, no straddling, zero-width
 * and unnamed fields, unions), reads with sign or zero extension, writes that keep the
 * neighbouring bits (seen through the bytes), compound assignment, ++/--, promotions, static
 * and automatic initialisers. */
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static unsigned int h = 5;
static void mix(unsigned long long v) { h = h * 37u + (unsigned int)v + (unsigned int)(v >> 32); }

enum colour { RED, GREEN, BLUE, WHITE };

struct flags {
  unsigned a : 3;
  int b : 5;
  unsigned char c;
  int d : 20;
  _Bool e : 1;
  enum colour col : 2;
  unsigned : 0;
  unsigned g : 7;
  signed char sc : 3;
  unsigned short us : 9;
};
struct straddle { char x; int y : 30; short z : 10; int w : 3; };
struct unnamed { int a : 4; int : 6; int b : 4; char : 0; char c; };
struct small { char a : 2; char b : 7; };
struct shorts { short a : 9; short b : 9; int c : 16; };
union u { unsigned x : 12; int y : 5; unsigned char bytes[4]; };
struct nested { int n : 4; struct small s; unsigned t : 30; };

struct flags gf = {5, -3, 200, -1000, 1, BLUE, 99, -2, 300};
static struct unnamed gu = {.b = -5, .a = 7, .c = 3};

static void mix_bytes(const void *p, unsigned n) {
  const unsigned char *q = p;
  for (unsigned i = 0; i < n; i++) mix(q[i]);
}

static int bump(struct flags *f) { return ++f->g + f->b--; }

int main(void) {
  mix(sizeof(struct flags));
  mix(sizeof(struct straddle));
  mix(sizeof(struct unnamed));
  mix(sizeof(struct small));
  mix(sizeof(struct shorts));
  mix(sizeof(union u));
  mix(sizeof(struct nested));
  mix(_Alignof(struct flags));
  mix(_Alignof(struct small));

  int n = __VERIFIER_nondet_int();
  unsigned int m = __VERIFIER_nondet_uint();

  struct flags f;
  memset(&f, 0xa5, sizeof f);
  f.a = n;
  f.b = m;
  f.d = n * 7;
  f.e = n;
  f.col = m & 3;
  f.g = n + m;
  f.sc = n;
  f.us = m;
  mix_bytes(&f, sizeof f);
  mix(f.a);
  mix(f.b);
  mix(f.c);
  mix(f.d);
  mix(f.e);
  mix(f.col);
  mix(f.g);
  mix(f.sc);
  mix(f.us);
  mix(f.a - 8 < 0);
  mix(f.us - 1000 < 0);
  mix(sizeof(f.a + 0));
  f.a += 5;
  f.b *= 3;
  f.d -= n;
  f.g <<= 2;
  f.us |= 0x100;
  f.sc ^= 5;
  mix(f.a);
  mix(f.b);
  mix(f.d);
  mix(f.g);
  mix(f.us);
  mix(f.sc);
  mix(f.a++);
  mix(++f.a);
  mix(f.b--);
  mix(--f.b);
  mix(bump(&f));
  mix(f.g);
  mix(f.b);
  mix_bytes(&f, sizeof f);

  /* Padding of an initialised automatic struct is unspecified: bytes are mixed only after a
   * memset. */
  struct straddle s;
  memset(&s, 0, sizeof s);
  s.x = 1;
  s.y = n;
  s.z = (short)m;
  s.w = 3;
  s.z += 100;
  s.y = s.y * 2 + 1;
  mix(s.x);
  mix(s.y);
  mix(s.z);
  mix(s.w);
  mix_bytes(&s, sizeof s);

  /* Fields of types wider than int narrower than their type (long long x : 40) are
   * rejected: gcc computes in the field's own width. */

  mix(gf.a);
  mix(gf.b);
  mix(gf.c);
  mix(gf.d);
  mix(gf.e);
  mix(gf.col);
  mix(gf.g);
  mix(gf.sc);
  mix(gf.us);
  mix_bytes(&gf, sizeof gf);
  mix(gu.a);
  mix(gu.b);
  mix(gu.c);

  union u un;
  memset(&un, 0, sizeof un);
  un.x = m;
  mix(un.y);
  mix(un.bytes[0]);
  mix(un.bytes[1]);
  un.y = -1;
  mix(un.x);

  struct small sm = {n, m};
  mix(sm.a);
  mix(sm.b);
  struct shorts sh = {n, m, n - (int)m};
  mix(sh.a);
  mix(sh.b);
  mix(sh.c);
  struct nested ne = {n, {1, 2}, m};
  ne.s.b = 60;
  mix(ne.n);
  mix(ne.s.a);
  mix(ne.s.b);
  mix(ne.t);
  struct flags copy = f;
  mix(copy.g == f.g && copy.d == f.d);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
