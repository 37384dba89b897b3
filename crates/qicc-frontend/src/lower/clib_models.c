/* qicc's models of the C library: the functions of <string.h>, <stdlib.h> and <ctype.h> that
 * programs call, written in plain C and lowered with the program (see clib.rs). A call of
 * `NAME` in a program that does not define `NAME` itself becomes a call of `__qicc_NAME`.
 *
 * Rules for this file (it is parsed in front of every program, before the program's own
 * declarations, so nothing here may depend on them):
 * - every file-scope name starts with `__qicc_` (the prelude defines `__qicc_size_t` for the
 *   data model); nothing here takes the address of a local (`&x`), so no local of a model is
 *   forced into memory;
 * - memory is reached through the front-end's intrinsics under their `__builtin_` names
 *   (`__builtin_malloc`, `__builtin_free`, `__builtin_memcpy`, `__builtin_memset`), which
 *   a program cannot redefine;
 * - reads and writes are ordinary C: an out-of-bounds write inside a model is the same
 *   undefined-behaviour check as anywhere else, and a read past a string's end reads what the
 *   memory model gives there;
 * - results follow glibc on x86 where C leaves them to the implementation: comparisons return
 *   the difference of the first differing bytes as unsigned char, `realloc(p, 0)` frees `p`
 *   and returns a null pointer, the <ctype.h> tables are glibc's "C" locale, `errno` is not
 *   written (a program that reads `errno` is rejected: `__errno_location` is unmodelled).
 * - allocation never fails (as `malloc` in qicc's memory model). */

/* ---- <string.h> ---- */

__qicc_size_t __qicc_strlen(const char *s) {
  __qicc_size_t n = 0;
  while (s[n] != 0)
    n++;
  return n;
}

__qicc_size_t __qicc_strnlen(const char *s, __qicc_size_t max) {
  __qicc_size_t n = 0;
  while (n < max && s[n] != 0)
    n++;
  return n;
}

char *__qicc_strcpy(char *d, const char *s) {
  __qicc_size_t i = 0;
  while ((d[i] = s[i]) != 0)
    i++;
  return d;
}

char *__qicc_stpcpy(char *d, const char *s) {
  __qicc_size_t i = 0;
  while ((d[i] = s[i]) != 0)
    i++;
  return d + i;
}

char *__qicc_strncpy(char *d, const char *s, __qicc_size_t n) {
  __qicc_size_t i = 0;
  for (; i < n && s[i] != 0; i++)
    d[i] = s[i];
  for (; i < n; i++)
    d[i] = 0;
  return d;
}

char *__qicc_strcat(char *d, const char *s) {
  __qicc_strcpy(d + __qicc_strlen(d), s);
  return d;
}

char *__qicc_strncat(char *d, const char *s, __qicc_size_t n) {
  char *e = d + __qicc_strlen(d);
  __qicc_size_t i = 0;
  for (; i < n && s[i] != 0; i++)
    e[i] = s[i];
  e[i] = 0;
  return d;
}

int __qicc_strcmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  __qicc_size_t i = 0;
  while (p[i] != 0 && p[i] == q[i])
    i++;
  return p[i] - q[i];
}

int __qicc_strncmp(const char *a, const char *b, __qicc_size_t n) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  __qicc_size_t i = 0;
  if (n == 0)
    return 0;
  while (i + 1 < n && p[i] != 0 && p[i] == q[i])
    i++;
  return p[i] - q[i];
}

int __qicc_memcmp(const void *a, const void *b, __qicc_size_t n) {
  const unsigned char *p = (const unsigned char *)a;
  const unsigned char *q = (const unsigned char *)b;
  __qicc_size_t i = 0;
  for (; i < n; i++)
    if (p[i] != q[i])
      return p[i] - q[i];
  return 0;
}

int __qicc_bcmp(const void *a, const void *b, __qicc_size_t n) {
  return __qicc_memcmp(a, b, n);
}

char *__qicc_strchr(const char *s, int c) {
  char ch = (char)c;
  __qicc_size_t i = 0;
  for (;; i++) {
    if (s[i] == ch)
      return (char *)(s + i);
    if (s[i] == 0)
      return 0;
  }
}

char *__qicc_strrchr(const char *s, int c) {
  char ch = (char)c;
  const char *last = 0;
  __qicc_size_t i = 0;
  for (;; i++) {
    if (s[i] == ch)
      last = s + i;
    if (s[i] == 0)
      return (char *)last;
  }
}

void *__qicc_memchr(const void *s, int c, __qicc_size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned char ch = (unsigned char)c;
  __qicc_size_t i = 0;
  for (; i < n; i++)
    if (p[i] == ch)
      return (void *)(p + i);
  return 0;
}

void *__qicc_memrchr(const void *s, int c, __qicc_size_t n) {
  const unsigned char *p = (const unsigned char *)s;
  unsigned char ch = (unsigned char)c;
  while (n > 0) {
    n--;
    if (p[n] == ch)
      return (void *)(p + n);
  }
  return 0;
}

char *__qicc_strstr(const char *h, const char *n) {
  __qicc_size_t i = 0;
  for (;; i++) {
    __qicc_size_t j = 0;
    while (n[j] != 0 && h[i + j] == n[j])
      j++;
    if (n[j] == 0)
      return (char *)(h + i);
    if (h[i] == 0)
      return 0;
  }
}

__qicc_size_t __qicc_strspn(const char *s, const char *accept) {
  __qicc_size_t i = 0;
  while (s[i] != 0 && __qicc_strchr(accept, s[i]) != 0)
    i++;
  return i;
}

