/* The environment of a benchmark program compiled with gcc for differential tests against the
 * qicc front-end + interpreter. Program inputs (__VERIFIER_nondet_*) come from the same
 * generator as qicc_interp::RandomOracle's input stream (SplitMix64, seeded from QICC_SEED),
 * so that both sides see the same inputs in the same order. Property violations and failed
 * assumptions end the process with a marker on stderr and a distinctive exit code. */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

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

static uint64_t qicc_value(void) {
  uint64_t r, v;
  if (!qicc_seeded) {
    const char *s = getenv("QICC_SEED");
    qicc_state = s ? strtoull(s, 0, 10) : 0;
    qicc_seeded = 1;
  }
  r = qicc_next();
  v = qicc_next();
  switch (r % 8) {
  case 0: case 1: case 2: case 3: return (uint64_t)((int64_t)(v % 33) - 16);
  case 4: case 5: return qicc_edge[v % 12];
  default: return v;
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
