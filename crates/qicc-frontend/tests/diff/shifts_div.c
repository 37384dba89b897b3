/* Division, remainder and shifts on inputs, avoiding the undefined cases. */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern long __VERIFIER_nondet_long(void);
extern char __VERIFIER_nondet_char(void);

static unsigned int h = 3;
static void mix(unsigned long long v) { h = h * 33u ^ (unsigned int)v ^ (unsigned int)(v >> 32); }

int main(void) {
  for (int round = 0; round < 4; round++) {
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    unsigned int ua = __VERIFIER_nondet_uint();
    unsigned int ub = __VERIFIER_nondet_uint();
    long la = __VERIFIER_nondet_long();
    char c = __VERIFIER_nondet_char();
    if (b != 0 && !(a == -2147483647 - 1 && b == -1)) {
      mix(a / b);
      mix(a % b);
    }
    if (ub != 0) {
      mix(ua / ub);
      mix(ua % ub);
      mix(a / (int)(ub | 1) );
    }
    if (c != 0 && !(c == -1 && a == -2147483647 - 1)) {
      mix(a / c);
      mix(c % c);
    }
    mix(a / 7);
    mix(a % -5);
    mix(ua / 3u);
    mix(la / 10);
    mix(la % 3);
    int sh = b & 31;
    mix(ua << sh);
    mix(ua >> sh);
    mix(a >> sh);
    mix(a << (sh & 7));
    mix(c >> 2);
    mix(c << 4);
    mix((unsigned char)c >> 1);
    mix(la >> (sh & 15));
    mix(1u << sh);
    mix(1LL << (sh + 32));
    mix(-1 >> 31);
    mix(0x80000000u >> 31);
    unsigned int x = ua;
    x <<= sh;
    mix(x);
    x >>= 3;
    mix(x);
  }
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
