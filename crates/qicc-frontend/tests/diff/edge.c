/* Corner cases of C semantics that benchmarks rarely exercise. */
extern int __VERIFIER_nondet_int(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern char __VERIFIER_nondet_char(void);

static unsigned int h = 13;
static void mix(unsigned long long v) { h = h * 47u + (unsigned int)v + (unsigned int)(v >> 32); }

struct pair { int a; char b; };
static struct pair mkpair(int a) { struct pair p = {a, (char)(a * 3)}; return p; }
static int table[4][2] = {{1, 2}, {3, 4}, {5, 6}, {7, 8}};
static const char *words[] = {"alpha", "beta", "gamma"};
static int accumulate(int x) { static int total[3]; total[x % 3] += x; return total[0] + 2 * total[1] + 3 * total[2]; }
static int side;
static int bump(int v) { side += v; return side; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned short us = __VERIFIER_nondet_ushort();
  char c = __VERIFIER_nondet_char();
  mix((char)200 == -56);
  mix(us * us);                 /* int multiplication of promoted shorts */
  mix(us + (unsigned short)1);
  mix(n < 0 ? -1 : 1u);         /* unsigned result */
  mix(-7 / 2);
  mix(-7 % 2);
  mix(7 % -2);
  mix(n / 3 + n % 3);
  mix(~n & 0xff00);
  mix(n >> 1);
  mix((unsigned)n >> 1);
  mix(1 < 2 < 3);
  mix(3 > 2 > 1);
  mix(!words);
  mix(words[1][2]);
  mix(sizeof words / sizeof words[0]);
  mix(sizeof table / sizeof table[0][0]);
  mix(mkpair(n).b);
  mix(mkpair(5).a);
  for (unsigned char i = 250; i != 4; i++) mix(i);
  for (int i = 0, j = 10; i < j; i += 3, j--) mix(i * j);
  switch (c) {
  case -128 ... -1: mix(1); break;
  case 0: mix(2);
  case 'a': mix(3); break;
  default: mix(c);
  }
  int x = 0, y = 0;
  if ((x = bump(1)) && (y = bump(2))) mix(x + y);
  if ((x = 0) || (y = bump(3))) mix(y);
  mix(side);
  mix(accumulate(n & 7));
  mix(accumulate(4));
  mix(accumulate(5));
  int k = 0;
  do { k++; } while (0);
  mix(k);
  long long big = 0x7fffffffffffffffLL;
  mix(big + 1 < 0);
  mix((unsigned long long)-1 >> 60);
  mix(0xffffffffffffffffULL % 1000);
  mix((long long)n * (long long)us);
  mix((int)(unsigned char)c);
  mix((signed char)(c + 128));
  _Bool b = n & 4;
  mix(b * 10 + !b);
  mix(table[n & 3][1]);
  int *pt = &table[1][0];
  mix(pt[3]);
  mix(*(int *)((char *)pt + 4));
  /* A round trip through an integer, `(int *)(long)pt`, observes the address: qicc stops
     there (address-observed, lower::layout), so the runs would not compare. */
  int arr[3] = {n, n + 1, n + 2};
  int *e = arr + 3;
  mix(e - arr);
  mix(e[-1]);
  for (int r = 0; r < 3; r++) {
    int *lit = (int[]){r, r * r};
    mix(lit[1]);
  }
  struct pair ps[3] = {[1].b = 'q', [2] = {9}};
  mix(ps[1].b + ps[2].a + ps[0].a);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
