/* The <math.h> models of clib_models.c (fdim, remainder, lround/lrint and their long long
 * forms, modf, frexp, nextafter; double and float) against glibc, on edge values (signed
 * zeros, infinities, NaN, subnormals, halves, the largest finite, values near 2^63) and
 * arbitrary bits. Results are hashed by their bits, NaNs as one value (x86 and qicc choose
 * different NaN bits). */
#include <math.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static unsigned int h = 7;
static void mix(unsigned long long v) {
  h ^= (unsigned int)v;
  h *= 0x9E3779B1u;
  h ^= h >> 15;
  h ^= (unsigned int)(v >> 32);
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
}
/* Bits through unions: a whole member written, then the other read. */
static void mixd(double d) {
  union { double d; unsigned long long u; } c;
  if (isnan(d)) { mix(0xbeef); return; }
  c.d = d;
  mix(c.u);
}
static void mixf(float f) {
  union { float f; unsigned int u; } c;
  if (isnan(f)) { mix(0xdead); return; }
  c.f = f;
  mix(c.u);
}

static const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, -2.5, 3.0, 7.25,
  -7.75, 0x1p-1074, -0x1p-1060, 0x1p-1022, 0x1.fffffffffffffp1023, -0x1.fffffffffffffp1023,
  9.2233720368547748e18, -9.2233720368547758e18, 2147483647.5, -2147483648.5, 1e300, 1e-300,
  0x1p52 + 0.5, 6.0, -6.0, 0.1};

static double pick(void) {
  int k = __VERIFIER_nondet_int();
  unsigned n = sizeof edges / sizeof edges[0];
  if (k >= 0 && (unsigned)k < n) return edges[k];
  if (k == -1) return 1.0 / 0.0;
  if (k == -2) return -1.0 / 0.0;
  if (k == -3) return 0.0 / 0.0;
  union { double d; unsigned long long u; } c;
  c.u = __VERIFIER_nondet_ulonglong();
  return c.d;
}

static float pickf(void) {
  int k = __VERIFIER_nondet_int();
  if (k >= 0 && k < 20) return (float)edges[k];
  if (k == 20) return 0x1p-149f;
  if (k == 21) return 0x1.fffffep127f;
  if (k == -1) return 1.0f / 0.0f;
  if (k == -3) return 0.0f / 0.0f;
  union { float f; unsigned int u; } c;
  c.u = __VERIFIER_nondet_uint();
  return c.f;
}

int main(void) {
  for (int round = 0; round < 6; round++) {
    double x = pick(), y = pick();
    float a = pickf(), b = pickf();
    mixd(fdim(x, y));
    mixf(fdimf(a, b));
    mixd(remainder(x, y));
    mixf(remainderf(a, b));
    mix((unsigned long long)lround(x));
    mix((unsigned long long)llround(y));
    mix((unsigned long long)lroundf(a));
    mix((unsigned long long)lrint(x));
    mix((unsigned long long)llrintf(b));
    double ip = 0;
    mixd(modf(x, &ip));
    mixd(ip);
    float fp = 0;
    mixf(modff(a, &fp));
    mixf(fp);
    int e = 0;
    mixd(frexp(y, &e));
    mix((unsigned long long)e);
    mixf(frexpf(b, &e));
    mix((unsigned long long)e);
    mixd(nextafter(x, y));
    mixf(nextafterf(a, b));
  }
  return (int)(h & 0xff);
}