__qicc_size_t __qicc_strcspn(const char *s, const char *reject) {
  __qicc_size_t i = 0;
  while (s[i] != 0 && __qicc_strchr(reject, s[i]) == 0)
    i++;
  return i;
}

char *__qicc_strpbrk(const char *s, const char *accept) {
  __qicc_size_t i = __qicc_strcspn(s, accept);
  return s[i] != 0 ? (char *)(s + i) : 0;
}

char *__qicc_strdup(const char *s) {
  __qicc_size_t n = __qicc_strlen(s) + 1;
  char *p = (char *)__builtin_malloc(n);
  __builtin_memcpy(p, s, n);
  return p;
}

char *__qicc_strndup(const char *s, __qicc_size_t max) {
  __qicc_size_t n = __qicc_strnlen(s, max);
  char *p = (char *)__builtin_malloc(n + 1);
  __builtin_memcpy(p, s, n);
  p[n] = 0;
  return p;
}

void *__qicc_mempcpy(void *d, const void *s, __qicc_size_t n) {
  __builtin_memcpy(d, s, n);
  return (char *)d + n;
}

void __qicc_bzero(void *d, __qicc_size_t n) { __builtin_memset(d, 0, n); }

void __qicc_explicit_bzero(void *d, __qicc_size_t n) { __builtin_memset(d, 0, n); }

/* ASCII case folding: the "C" locale's, as glibc's str[n]casecmp use it. */
static int __qicc_fold(unsigned char c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; }

int __qicc_strcasecmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  int r;
  while ((r = __qicc_fold(*p) - __qicc_fold(*q)) == 0 && *p != 0) {
    p++;
    q++;
  }
  return r;
}

int __qicc_strncasecmp(const char *a, const char *b, __qicc_size_t n) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (; n != 0; n--, p++, q++) {
    int r = __qicc_fold(*p) - __qicc_fold(*q);
    if (r != 0 || *p == 0)
      return r;
  }
  return 0;
}

/* glibc's algorithm: skip leading delimiters, cut at the next one, remember the rest. */
char *__qicc_strtok_r(char *s, const char *delim, char **save) {
  if (s == 0)
    s = *save;
  s += __qicc_strspn(s, delim);
  if (*s == 0) {
    *save = s;
    return 0;
  }
  char *end = s + __qicc_strcspn(s, delim);
  if (*end == 0) {
    *save = end;
    return s;
  }
  *end = 0;
  *save = end + 1;
  return s;
}

static char *__qicc_strtok_state;

char *__qicc_strtok(char *s, const char *delim) {
  return __qicc_strtok_r(s, delim, &__qicc_strtok_state);
}

char *__qicc_strsep(char **sp, const char *delim) {
  char *begin = *sp;
  if (begin == 0)
    return 0;
  char *end = begin + __qicc_strcspn(begin, delim);
  if (*end != 0) {
    *end = 0;
    *sp = end + 1;
  } else {
    *sp = 0;
  }
  return begin;
}

char *__qicc_strchrnul(const char *s, int c) {
  while (*s != 0 && *s != (char)c)
    s++;
  return (char *)s;
}

void *__qicc_memccpy(void *dst, const void *src, int c, __qicc_size_t n) {
  unsigned char *d = (unsigned char *)dst;
  const unsigned char *s = (const unsigned char *)src;
  for (__qicc_size_t i = 0; i < n; i++) {
    d[i] = s[i];
    if (s[i] == (unsigned char)c)
      return d + i + 1;
  }
  return 0;
}

/* ---- <stdlib.h> ---- */

/* The new object's first bytes are the old object's: copying `n` bytes reads past the end of a
 * smaller old object, where the memory model holds bytes no run wrote (arbitrary), which is
 * what C says the new object's extra bytes are (indeterminate); so the copy is the one
 * memcpy whose source is not checked (`__qicc_copy_indeterminate`, call.rs). Freeing `p`
 * checks, as `free` does, that it is the start of a live object. */
void *__qicc_realloc(void *p, __qicc_size_t n) {
  void *q = 0;
  if (p == 0)
    return __builtin_malloc(n);
  if (n == 0) {
    __builtin_free(p);
    return 0;
  }
  q = __builtin_malloc(n);
  __qicc_copy_indeterminate(q, p, n);
  __builtin_free(p);
  return q;
}

void *__qicc_reallocarray(void *p, __qicc_size_t m, __qicc_size_t n) {
  return __qicc_realloc(p, m * n);
}

/* `-x` overflows for the most negative value: the same undefined-behaviour check as in the
 * program. */
int __qicc_abs(int x) { return x < 0 ? -x : x; }
long __qicc_labs(long x) { return x < 0 ? -x : x; }
long long __qicc_llabs(long long x) { return x < 0 ? -x : x; }

static int __qicc_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'z')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z')
    return c - 'A' + 10;
  return 99;
}

/* The strtol family (C11 7.22.1.4) in the "C" locale: leading white space, an optional sign,
 * the base's prefix, the longest run of digits; on overflow the limit (`max` for positive
 * values; `min_mag` is the magnitude of the most negative one; unsigned conversions negate in
 * the unsigned type and saturate at `max`). */
