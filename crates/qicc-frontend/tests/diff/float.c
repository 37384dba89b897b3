/* Floating point against gcc (SSE arithmetic on both data models): float and double inputs
 * (edge values: signed zeros, infinities, NaN, subnormals, 2^24 + 1, 2^31, the largest
 * finite), the usual arithmetic conversions, conversions between floats and every integer
 * type (guarded: out of range is undefined), compound assignments, ++/--, floats in memory
 * (arrays, structs, unions, through pointers), functions taking and returning floats,
 * constants (hex, suffixes, folded static initialisers) and the exact <math.h> functions.
 * Results are hashed by their bits, NaNs as one value: x86 and qicc choose different NaN
 * bits (qicc_ir::semantics::float). */
#include <math.h>
#include <string.h>
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);

static unsigned int h = 7;
/* Every bit of v reaches the low byte (the exit status): float bits differ in high bits. */
static void mix(unsigned long long v) {
  h ^= (unsigned int)v;
  h *= 0x9E3779B1u;
  h ^= h >> 15;
  h ^= (unsigned int)(v >> 32);
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
}
static void mixf(float f) {
  union { float f; unsigned int u; } c;
  if (isnan(f)) { mix(0xdead); return; }
  c.f = f;
  mix(c.u);
}
static void mixd(double d) {
  unsigned long long u;
  if (isnan(d)) { mix(0xbeef); return; }
  memcpy(&u, &d, sizeof u);
  mix(u);
}

/* Guarded conversions: the range check C requires before converting. */
static int to_int(double d) { return d > -2147483649.0 && d < 2147483648.0 ? (int)d : 0x5a5a; }
static unsigned to_uint(double d) { return d > -1.0 && d < 4294967296.0 ? (unsigned)d : 77u; }
static long long to_ll(double d) {
  return d >= -9223372036854775808.0 && d < 9223372036854775808.0 ? (long long)d : 5;
}
static unsigned long long to_ull(float f) {
  return f > -1.0f && f < 18446744073709551616.0f ? (unsigned long long)f : 6;
}
static signed char to_schar(float f) { return f > -129.0f && f < 128.0f ? (signed char)f : 9; }
static unsigned short to_ushort(double d) { return d > -1 && d < 65536 ? (unsigned short)d : 3; }

struct S { char c; double d; float f; short s; };
static double g_third = 1.0 / 3.0;
static float g_arr[4] = {1.5f, -0x1.8p1f, 1e-40f, 3.4028235e38f};
static const double g_hex = 0x1.fffffffffffffp1023;

static float fsq(float x) { return x * x; }
static double poly(double x, float y) { return (x * x - 2.0 * x) + y; }

