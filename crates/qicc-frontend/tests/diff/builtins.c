/* GCC's builtins (builtin.rs, the bit models of clib_models.c) against gcc: bit operations on
 * inputs and their edge values (0 is skipped for clz/ctz, undefined there), checked
 * arithmetic in every form and mix of types the front-end models, constant_p of a constant
 * (of anything else it is the compiler's choice, which qicc leaves open: not comparable). Not __builtin_object_size: gcc 12 at -O0 still knows
 * the size of a local's address (4 for &int), where qicc gives the documented "unknown"
 * answer ((size_t)-1, or 0 for types 2 and 3), which gcc gives wherever it cannot see. */
#include <strings.h>
extern int __VERIFIER_nondet_int(void);
extern unsigned __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);

static unsigned h = 0;
static void mix(unsigned long long v) { h = h * 31u + (unsigned)v + (unsigned)(v >> 32); }

static unsigned long long pick(void) {
  switch (__VERIFIER_nondet_int() & 7) {
  case 0: return 0;
  case 1: return 1;
  case 2: return 0x8000000000000000ULL;
  case 3: return 0xffffffffffffffffULL;
  case 4: return 0x80000000ULL;
  case 5: return 0x7fffffffULL;
  default: return ((unsigned long long)__VERIFIER_nondet_uint() << 32) | __VERIFIER_nondet_uint();
  }
}

int main(void) {
  for (int k = 0; k < 4; k++) {
    unsigned long long x = pick();
    unsigned u = (unsigned)x;
    long l = (long)x;
    mix(__builtin_bswap16((unsigned short)x));
    mix(__builtin_bswap32(u));
    mix(__builtin_bswap64(x));
    mix(__builtin_popcount(u));
    mix(__builtin_popcountl((unsigned long)l));
    mix(__builtin_popcountll(x));
    mix(__builtin_parity(u));
    mix(__builtin_parityll(x));
    mix(__builtin_ffs((int)u));
    mix(__builtin_ffsl(l));
    mix(__builtin_ffsll((long long)x));
    mix(ffs((int)u));
    mix(__builtin_clrsb((int)u));
    mix(__builtin_clrsbl(l));
    mix(__builtin_clrsbll((long long)x));
    if (u != 0) { mix(__builtin_clz(u)); mix(__builtin_ctz(u)); }
    if (l != 0) { mix(__builtin_clzl((unsigned long)l)); mix(__builtin_ctzl((unsigned long)l)); }
    if (x != 0) { mix(__builtin_clzll(x)); mix(__builtin_ctzll(x)); }
    int a = (int)u, b = (int)(x >> 32);
    unsigned ua = u, ub = (unsigned)(x >> 32);
    long long la = (long long)x, lb = (long long)pick();
    int ri; unsigned ru; long long rl; unsigned long long rul; short rs; unsigned char rc;
    mix(__builtin_add_overflow(a, b, &ri)); mix(ri);
    mix(__builtin_sub_overflow(a, b, &ri)); mix(ri);
    mix(__builtin_mul_overflow(a, b, &ri)); mix(ri);
    mix(__builtin_add_overflow(ua, ub, &ru)); mix(ru);
    mix(__builtin_sub_overflow(ua, ub, &ru)); mix(ru);
    mix(__builtin_mul_overflow(ua, ub, &ru)); mix(ru);
    mix(__builtin_add_overflow(la, lb, &rl)); mix(rl);
    mix(__builtin_mul_overflow(la, lb, &rl)); mix(rl);
    mix(__builtin_sub_overflow((unsigned long long)la, (unsigned long long)lb, &rul)); mix(rul);
    mix(__builtin_mul_overflow((unsigned long long)la, (unsigned long long)lb, &rul)); mix(rul);
    mix(__builtin_add_overflow(a, ub, &rs)); mix(rs);
    mix(__builtin_sub_overflow(ua, b, &rc)); mix(rc);
    mix(__builtin_mul_overflow(ua, ub, &rl)); mix(rl);
    mix(__builtin_mul_overflow(a, ub, &rl)); mix(rl);
    mix(__builtin_mul_overflow(ua, ub, &rul)); mix(rul);
    mix(__builtin_sub_overflow(ua, ub, &rl)); mix(rl);
    mix(__builtin_sub_overflow(ua, ub, &rul)); mix(rul);
    mix(__builtin_sadd_overflow(a, b, &ri)); mix(ri);
    mix(__builtin_umull_overflow((unsigned long)ua, (unsigned long)ub, (unsigned long *)&rul)); 
    mix(__builtin_smulll_overflow(la, lb, &rl)); mix(rl);
    mix(__builtin_uaddll_overflow((unsigned long long)la, (unsigned long long)lb, &rul)); mix(rul);
    mix(__builtin_mul_overflow_p(a, b, (short)0));
    mix(__builtin_add_overflow_p(ua, ub, (unsigned char)0));
  }
  mix(__builtin_constant_p(42));
  mix(__builtin_choose_expr(1, 7, 8));
  mix(__builtin_choose_expr(0, 7, 8));
  return (int)(h % 251);
}