static unsigned long long __qicc_strto(const char *nptr, char **endptr, int base,
                                       unsigned long long max, unsigned long long min_mag,
                                       int is_unsigned) {
  const char *s = nptr;
  int neg = 0, any = 0, over = 0;
  unsigned long long acc = 0, limit = 0;
  if (base < 0 || base == 1 || base > 36) {
    if (endptr)
      *endptr = (char *)nptr;
    return 0;
  }
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  if (*s == '-') {
    neg = 1;
    s++;
  } else if (*s == '+')
    s++;
  if ((base == 0 || base == 16) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
      __qicc_digit(s[2]) < 16) {
    s += 2;
    base = 16;
  } else if (base == 0)
    base = s[0] == '0' ? 8 : 10;
  limit = is_unsigned || !neg ? max : min_mag;
  for (;; s++) {
    int d = __qicc_digit(*s);
    if (d >= base)
      break;
    any = 1;
    if (over || acc > (limit - d) / base)
      over = 1;
    else
      acc = acc * base + d;
  }
  if (endptr)
    *endptr = (char *)(any ? s : nptr);
  if (over)
    return is_unsigned || !neg ? limit : -limit;
  return neg ? -acc : acc;
}

long __qicc_strtol(const char *s, char **e, int base) {
  unsigned long max = (unsigned long)-1 >> 1;
  return (long)__qicc_strto(s, e, base, max, max + 1ULL, 0);
}

long long __qicc_strtoll(const char *s, char **e, int base) {
  unsigned long long max = (unsigned long long)-1 >> 1;
  return (long long)__qicc_strto(s, e, base, max, max + 1ULL, 0);
}

unsigned long __qicc_strtoul(const char *s, char **e, int base) {
  return (unsigned long)__qicc_strto(s, e, base, (unsigned long)-1, 0, 1);
}

unsigned long long __qicc_strtoull(const char *s, char **e, int base) {
  return __qicc_strto(s, e, base, (unsigned long long)-1, 0, 1);
}

/* glibc: atoi(s) is (int) strtol(s, NULL, 10). */
int __qicc_atoi(const char *s) { return (int)__qicc_strtol(s, 0, 10); }
long __qicc_atol(const char *s) { return __qicc_strtol(s, 0, 10); }
long long __qicc_atoll(const char *s) { return __qicc_strtoll(s, 0, 10); }

/* strtod/strtof (C11 7.22.1.3) in the "C" locale, rounded to nearest as glibc rounds, where
 * one IEEE operation gives that rounding: a decimal significand of at most 19 digits (more
 * only as trailing zeros) times a power of ten, when significand and power are exact in the
 * format (Clinger's fast path: below 2^53 and |exponent| <= 22 for double, 2^24 and 10 for
 * float) or their product is an exact integer below 2^64 (one conversion rounds it); zero,
 * infinities and `nan`/`nan()`. Everything else (hexadecimal floats, longer significands,
 * larger exponents, NaN payloads) is a case the model does not cover: `__qicc_unmodelled()`
 * (reachable: UNKNOWN). `errno` is not written. */
static const double __qicc_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                        1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                        1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

static int __qicc_lower_is(const char *s, const char *word) {
  while (*word != 0) {
    char c = *s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s;
    if (c != *word)
      return 0;
    s++;
    word++;
  }
  return 1;
}

/* The number __qicc_strto_parse read: __qicc_fp_m * 10^__qicc_fp_e, negative if
 * __qicc_fp_neg (globals, so that no local's address is taken). */
static unsigned long long __qicc_fp_m;
static int __qicc_fp_e, __qicc_fp_neg;

/* Parses a number at `nptr` into the __qicc_fp_ globals; sets *endptr. Returns 0: no number
 * (*endptr is nptr); 1: a finite decimal number; 2: infinity; 3: NaN; 4: a form the model
 * does not cover. */
static int __qicc_strto_parse(const char *nptr, char **endptr) {
  const char *s = nptr;
  unsigned long long acc = 0;
  int digits = 0, any = 0, exp = 0, lost = 0;
  __qicc_fp_neg = 0;
  while (*s == ' ' || (*s >= '\t' && *s <= '\r'))
    s++;
  if (*s == '-') {
    __qicc_fp_neg = 1;
    s++;
  } else if (*s == '+')
    s++;
  if (__qicc_lower_is(s, "inf")) {
    s += __qicc_lower_is(s, "infinity") ? 8 : 3;
    if (endptr)
      *endptr = (char *)s;
    return 2;
  }
  if (__qicc_lower_is(s, "nan")) {
    s += 3;
    if (*s == '(' && s[1] == ')')
      s += 2;
    else if (*s == '(')
      return 4;
    if (endptr)
      *endptr = (char *)s;
    return 3;
  }
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    return 4;
  for (; *s >= '0' && *s <= '9'; s++) {
    any = 1;
    if (digits < 19) {
      acc = acc * 10 + (*s - '0');
      digits += acc != 0;
    } else {
      exp++;
      lost |= *s != '0';
    }
  }
  if (*s == '.') {
    s++;
    for (; *s >= '0' && *s <= '9'; s++) {
      any = 1;
      if (digits < 19) {
        acc = acc * 10 + (*s - '0');
        digits += acc != 0;
        exp--;
      } else
        lost |= *s != '0';
    }
  }
  if (!any) {
    if (endptr)
      *endptr = (char *)nptr;
    return 0;
  }
  if (*s == 'e' || *s == 'E') {
    const char *t = s + 1;
    int eneg = 0, ev = 0;
    if (*t == '-') {
      eneg = 1;
      t++;
    } else if (*t == '+')
      t++;
    if (*t >= '0' && *t <= '9') {
      for (; *t >= '0' && *t <= '9'; t++)
        if (ev < 100000)
          ev = ev * 10 + (*t - '0');
      exp += eneg ? -ev : ev;
      s = t;
    }
  }
  if (endptr)
    *endptr = (char *)s;
  /* Trailing zeros into the significand while it stays below 2^64: a number that is an
   * integer below 2^64 is then one with exponent 0. */
  while (exp > 0 && acc != 0 && acc <= 1844674407370955161ULL) {
    acc *= 10;
    exp--;
  }
  __qicc_fp_m = acc;
  __qicc_fp_e = exp;
  return lost ? 4 : 1;
}

