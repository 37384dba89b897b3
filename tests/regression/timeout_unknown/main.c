/* qicc-study: kernel divmod: signed division and remainder truncate toward zero
 * structure Double 1: two nested loops; the fact and the assertion in the inner body
 * loop bounds: outer large (200 iterations), inner large (200 iterations)
 * expected verdict: true */
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *) __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error(void) { __assert_fail("0", "gen.c", 1, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern void __VERIFIER_assume(int);
void __VERIFIER_assert(int cond) { if (!(cond)) { ERROR: { reach_error(); abort(); } } return; }

int main(void) {
  int n, q, r;
  int qs_i;
  int qs_j;
  for (qs_i = 0; qs_i < 200; qs_i++) {
    for (qs_j = 0; qs_j < 200; qs_j++) {
      n = __VERIFIER_nondet_int();
      __VERIFIER_assume(n >= -10000 && n <= 10000);
      q = n / 7;
      r = n % 7;
      __VERIFIER_assert(q * 7 + r == n && r > -7 && r < 7);
    }
  }
  return 0;
}