int main(void) {
  float a = __VERIFIER_nondet_float();
  float b = __VERIFIER_nondet_float();
  double c = __VERIFIER_nondet_double();
  double d = __VERIFIER_nondet_double();
  int i = __VERIFIER_nondet_int();
  unsigned u = __VERIFIER_nondet_uint();
  long long ll = __VERIFIER_nondet_longlong();
  unsigned long long ull = __VERIFIER_nondet_ulonglong();

  /* Arithmetic in float, in double, and mixed. */
  mixf(a + b); mixf(a - b); mixf(a * b); mixf(a / b);
  mixd(c + d); mixd(c - d); mixd(c * d); mixd(c / d);
  mixd(a + c); mixd(b * d); mixf(a + i); mixd(c - u); mixf(a * 3); mixd(d / 7);
  mixf(-a); mixd(-c); mixf(+b);
  mixd(poly(c, a)); mixf(fsq(b)); mixd(fsq(a) + c);
  /* Comparisons, with NaN. */
  mix(a < b); mix(a <= b); mix(a > b); mix(a >= b); mix(a == b); mix(a != b);
  mix(c < d); mix(c == d); mix(c != d); mix(a < c); mix(i == a); mix(u < d);
  mix(!a); mix(a && c); mix(b || 0); mix(a ? 1 : 2); mix(c ? 3 : 4);
  if (a) mix(11);
  while (c > 1e300) c = c / 2;
  /* Integer to float and back. */
  mixf((float)i); mixd((double)i); mixf((float)u); mixd((double)u);
  mixf((float)ll); mixd((double)ll); mixf((float)ull); mixd((double)ull);
  mixf(16777217); mixd(9007199254740993LL); mixf(2147483647); mixf(4294967295u);
  mix(to_int(a)); mix(to_int(c)); mix(to_uint(b)); mix(to_uint(d)); mix(to_ll(c));
  mix(to_ull(a)); mix(to_schar(b)); mix(to_ushort(d)); mix((_Bool)a); mix((_Bool)c);
  mix(to_int(-0.5)); mix(to_uint(-0.75)); mix(to_int(2147483647.9)); mix(to_int(-2147483648.9));
  /* float <-> double. */
  mixd((double)a); mixf((float)c); mixf((float)(double)b); mixf((float)1e39); mixf((float)1e-46);
  /* Compound assignments and ++/--. */
  {
    float x = a;
    double y = c;
    int k = 5;
    x += 1.5f; mixf(x); x *= b; mixf(x); x -= c; mixf(x); x /= 3; mixf(x);
    y += a; mixd(y); y *= 0.1; mixd(y); y /= b; mixd(y);
    k += 0.5; mix(k); k *= 2.75; mix(k);
    x = a; x++; mixf(x); ++x; mixf(x); x--; mixf(x); y = d; mixd(y--); mixd(--y);
  }
  /* Memory: arrays, structs, pointers. */
  {
    float arr[5];
    struct S s;
    double *pd = &s.d;
    float *pf;
    int k;
    for (k = 0; k < 5; k++) arr[k] = a * k + b;
    for (k = 0; k < 5; k++) mixf(arr[k]);
    pf = &arr[2];
    *pf += 1;
    mixf(pf[0]); mixf(pf[-1]);
    s.c = 1; s.d = c; s.f = a; s.s = 2;
    *pd = *pd * 2;
    mixd(s.d); mixf(s.f); mix(sizeof(struct S)); mix(sizeof(float) + sizeof(double));
    mixd(g_third); mixf(g_arr[0]); mixf(g_arr[1]); mixf(g_arr[2]); mixf(g_arr[3]); mixd(g_hex);
    g_arr[3] *= 2; mixf(g_arr[3]);
  }
  /* Constants. */
  mixf(0.1f); mixd(0.1); mixf(1e-45f); mixd(4.9e-324); mixd(0x1p-1074); mixf(0x1.000002p0f);
  mixf(0x.8p1f); mixd(1e309); mixd(-0.0); mixf(.5f); mixd(5.); mixd(123456789012345678.0);
  mixd(0.1 + 0.2); mixf(0.1f + 0.2f); mixd(1.0 / 0.0); mixd(-1.0 / 0.0);
  /* <math.h>, exactly defined. */
  mixf(fabsf(a)); mixd(fabs(c)); mixd(sqrt(d)); mixf(sqrtf(b));
  mixd(floor(c)); mixd(ceil(c)); mixd(trunc(c)); mixd(round(c)); mixd(rint(c)); mixd(nearbyint(c));
  mixf(floorf(a)); mixf(ceilf(a)); mixf(truncf(a)); mixf(roundf(a)); mixf(rintf(a));
  mixd(fmin(c, d)); mixd(fmax(c, d)); mixf(fminf(a, b)); mixf(fmaxf(a, b));
  mixd(copysign(c, d)); mixf(copysignf(a, b)); mixd(fma(c, d, a)); mixf(fmaf(a, b, a));
  mixd(fmod(c, d)); mixf(fmodf(a, b));
  mix(isnan(a)); mix(isnan(c)); mix(isinf(b) != 0); mix(isinf(d) != 0); mix(isfinite(a));
  mix(isnormal(c)); mix(signbit(a) != 0); mix(signbit(d) != 0); mix(fpclassify(c));
  mix(fpclassify(a)); mix(isless(a, c)); mix(isgreater(c, d)); mix(isunordered(a, b));
  mix(islessgreater(c, d)); mix(islessequal(a, b)); mix(isgreaterequal(b, a));
  mixd(INFINITY); mix(isnan(NAN)); mixf(HUGE_VALF); mixd(HUGE_VAL);
  return (int)(h & 0xff);
}
