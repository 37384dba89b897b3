/* The sprintf family and strtod/strtof/atof models (clib_models.c) against glibc: integer,
 * character, string and pointer conversions with flags, widths, precisions (also `*`) and
 * length modifiers on input values, truncation by snprintf, and decimal numbers built from the
 * inputs read back by strtod/strtof (the cases the models round exactly). The exit status
 * hashes every byte written and every returned count. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);

static unsigned h;

static void mix(const char *buf, int n, int r) {
  h = h * 31 + (unsigned)r;
  for (int i = 0; i < n; i++)
    h = h * 131 + (unsigned char)buf[i];
}

/* A variadic wrapper, as logging code writes one: vsnprintf on the caller's va_list. */
static int fmt(char *buf, int n, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  int r = vsnprintf(buf, (size_t)n, f, ap);
  va_end(ap);
  return r;
}

static const char *const ints[] = {
    "%d|%i|%u", "%5d|%-5d|%05d", "%+d|% d|%+.3d", "%.0d|%.0u|%#.0o", "%x|%X|%#x|%#X|%o|%#o",
    "%08.3d|%-8.3x|%#08x|%#-8o", "%hd|%hhd|%hu|%hhx", "[%*d|%-*d|%.*d]",
};
static const char *const longs[] = {"%ld|%lu|%lx", "%lld|%llu|%llX|%#llo", "%zu|%td|%jd"};
static const char *const strs[] = {"[%s]", "[%8s|%-8s]", "[%.2s|%5.1s|%c|%3c|%-3c|%%]"};

int main(void) {
  char buf[128];
  int v = __VERIFIER_nondet_int(), w = __VERIFIER_nondet_int();
  long long L = __VERIFIER_nondet_longlong();
  int k = (unsigned)__VERIFIER_nondet_int() % 8;
  int r;
  memset(buf, '#', sizeof buf);
  if (k == 7)
    r = snprintf(buf, sizeof buf, ints[k], w % 12, v, w % 9, v, w % 5 - 1, v);
  else
    r = snprintf(buf, sizeof buf, ints[k], v, w, v, w, v, w);
  mix(buf, sizeof buf, r);
  int j = (unsigned)w % 3;
  if (j == 0)
    r = sprintf(buf, longs[j], (long)L, (unsigned long)L, (unsigned long)L);
  else if (j == 1)
    r = sprintf(buf, longs[j], L, (unsigned long long)L, (unsigned long long)L,
                (unsigned long long)L);
  else
    r = sprintf(buf, longs[j], (size_t)v, (ptrdiff_t)w, (long long)L);
  mix(buf, r + 1, r);
  char word[8];
  for (int i = 0; i < 7; i++)
    word[i] = "ab c9Z\t"[(unsigned)(v >> (3 * i)) % 7];
  word[(unsigned)w % 8] = 0;
  j = (unsigned)v % 3;
  memset(buf, '#', sizeof buf);
  r = snprintf(buf, (size_t)((unsigned)w % 12), strs[j], word, word, 'q', word[0] | 1, 'z');
  mix(buf, sizeof buf, r);
  r = fmt(buf, 20, "%s=%d;%p;%s", word, v, (void *)0, (char *)0);
  mix(buf, sizeof buf, r);
  /* strtod/strtof/atof on numbers the models round exactly. */
  int digits = (unsigned)v % 10000, frac = (unsigned)w % 1000;
  sprintf(buf, " %s%d.%03de%d", v < 0 ? "-" : "+", digits, frac, (int)((unsigned)w % 8) - 4);
  char *end = 0;
  double d = strtod(buf, &end);
  float f = strtof(buf, 0);
  double a = atof(buf + 1);
  mix((const char *)&d, sizeof d, (int)(end - buf));
  mix((const char *)&f, sizeof f, 0);
  mix((const char *)&a, sizeof a, 0);
  const char *words[] = {"inf", "-Infinity", "nan", "x1", "  .5e", "-0", "1e+", "12abc"};
  d = strtod(words[(unsigned)L % 8], &end);
  mix((const char *)&d, d == d ? sizeof d : 0, (int)(end - words[(unsigned)L % 8]));
  return (int)(h & 0xff);
}