double __qicc_strtod(const char *nptr, char **endptr) {
  int kind = __qicc_strto_parse(nptr, endptr);
  unsigned long long m = __qicc_fp_m;
  int e = __qicc_fp_e;
  double r = 0.0;
  switch (kind) {
  case 0:
    return 0.0;
  case 2:
    r = __builtin_inf();
    break;
  case 3:
    r = __builtin_nan("");
    break;
  case 1:
    if (m == 0) {
      r = 0.0;
      break;
    }
    if (e == 0) {
      r = (double)m;
      break;
    }
    if (m <= 9007199254740992ULL && e >= -22 && e <= 22) {
      r = e > 0 ? (double)m * __qicc_pow10[e] : (double)m / __qicc_pow10[-e];
      break;
    }
    __qicc_unmodelled();
    return 0.0;
  default:
    __qicc_unmodelled();
    return 0.0;
  }
  return __qicc_fp_neg ? -r : r;
}

float __qicc_strtof(const char *nptr, char **endptr) {
  int kind = __qicc_strto_parse(nptr, endptr);
  unsigned long long m = __qicc_fp_m;
  int e = __qicc_fp_e;
  float r = 0.0f;
  switch (kind) {
  case 0:
    return 0.0f;
  case 2:
    r = __builtin_inff();
    break;
  case 3:
    r = __builtin_nanf("");
    break;
  case 1:
    if (m == 0) {
      r = 0.0f;
      break;
    }
    if (e == 0) {
      r = (float)m;
      break;
    }
    if (m <= 16777216ULL && e >= -10 && e <= 10) {
      r = e > 0 ? (float)m * (float)__qicc_pow10[e] : (float)m / (float)__qicc_pow10[-e];
      break;
    }
    __qicc_unmodelled();
    return 0.0f;
  default:
    __qicc_unmodelled();
    return 0.0f;
  }
  return __qicc_fp_neg ? -r : r;
}

/* glibc: atof(s) is strtod(s, NULL). */
double __qicc_atof(const char *s) { return __qicc_strtod(s, 0); }

/* ---- <ctype.h>: glibc's tables for the "C" locale, indexed from -128 to 255 (the prelude
 * defines __qicc_ctype_b, __qicc_ctype_tolower and __qicc_ctype_toupper). glibc's macros read
 * them through __ctype_b_loc() etc.; the functions return the same bits. ---- */

static const unsigned short *__qicc_ctype_b_ptr = __qicc_ctype_b + 128;
static const int *__qicc_ctype_tolower_ptr = __qicc_ctype_tolower + 128;
static const int *__qicc_ctype_toupper_ptr = __qicc_ctype_toupper + 128;

const unsigned short **__qicc___ctype_b_loc(void) { return &__qicc_ctype_b_ptr; }
const int **__qicc___ctype_tolower_loc(void) { return &__qicc_ctype_tolower_ptr; }
const int **__qicc___ctype_toupper_loc(void) { return &__qicc_ctype_toupper_ptr; }

int __qicc_isupper(int c) { return __qicc_ctype_b_ptr[c] & 256; }
int __qicc_islower(int c) { return __qicc_ctype_b_ptr[c] & 512; }
int __qicc_isalpha(int c) { return __qicc_ctype_b_ptr[c] & 1024; }
int __qicc_isdigit(int c) { return __qicc_ctype_b_ptr[c] & 2048; }
int __qicc_isxdigit(int c) { return __qicc_ctype_b_ptr[c] & 4096; }
int __qicc_isspace(int c) { return __qicc_ctype_b_ptr[c] & 8192; }
int __qicc_isprint(int c) { return __qicc_ctype_b_ptr[c] & 16384; }
int __qicc_isgraph(int c) { return __qicc_ctype_b_ptr[c] & 32768; }
int __qicc_isblank(int c) { return __qicc_ctype_b_ptr[c] & 1; }
int __qicc_iscntrl(int c) { return __qicc_ctype_b_ptr[c] & 2; }
int __qicc_ispunct(int c) { return __qicc_ctype_b_ptr[c] & 4; }
int __qicc_isalnum(int c) { return __qicc_ctype_b_ptr[c] & 8; }
int __qicc_isascii(int c) { return (c & ~0x7f) == 0; }
int __qicc_toascii(int c) { return c & 0x7f; }
int __qicc_tolower(int c) { return c >= -128 && c < 256 ? __qicc_ctype_tolower_ptr[c] : c; }
int __qicc_toupper(int c) { return c >= -128 && c < 256 ? __qicc_ctype_toupper_ptr[c] : c; }

/* ---- compiler builtins (builtin.rs: called as __builtin_NAME, never by their plain names) ----
 * Loop-free, so every engine sees them as a few branches. The front-end checks the argument
 * of clz/ctz to be non-zero before the call (gcc leaves their result undefined there). */

