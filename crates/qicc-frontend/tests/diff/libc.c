/* The C library models (clib_models.c) against glibc: strings over a small alphabet built from
 * the inputs go through <string.h>, <stdlib.h> and <ctype.h>; comparisons are reduced to their
 * sign (C specifies only the sign, and gcc folds calls with constant arguments to -1/0/1). */
#define _GNU_SOURCE
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

static int by_value(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  return (a > b) - (a < b);
}

/* Orders by the low byte only, so equal elements keep their order in a stable sort. */
static int by_low_byte(const void *x, const void *y) {
  return (*(const int *)x & 0xff) - (*(const int *)y & 0xff);
}

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
  h = h * 31 + (unsigned)sign(strcasecmp(a, b)) + 3u * (unsigned)sign(strncasecmp(a, b, 2));
  strcpy(buf, a);
  strcat(buf, "-");
  strcat(buf, b);
  for (char *t = strtok(buf, " -9"); t; t = strtok(0, " -9"))
    h = h * 31 + (unsigned)strlen(t) + (unsigned)(t - buf);
  strcpy(buf, b);
  char *save = 0;
  for (char *t = strtok_r(buf, "xZ", &save); t; t = strtok_r(0, "xZ", &save))
    h = h * 31 + (unsigned)(t - buf);
  strcpy(buf, a);
  char *rest = buf;
  for (char *t; (t = strsep(&rest, "a+")) != 0;)
    h = h * 31 + (unsigned)strlen(t);
  h = h * 31 + (unsigned)(strchrnul(b, 'f') - b);
  memset(buf, '.', sizeof buf);
  p = memccpy(buf, a, 'Z', 6);
  h = h * 31 + (unsigned)(p ? p - buf : 94) + (unsigned)buf[3];
  int arr[6], keys[6];
  for (int i = 0; i < 6; i++) {
    arr[i] = __VERIFIER_nondet_int() % 5;
    keys[i] = (__VERIFIER_nondet_int() & 0x300) | (i & 3);
  }
  qsort(arr, 6, sizeof arr[0], by_value);
  qsort(keys, 6, sizeof keys[0], by_low_byte);
  for (int i = 0; i < 6; i++)
    h = h * 31 + (unsigned)arr[i] + 7u * (unsigned)keys[i];
  int want = __VERIFIER_nondet_int() % 5;
  int *found = bsearch(&want, arr, 6, sizeof arr[0], by_value);
  h = h * 31 + (unsigned)(found ? found - arr : 93);
  int x = __VERIFIER_nondet_int();
  if (x != -2147483647 - 1)
    h = h * 31 + (unsigned)abs(x);
  return (int)(h & 0xff);
}
