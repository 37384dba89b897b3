/* The C library models (clib_models.c) against glibc: strings over a small alphabet built from
 * the inputs go through <string.h>, <stdlib.h> and <ctype.h>; comparisons are reduced to their
 * sign (C specifies only the sign, and gcc folds calls with constant arguments to -1/0/1). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);

static const char alphabet[] = "09aZx- +\t7fF";

static void fill(char *s, int n) {
  for (int i = 0; i < n; i++) {
    unsigned v = (unsigned)__VERIFIER_nondet_int();
    s[i] = alphabet[v % (sizeof alphabet - 1)];
  }
  s[n] = 0;
}

static int sign(int r) { return (r > 0) - (r < 0); }

int main(void) {
  char a[8], b[8], buf[32];
  unsigned h = 0;
  memset(a, 0, sizeof a);
  memset(b, 0, sizeof b);
  int na = __VERIFIER_nondet_int() & 7, nb = __VERIFIER_nondet_int() & 7;
  if (na > 6) na = 6;
  if (nb > 6) nb = 6;
  fill(a, na);
  fill(b, nb);
  h = h * 31 + (unsigned)strlen(a);
  h = h * 31 + (unsigned)strnlen(b, 3);
  h = h * 31 + (unsigned)sign(strcmp(a, b));
  h = h * 31 + (unsigned)sign(strncmp(a, b, 2));
  h = h * 31 + (unsigned)sign(memcmp(a, b, 3));
  strcpy(buf, a);
  strcat(buf, b);
  h = h * 31 + (unsigned)strlen(buf);
  strncat(buf, "xyz", 2);
  h = h * 31 + (unsigned)buf[strlen(buf) - 1];
  strncpy(buf, b, 5);
  h = h * 31 + (unsigned)buf[4];
  char *p = strchr(a, 'x');
  h = h * 31 + (unsigned)(p ? p - a : 99);
  p = strrchr(a, '7');
  h = h * 31 + (unsigned)(p ? p - a : 98);
  p = memchr(b, '-', 4);
  h = h * 31 + (unsigned)(p ? p - b : 97);
  p = strstr(a, "a");
  h = h * 31 + (unsigned)(p ? p - a : 96);
  h = h * 31 + (unsigned)strspn(a, "09 ");
  h = h * 31 + (unsigned)strcspn(a, "Zf");
  p = strpbrk(b, "+-");
  h = h * 31 + (unsigned)(p ? p - b : 95);
  char *end = 0;
  long v = strtol(a, &end, 0);
  h = h * 31 + (unsigned)v + (unsigned)(end - a);
  h = h * 31 + (unsigned)strtoul(b, &end, 16) + (unsigned)(end - b);
  h = h * 31 + (unsigned)atoi(b);
  for (int i = 0; i < na; i++)
    h = h * 31 + (unsigned)(!!isdigit(a[i]) + 2 * !!isalpha(a[i]) + 4 * !!isspace(a[i]) +
                            8 * !!isxdigit(a[i]) + 16 * !!isupper(a[i]) + 32 * !!ispunct(a[i])) +
        (unsigned)toupper(a[i]) + (unsigned)tolower(a[i]);
  /* realloc grows an object by copying bytes the old one does not have (indeterminate in C;
   * the interpreter counts reading them as reading uninitialised memory, which would skip the
   * run): so shrink here, and grow in the regression tests. */
  /* The whole "C" locale table, EOF and negative chars included (glibc's macros index it). */
  for (int c = -128; c < 256; c++)
    h = h * 31 + (unsigned)(!!isalnum(c) + 2 * !!isalpha(c) + 4 * !!iscntrl(c) +
                            8 * !!isdigit(c) + 16 * !!isgraph(c) + 32 * !!islower(c) +
                            64 * !!isprint(c) + 128 * !!ispunct(c) + 256 * !!isspace(c) +
                            512 * !!isupper(c) + 1024 * !!isxdigit(c) + 2048 * !!isblank(c)) +
        (unsigned)tolower(c) * 7 + (unsigned)toupper(c);
  char *d = malloc(24);
  memset(d, 'q', 24);
  strcpy(d, a);
  d = realloc(d, 12);
  h = h * 31 + (unsigned)sign(strcmp(d, a)) + (unsigned)d[11];
  free(d);
  d = strdup(b);
  h = h * 31 + (unsigned)strlen(d) + (unsigned)sign(strcmp(d, b));
  free(d);
  d = strndup(a, 2);
  h = h * 31 + (unsigned)strlen(d);
  free(d);
  int x = __VERIFIER_nondet_int();
  if (x != -2147483647 - 1)
    h = h * 31 + (unsigned)abs(x);
  return (int)(h & 0xff);
}