unsigned short __qicc_builtin_bswap16(unsigned short x) {
  return (unsigned short)((x >> 8) | (x << 8));
}
unsigned int __qicc_builtin_bswap32(unsigned int x) {
  return ((x & 0xffU) << 24) | ((x & 0xff00U) << 8) | ((x >> 8) & 0xff00U) | (x >> 24);
}
unsigned long long __qicc_builtin_bswap64(unsigned long long x) {
  return ((unsigned long long)__qicc_builtin_bswap32((unsigned int)x) << 32) |
         __qicc_builtin_bswap32((unsigned int)(x >> 32));
}

/* Leading zeros of a 64-bit value; 64 for 0. */
static int __qicc_clz64(unsigned long long x) {
  int n = 0;
  if (x == 0)
    return 64;
  if ((x >> 32) == 0) { n += 32; x <<= 32; }
  if ((x >> 48) == 0) { n += 16; x <<= 16; }
  if ((x >> 56) == 0) { n += 8; x <<= 8; }
  if ((x >> 60) == 0) { n += 4; x <<= 4; }
  if ((x >> 62) == 0) { n += 2; x <<= 2; }
  if ((x >> 63) == 0) { n += 1; }
  return n;
}
/* Trailing zeros of a 64-bit value; 64 for 0. */
static int __qicc_ctz64(unsigned long long x) {
  int n = 0;
  if (x == 0)
    return 64;
  if ((x & 0xffffffffULL) == 0) { n += 32; x >>= 32; }
  if ((x & 0xffffULL) == 0) { n += 16; x >>= 16; }
  if ((x & 0xffULL) == 0) { n += 8; x >>= 8; }
  if ((x & 0xfULL) == 0) { n += 4; x >>= 4; }
  if ((x & 0x3ULL) == 0) { n += 2; x >>= 2; }
  if ((x & 0x1ULL) == 0) { n += 1; }
  return n;
}
static int __qicc_popcount64(unsigned long long x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
  return (int)((x * 0x0101010101010101ULL) >> 56);
}

int __qicc_builtin_clz(unsigned int x) { return __qicc_clz64(x) - 32; }
int __qicc_builtin_clzl(unsigned long x) {
  return __qicc_clz64(x) - (int)(64 - 8 * sizeof(unsigned long));
}
int __qicc_builtin_clzll(unsigned long long x) { return __qicc_clz64(x); }
int __qicc_builtin_ctz(unsigned int x) { return __qicc_ctz64(x); }
int __qicc_builtin_ctzl(unsigned long x) { return __qicc_ctz64(x); }
int __qicc_builtin_ctzll(unsigned long long x) { return __qicc_ctz64(x); }
/* Redundant sign bits: leading bits equal to the sign bit, not counting it. */
int __qicc_builtin_clrsb(int x) {
  unsigned int u = x < 0 ? ~(unsigned int)x : (unsigned int)x;
  return __qicc_clz64(u) - 32 - 1;
}
int __qicc_builtin_clrsbl(long x) {
  unsigned long u = x < 0 ? ~(unsigned long)x : (unsigned long)x;
  return __qicc_clz64(u) - (int)(64 - 8 * sizeof(unsigned long)) - 1;
}
int __qicc_builtin_clrsbll(long long x) {
  unsigned long long u = x < 0 ? ~(unsigned long long)x : (unsigned long long)x;
  return __qicc_clz64(u) - 1;
}
int __qicc_builtin_ffs(int x) { return x == 0 ? 0 : __qicc_ctz64((unsigned int)x) + 1; }
int __qicc_builtin_ffsl(long x) { return x == 0 ? 0 : __qicc_ctz64((unsigned long)x) + 1; }
int __qicc_builtin_ffsll(long long x) {
  return x == 0 ? 0 : __qicc_ctz64((unsigned long long)x) + 1;
}
int __qicc_builtin_popcount(unsigned int x) { return __qicc_popcount64(x); }
int __qicc_builtin_popcountl(unsigned long x) { return __qicc_popcount64(x); }
int __qicc_builtin_popcountll(unsigned long long x) { return __qicc_popcount64(x); }
int __qicc_builtin_parity(unsigned int x) { return __qicc_popcount64(x) & 1; }
int __qicc_builtin_parityl(unsigned long x) { return __qicc_popcount64(x) & 1; }
int __qicc_builtin_parityll(unsigned long long x) { return __qicc_popcount64(x) & 1; }

/* glibc's binary search (which of several equal elements it finds is its choice). */
void *__qicc_bsearch(const void *key, const void *base, __qicc_size_t n, __qicc_size_t size,
                     int (*cmp)(const void *, const void *)) {
  __qicc_size_t l = 0, u = n;
  while (l < u) {
    __qicc_size_t i = (l + u) / 2;
    const void *p = (const char *)base + i * size;
    int r = cmp(key, p);
    if (r < 0)
      u = i;
    else if (r > 0)
      l = i + 1;
    else
      return (void *)p;
  }
  return 0;
}

/* A stable sort, as glibc's merge sort (C leaves the order of equal elements open; glibc's
 * is stable whenever it can allocate its buffer): insertion by byte swaps. */
