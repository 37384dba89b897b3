/* Variable-length arrays: sizes from the inputs, fill and check loops, sizeof at run time, 2-D
 * arrays with runtime row strides, VLA parameters, typedefs, pointers to rows, a VLA declared
 * in a loop (a fresh object each iteration, freed at the block's end, by break and continue). */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);

static unsigned int h = 5;
static void mix(unsigned long long v) { h = h * 37u + (unsigned int)v + (unsigned int)(v >> 32); }

static int sum(int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; k++) s += p[k];
  return s;
}

/* A VLA parameter: `a` is a pointer to rows of `m` ints. */
static long grid_sum(int n, int m, int a[n][m]) {
  long s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++) s += a[i][j] * (i + 1);
  mix(sizeof a[0]);
  mix(sizeof(*a) / sizeof(int));
  return s;
}

static void fill_rows(int rows, int cols, int (*p)[cols], int base) {
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) p[i][j] = base + i * cols + j;
}

static int inner(int n) {
  char buf[n + 1];
  for (int i = 0; i < n; i++) buf[i] = (char)('a' + i % 26);
  buf[n] = 0;
  int len = 0;
  while (buf[len]) len++;
  return len + (int)sizeof buf;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n > 0 && n < 50);
  int a[n];
  for (int i = 0; i < n; i++) a[i] = i * i - 3;
  for (int i = 0; i < n; i++)
    if (a[i] != i * i - 3) return 1;
  mix(sizeof a);
  mix(sizeof a / sizeof a[0]);
  mix(sum(a, n));
  int *p = a + n / 2;
  mix(*p);
  mix(p - a);
  mix(&a[n - 1] - &a[0]);

  unsigned int r = __VERIFIER_nondet_uint() % 6 + 2;
  unsigned int c = __VERIFIER_nondet_uint() % 5 + 2;
  int g[r][c];
  mix(sizeof g);
  mix(sizeof g[0]);
  mix(sizeof g[0][0]);
  for (unsigned int i = 0; i < r; i++)
    for (unsigned int j = 0; j < c; j++) g[i][j] = (int)(i * 10 + j);
  mix(g[r - 1][c - 1]);
  mix(*(*(g + 1) + 1));
  mix(grid_sum(r, c, g));
  int (*row)[c] = g + 1;
  mix((*row)[0]);
  mix(row[0][c - 1]);
  row++;
  mix(row - g);
  mix((char *)row - (char *)g);
  fill_rows(r, c, g, n);
  mix(grid_sum(r, c, g));

  /* A constant outer length over a VLA row: still a VLA. */
  int three[3][c];
  mix(sizeof three);
  fill_rows(3, c, three, 7);
  mix(three[2][c - 1]);

  typedef int vec[n];
  vec v;
  mix(sizeof(vec));
  mix(sizeof v);
  for (int i = 0; i < n; i++) v[i] = a[i] + 1;
  mix(v[n - 1]);
  mix(sizeof(int[n + 2]));
  mix(sizeof(long[r][c]));

  long total = 0;
  for (int it = 1; it <= 6; it++) {
    int t[it + n % 3];
    for (int k = 0; k < it + n % 3; k++) t[k] = k + it;
    total += sum(t, it + n % 3) + (long)sizeof t;
    if (it == 4 && n % 2) continue;
    if (it == 5 && n % 5 == 0) break;
    total += t[0];
  }
  mix(total);
  for (int k = 1; k < 5; k++) mix(inner(k + n % 4));
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
