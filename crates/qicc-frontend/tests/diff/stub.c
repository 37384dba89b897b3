/* The environment of a benchmark program compiled with gcc for differential tests against the
 * qicc front-end + interpreter. Program inputs (__VERIFIER_nondet_*) come from the same
 * generator as qicc_interp::RandomOracle's input stream (SplitMix64, seeded from QICC_SEED),
 * so that both sides see the same inputs in the same order. Property violations and failed
 * assumptions end the process with a marker on stderr and a distinctive exit code. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

#define QICC_ERROR_CODE 99
#define QICC_BLOCKED_CODE 98

static uint64_t qicc_state;
static int qicc_seeded;

static uint64_t qicc_next(void) {
  uint64_t z;
  qicc_state += 0x9E3779B97F4A7C15ULL;
  z = qicc_state;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

static const uint64_t qicc_edge[12] = {0, 1, 2, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0xffff,
                                       0x7fffffff, 0x80000000, 0xffffffff};

static void qicc_seed(void) {
  if (!qicc_seeded) {
    const char *s = getenv("QICC_SEED");
    qicc_state = s ? strtoull(s, 0, 10) : 0;
    qicc_seeded = 1;
  }
}

static uint64_t qicc_value(void) {
  uint64_t r, v;
  qicc_seed();
  r = qicc_next();
  v = qicc_next();
  switch (r % 8) {
  case 0: case 1: case 2: case 3: return (uint64_t)((int64_t)(v % 33) - 16);
  case 4: case 5: return qicc_edge[v % 12];
  default: return v;
  }
}

/* SplitMix64::float_value: the same draws, as bits of a float of width w. */
static const uint32_t qicc_f32_edge[16] = {
    0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x3f800000u,
    0xbf800000u, 0x3dcccccdu, 0x4b800000u, 0x4b800001u, 0x4f000000u, 0xcf000000u,
    0x7f7fffffu, 0x00800000u, 0x00000001u, 0x3f000000u};
static const uint64_t qicc_f64_edge[16] = {
    0x0000000000000000ull, 0x8000000000000000ull, 0x7ff0000000000000ull,
    0xfff0000000000000ull, 0x7ff8000000000000ull, 0x3ff0000000000000ull,
    0xbff0000000000000ull, 0x3fb999999999999aull, 0x4170000010000000ull,
    0x4340000000000001ull, 0x41dfffffffc00000ull, 0xc1e0000000000000ull,
    0x7fefffffffffffffull, 0x0010000000000000ull, 0x0000000000000001ull,
    0x3fe0000000000000ull};

static uint64_t qicc_float_value(int single) {
  uint64_t r, v;
  qicc_seed();
  r = qicc_next();
  v = qicc_next();
  switch (r % 8) {
  case 0: case 1: case 2: case 3: {
    double x = (double)((int64_t)(v % 33) - 16) / (double)(1ull << ((v >> 32) % 4));
    if (single) {
      float f = (float)x;
      uint32_t b;
      memcpy(&b, &f, 4);
      return b;
    } else {
      uint64_t b;
      memcpy(&b, &x, 8);
      return b;
    }
  }
  case 4: case 5: return single ? qicc_f32_edge[v % 16] : qicc_f64_edge[v % 16];
  default: return single ? (v & 0xffffffffu) : v;
  }
}

static void qicc_end(const char *marker, int len, int code) {
  write(2, marker, len);
  _exit(code);
}

void reach_error(void) { qicc_end("QICC_ERROR\n", 11, QICC_ERROR_CODE); }
void __VERIFIER_error(void) { qicc_end("QICC_ERROR\n", 11, QICC_ERROR_CODE); }
void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  qicc_end("QICC_ERROR\n", 11, QICC_ERROR_CODE);
}
void __VERIFIER_assume(int c) { if (!c) qicc_end("QICC_BLOCKED\n", 13, QICC_BLOCKED_CODE); }
__attribute__((weak)) void __VERIFIER_assert(int c) { if (!c) reach_error(); }

_Bool __VERIFIER_nondet_bool(void) { return (qicc_value() & 0xff) != 0; }
char __VERIFIER_nondet_char(void) { return (char)qicc_value(); }
signed char __VERIFIER_nondet_schar(void) { return (signed char)qicc_value(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)qicc_value(); }
short __VERIFIER_nondet_short(void) { return (short)qicc_value(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)qicc_value(); }
int __VERIFIER_nondet_int(void) { return (int)qicc_value(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)qicc_value(); }
unsigned int __VERIFIER_nondet_unsigned(void) { return (unsigned int)qicc_value(); }
unsigned int __VERIFIER_nondet_unsigned_int(void) { return (unsigned int)qicc_value(); }
long __VERIFIER_nondet_long(void) { return (long)qicc_value(); }
unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)qicc_value(); }
long long __VERIFIER_nondet_longlong(void) { return (long long)qicc_value(); }
unsigned long long __VERIFIER_nondet_ulonglong(void) { return (unsigned long long)qicc_value(); }
void *__VERIFIER_nondet_pointer(void) { return (void *)(uintptr_t)qicc_value(); }
char *__VERIFIER_nondet_pchar(void) { return (char *)(uintptr_t)qicc_value(); }
unsigned long __VERIFIER_nondet_size_t(void) { return (unsigned long)qicc_value(); }
unsigned char __VERIFIER_nondet_u8(void) { return (unsigned char)qicc_value(); }
unsigned short __VERIFIER_nondet_u16(void) { return (unsigned short)qicc_value(); }
unsigned int __VERIFIER_nondet_u32(void) { return (unsigned int)qicc_value(); }
unsigned long long __VERIFIER_nondet_u64(void) { return (unsigned long long)qicc_value(); }
long __VERIFIER_nondet_loff_t(void) { return (long)qicc_value(); }
float __VERIFIER_nondet_float(void) {
  uint32_t b = (uint32_t)qicc_float_value(1);
  float f;
  memcpy(&f, &b, 4);
  return f;
}
double __VERIFIER_nondet_double(void) {
  uint64_t b = qicc_float_value(0);
  double d;
  memcpy(&d, &b, 8);
  return d;
}