void __qicc_qsort(void *base, __qicc_size_t n, __qicc_size_t size,
                  int (*cmp)(const void *, const void *)) {
  unsigned char *b = (unsigned char *)base;
  for (__qicc_size_t i = 1; i < n; i++)
    for (__qicc_size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
      for (__qicc_size_t k = 0; k < size; k++) {
        unsigned char t = b[(j - 1) * size + k];
        b[(j - 1) * size + k] = b[j * size + k];
        b[j * size + k] = t;
      }
}

/* ---- <stdio.h>: formatting into a buffer ---- */

/* The sprintf family as glibc formats in the "C" locale: conversions d i u o x X c s p and
 * %%, with the flags - + space # 0, widths and precisions (also `*`), and the length
 * modifiers hh h l ll j z t q L. A conversion the model does not cover (floating point, %n,
 * wide characters, positional arguments) is `__qicc_unmodelled()` (reachable: UNKNOWN). The
 * output is counted in full; only the first n - 1 bytes and a terminating null are stored. */
static void __qicc_fmt_put(char *s, __qicc_size_t n, __qicc_size_t k, char c) {
  if (n != 0 && k < n - 1)
    s[k] = c;
}

static __qicc_size_t __qicc_fmt_pad(char *s, __qicc_size_t n, __qicc_size_t k, char c,
                                    int count) {
  for (int i = 0; i < count; i++)
    __qicc_fmt_put(s, n, k++, c);
  return k;
}

int __qicc_vsnprintf(char *s, __qicc_size_t n, const char *f, __builtin_va_list ap) {
  __qicc_size_t k = 0;
  while (*f != 0) {
    if (*f != '%') {
      __qicc_fmt_put(s, n, k++, *f++);
      continue;
    }
    f++;
    int left = 0, plus = 0, space = 0, alt = 0, zero = 0;
    for (;; f++) {
      if (*f == '-')
        left = 1;
      else if (*f == '+')
        plus = 1;
      else if (*f == ' ')
        space = 1;
      else if (*f == '#')
        alt = 1;
      else if (*f == '0')
        zero = 1;
      else
        break;
    }
    int width = 0, prec = -1, len = 0;
    if (*f == '*') {
      f++;
      width = __builtin_va_arg(ap, int);
      if (width < 0) {
        left = 1;
        width = width == -2147483647 - 1 ? 2147483647 : -width;
      }
    } else
      for (; *f >= '0' && *f <= '9'; f++)
        width = width < 100000000 ? width * 10 + (*f - '0') : width;
    if (*f == '.') {
      f++;
      prec = 0;
      if (*f == '*') {
        f++;
        prec = __builtin_va_arg(ap, int);
        if (prec < 0)
          prec = -1;
      } else
        for (; *f >= '0' && *f <= '9'; f++)
          prec = prec < 100000000 ? prec * 10 + (*f - '0') : prec;
    }
    /* len: 0 int, 1 char, 2 short, 3 long (and size_t, ptrdiff_t), 4 long long */
    if (*f == 'h') {
      f++;
      len = 2;
      if (*f == 'h') {
        f++;
        len = 1;
      }
    } else if (*f == 'l') {
      f++;
      len = 3;
      if (*f == 'l') {
        f++;
        len = 4;
      }
    } else if (*f == 'j' || *f == 'q' || *f == 'L') {
      f++;
      len = 4;
    } else if (*f == 'z' || *f == 't') {
      f++;
      len = 3;
    }
    char c = *f;
    if (c == '%') {
      f++;
      __qicc_fmt_put(s, n, k++, '%');
      continue;
    }
    if (c == 'c' && len == 0) {
      f++;
      char ch = (char)(unsigned char)__builtin_va_arg(ap, int);
      if (!left)
        k = __qicc_fmt_pad(s, n, k, ' ', width - 1);
      __qicc_fmt_put(s, n, k++, ch);
      if (left)
        k = __qicc_fmt_pad(s, n, k, ' ', width - 1);
      continue;
    }
    if (c == 's' && len == 0) {
      f++;
      const char *str = __builtin_va_arg(ap, const char *);
      if (str == 0)
        str = prec < 0 || prec >= 6 ? "(null)" : "";
      int sl = 0;
      while ((prec < 0 || sl < prec) && str[sl] != 0)
        sl++;
      if (!left)
        k = __qicc_fmt_pad(s, n, k, ' ', width - sl);
      for (int i = 0; i < sl; i++)
        __qicc_fmt_put(s, n, k++, str[i]);
      if (left)
        k = __qicc_fmt_pad(s, n, k, ' ', width - sl);
      continue;
    }
    unsigned long long v = 0;
    unsigned base = 10;
    char sign = 0;
    int upper = c == 'X', prefix = 0;
    if (c == 'd' || c == 'i') {
      long long x;
      if (len == 4)
        x = __builtin_va_arg(ap, long long);
      else if (len == 3)
        x = __builtin_va_arg(ap, long);
      else {
        x = __builtin_va_arg(ap, int);
        if (len == 2)
          x = (short)x;
        else if (len == 1)
          x = (signed char)x;
      }
      v = x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
      sign = x < 0 ? '-' : plus ? '+' : space ? ' ' : 0;
    } else if (c == 'u' || c == 'o' || c == 'x' || c == 'X') {
      if (len == 4)
        v = __builtin_va_arg(ap, unsigned long long);
      else if (len == 3)
        v = __builtin_va_arg(ap, unsigned long);
      else {
        v = __builtin_va_arg(ap, unsigned int);
        if (len == 2)
          v = (unsigned short)v;
        else if (len == 1)
          v = (unsigned char)v;
      }
      base = c == 'u' ? 10 : c == 'o' ? 8 : 16;
      prefix = alt && base == 16 && v != 0;
    } else if (c == 'p' && len == 0) {
      void *ptr = __builtin_va_arg(ap, void *);
      if (ptr == 0) {
        f++;
        if (!left)
          k = __qicc_fmt_pad(s, n, k, ' ', width - 5);
        for (int i = 0; i < 5; i++)
          __qicc_fmt_put(s, n, k++, "(nil)"[i]);
        if (left)
          k = __qicc_fmt_pad(s, n, k, ' ', width - 5);
        continue;
      }
      v = (unsigned long)ptr;
      len = 3;
      base = 16;
      prefix = 1;
      sign = plus ? '+' : space ? ' ' : 0;
    } else {
      __qicc_unmodelled();
      return -1;
    }
    f++;
    /* The digits, lowest first, by division by the constant base (in 32 bits when the
     * argument has at most 32: cheaper for a solver). */
    char tmp[24];
    int ndig = 0;
    if (v == 0 && prec == 0)
      ndig = 0;
    else if (len <= 2 || (len == 3 && sizeof(long) == 4)) {
      unsigned int t = (unsigned int)v;
      do {
        unsigned d = base == 10 ? t % 10 : base == 16 ? t % 16 : t % 8;
        tmp[ndig++] = (char)(d < 10 ? '0' + d : (upper ? 'A' : 'a') + (d - 10));
        t = base == 10 ? t / 10 : base == 16 ? t / 16 : t / 8;
      } while (t != 0);
    } else {
      unsigned long long t = v;
      do {
        unsigned d = (unsigned)(base == 10 ? t % 10 : base == 16 ? t % 16 : t % 8);
        tmp[ndig++] = (char)(d < 10 ? '0' + d : (upper ? 'A' : 'a') + (d - 10));
        t = base == 10 ? t / 10 : base == 16 ? t / 16 : t / 8;
      } while (t != 0);
    }
    int zeros = prec > ndig ? prec - ndig : 0;
    if (alt && base == 8 && zeros == 0 && !(v == 0 && ndig == 1))
      zeros = 1;
    int total = (sign != 0) + 2 * prefix + zeros + ndig;
    if (!left && zero && prec < 0 && width > total) {
      zeros += width - total;
      total = width;
    }
    if (!left)
      k = __qicc_fmt_pad(s, n, k, ' ', width - total);
    if (sign != 0)
      __qicc_fmt_put(s, n, k++, sign);
    if (prefix) {
      __qicc_fmt_put(s, n, k++, '0');
      __qicc_fmt_put(s, n, k++, upper ? 'X' : 'x');
    }
    k = __qicc_fmt_pad(s, n, k, '0', zeros);
    for (int i = ndig - 1; i >= 0; i--)
      __qicc_fmt_put(s, n, k++, tmp[i]);
    if (left)
      k = __qicc_fmt_pad(s, n, k, ' ', width - total);
  }
  if (n != 0)
    s[k < n ? k : n - 1] = 0;
  if (k > 2147483647)
    __qicc_unmodelled();
  return (int)k;
}

int __qicc_vsprintf(char *s, const char *f, __builtin_va_list ap) {
  return __qicc_vsnprintf(s, (__qicc_size_t)-1, f, ap);
}

int __qicc_snprintf(char *s, __qicc_size_t n, const char *f, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, f);
  int r = __qicc_vsnprintf(s, n, f, ap);
  __builtin_va_end(ap);
  return r;
}

