/* Variadic function definitions against gcc (both data models): va_start/va_arg/va_end,
 * va_copy, a va_list passed on to another function, the default argument promotions (char,
 * short, float), long long, pointers and structs among the variable arguments. */
#include <stdarg.h>
extern int __VERIFIER_nondet_int(void);

struct pair { short a; long long b; };
static unsigned h = 11;
static void mix(long long v) { h = (h ^ (unsigned)v ^ (unsigned)(v >> 32)) * 0x9E3779B1u; }

static long long vsum(int n, va_list ap) {
  long long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  return s;
}

static long long sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long long s = vsum(n, ap);
  va_end(ap);
  return s;
}

/* Each letter of fmt names the next argument's type. */
static double walk(const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  double r = 0;
  for (const char *p = fmt; *p; p++) {
    switch (*p) {
    case 'i': r = r * 3 + va_arg(ap, int); break;
    case 'u': r = r * 3 + va_arg(ap, unsigned); break;
    case 'L': r = r * 3 + (double)va_arg(ap, long long); break;
    case 'd': r = r * 3 + va_arg(ap, double); break;
    case 'p': r = r * 3 + *va_arg(ap, int *); break;
    case 's': { struct pair q = va_arg(ap, struct pair); r = r * 3 + q.a + (double)q.b; } break;
    }
  }
  if (*fmt == 'i')
    r += va_arg(again, int);
  va_end(again);
  va_end(ap);
  return r;
}

int main(void) {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  char c = (char)x;
  short s = (short)y;
  float f = (float)(x % 1000) / 8;
  int cell = x ^ y;
  struct pair pr = {(short)(x + 1), (long long)y * 100000};
  mix(sum(0));
  mix(sum(3, x, y, c));
  mix(sum(2, s, c));
  mix((long long)walk("iud", x, (unsigned)y, f));
  mix((long long)walk("Lpsi", (long long)x * y, &cell, pr, c));
  mix((long long)walk("sdi", pr, 2.5, s));
  return (int)(h & 0xff);
}
