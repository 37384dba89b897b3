/* Variadic function definitions: va_start, va_arg (int, double, long long, a struct, a promoted char and float), va_copy, va_end. */
#include <stdarg.h>
extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
struct pt { int x, y; };
int sum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}
double mix(const char *fmt, ...) {
  va_list ap, aq;
  va_start(ap, fmt);
  va_copy(aq, ap);
  double r = 0;
  for (const char *p = fmt; *p; p++) {
    if (*p == 'd') r += va_arg(ap, double);
    else if (*p == 'i') r += va_arg(ap, int);
    else if (*p == 'l') r += (double)va_arg(ap, long long);
    else if (*p == 's') { struct pt q = va_arg(ap, struct pt); r += q.x * q.y; }
    else if (*p == 'c') r += va_arg(ap, int);
  }
  r += va_arg(aq, double);
  va_end(aq);
  va_end(ap);
  return r;
}
int main(void) {
  int a = __VERIFIER_nondet_int();
  __VERIFIER_assert(sum(3, 1, 2, a) == 3 + a);
  __VERIFIER_assert(sum(0) == 0);
  struct pt p = {3, 4};
  char c = 2; float f = 0.5f;
  __VERIFIER_assert(mix("dilsc", f, 10, 100LL, p, c) == 0.5 + 10 + 100 + 12 + 2 + 0.5);
  __VERIFIER_assert(sum(2, a, a) != 10);
  return 0;
}