int __qicc_sprintf(char *s, const char *f, ...) {
  __builtin_va_list ap;
  __builtin_va_start(ap, f);
  int r = __qicc_vsnprintf(s, (__qicc_size_t)-1, f, ap);
  __builtin_va_end(ap);
  return r;
}

/* ---- the built-in allocation functions as functions, for pointers to them (clib.rs) ---- */

void *__qicc_fn_malloc(__qicc_size_t n) { return __builtin_malloc(n); }

void __qicc_fn_free(void *p) { __builtin_free(p); }

void *__qicc_fn_calloc(__qicc_size_t n, __qicc_size_t size) {
  void *p = __builtin_malloc(n * size);
  __builtin_memset(p, 0, n * size);
  return p;
}

/* ---- <math.h>: the functions IEEE 754 defines exactly, from the exact operations the
 * front-end lowers (`__builtin_fmod`, `__builtin_round`, …). NaN results propagate an
 * argument NaN; an out-of-range `lround`/`lrint` gives LONG_MIN, as glibc on x86 (its
 * `cvttsd2si`): C leaves the value unspecified. ---- */

double __qicc_fdim(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  return x > y ? x - y : 0.0;
}

float __qicc_fdimf(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  return x > y ? x - y : 0.0f;
}

/* fdlibm's e_remainder.c: fmod by 2|y| (exact), then at most two exact subtractions. */
double __qicc_remainder(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  if (__builtin_isinf(x) || y == 0)
    return (x - x) / (x - x);
  if (__builtin_isinf(y))
    return x;
  int neg = __builtin_signbit(x) != 0;
  double p = __builtin_fabs(y);
  if (p <= 0x1.fffffffffffffp+1022)
    x = __builtin_fmod(x, p + p);
  if (__builtin_fabs(x) == p)
    return neg ? -0.0 : 0.0;
  x = __builtin_fabs(x);
  if (p < 0x1p-1021) {
    if (x + x > p) {
      x -= p;
      if (x + x >= p)
        x -= p;
    }
  } else {
    double h = 0.5 * p;
    if (x > h) {
      x -= p;
      if (x >= h)
        x -= p;
    }
  }
  return neg ? -x : x;
}

float __qicc_remainderf(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  if (__builtin_isinf(x) || y == 0)
    return (x - x) / (x - x);
  if (__builtin_isinf(y))
    return x;
  int neg = __builtin_signbit(x) != 0;
  float p = __builtin_fabsf(y);
  if (p <= 0x1.fffffep+126f)
    x = __builtin_fmodf(x, p + p);
  if (__builtin_fabsf(x) == p)
    return neg ? -0.0f : 0.0f;
  x = __builtin_fabsf(x);
  if (p < 0x1p-125f) {
    if (x + x > p) {
      x -= p;
      if (x + x >= p)
        x -= p;
    }
  } else {
    float h = 0.5f * p;
    if (x > h) {
      x -= p;
      if (x >= h)
        x -= p;
    }
  }
  return neg ? -x : x;
}

/* An integral double to long / long long: LONG_MIN (LLONG_MIN) when out of range or NaN. */
static long __qicc_to_long(double r) {
  long max = (long)(~0UL >> 1);
  long min = -max - 1;
  if (!(r >= (double)min && r < -(double)min))
    return min;
  return (long)r;
}

static long long __qicc_to_llong(double r) {
  long long max = (long long)(~0ULL >> 1);
  long long min = -max - 1;
  if (!(r >= (double)min && r < -(double)min))
    return min;
  return (long long)r;
}

long __qicc_lround(double x) { return __qicc_to_long(__builtin_round(x)); }
long __qicc_lroundf(float x) { return __qicc_to_long(__builtin_roundf(x)); }
long long __qicc_llround(double x) { return __qicc_to_llong(__builtin_round(x)); }
long long __qicc_llroundf(float x) { return __qicc_to_llong(__builtin_roundf(x)); }
long __qicc_lrint(double x) { return __qicc_to_long(__builtin_rint(x)); }
long __qicc_lrintf(float x) { return __qicc_to_long(__builtin_rintf(x)); }
long long __qicc_llrint(double x) { return __qicc_to_llong(__builtin_rint(x)); }
long long __qicc_llrintf(float x) { return __qicc_to_llong(__builtin_rintf(x)); }

double __qicc_modf(double x, double *ip) {
  double t = __builtin_trunc(x);
  *ip = t;
  if (__builtin_isinf(x))
    return __builtin_copysign(0.0, x);
  return __builtin_copysign(x - t, x);
}

float __qicc_modff(float x, float *ip) {
  float t = __builtin_truncf(x);
  *ip = t;
  if (__builtin_isinf(x))
    return __builtin_copysignf(0.0f, x);
  return __builtin_copysignf(x - t, x);
}

/* The significand in [0.5, 1) and the exponent, read from the bits (subnormals scaled by
 * 2^54 first, exactly). Zero, infinities and NaN come back unchanged with exponent 0. */
double __qicc_frexp(double x, int *e) {
  *e = 0;
  if (x == 0 || __builtin_isnan(x) || __builtin_isinf(x))
    return x + x;
  int k = 0;
  if (__builtin_fabs(x) < 0x1p-1022) {
    x *= 0x1p54;
    k = -54;
  }
  union { double d; unsigned long long u; } v;
  v.d = x;
  *e = (int)((v.u >> 52) & 0x7ff) - 1022 + k;
  v.u = (v.u & ~(0x7ffULL << 52)) | (0x3feULL << 52);
  return v.d;
}

float __qicc_frexpf(float x, int *e) {
  *e = 0;
  if (x == 0 || __builtin_isnan(x) || __builtin_isinf(x))
    return x + x;
  int k = 0;
  if (__builtin_fabsf(x) < 0x1p-126f) {
    x *= 0x1p25f;
    k = -25;
  }
  union { float f; unsigned int u; } v;
  v.f = x;
  *e = (int)((v.u >> 23) & 0xff) - 126 + k;
  v.u = (v.u & ~(0xffU << 23)) | (0x7eU << 23);
  return v.f;
}

/* The next representable value from x towards y: one step of the bits' magnitude. */
double __qicc_nextafter(double x, double y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0)
    return y > 0 ? 0x1p-1074 : -0x1p-1074;
  union { double d; unsigned long long u; } v;
  v.d = x;
  if ((x < y) == (x > 0))
    v.u++;
  else
    v.u--;
  return v.d;
}

float __qicc_nextafterf(float x, float y) {
  if (__builtin_isnan(x) || __builtin_isnan(y))
    return x + y;
  if (x == y)
    return y;
  if (x == 0)
    return y > 0 ? 0x1p-149f : -0x1p-149f;
  union { float f; unsigned int u; } v;
  v.f = x;
  if ((x < y) == (x > 0))
    v.u++;
  else
    v.u--;
  return v.f;
}

/* ---- the environment: inputs of the run ---- */

/* rand(): any value in [0, RAND_MAX] (glibc's RAND_MAX, 2^31 - 1), an input of the run (the
 * native replay's runtime feeds the same value); srand() changes nothing a run can rely on. */
int __qicc_rand(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v >= 0);
  return v;
}

void __qicc_srand(unsigned int seed) { (void)seed; }

/* time(): the current time is an input (time_t is long on both data models). */
long __qicc_time(long *t) {
  long v = __VERIFIER_nondet_long();
  if (t)
    *t = v;
  return v;
}

/* getenv(): the environment is an input of the run: NULL, or a string whose length and
 * bytes are inputs (the native replay's runtime feeds the same values). */
char *__qicc_getenv(const char *name) {
  (void)__qicc_strlen(name);
  if (__VERIFIER_nondet_int() == 0)
    return 0;
  unsigned int len = __VERIFIER_nondet_uint();
  char *v = __builtin_malloc((__qicc_size_t)len + 1);
  for (unsigned int i = 0; i < len; i++)
    v[i] = __VERIFIER_nondet_char();
  v[len] = 0;
  return v;
}
