/* Statements: switch (fall-through, default, ranges), goto, loops, short-circuit and ?:
 * with side effects, comma, recursion, statement expressions. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);

static unsigned int h = 11;
static void mix(unsigned long long v) { h = h * 43u + (unsigned int)v + (unsigned int)(v >> 32); }

static int calls;
static int f(int x) { calls++; return x; }
static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
static int fib(int n) { if (n < 2) return n; return fib(n - 1) + fib(n - 2); }
static int even(int n);
static int odd(int n) { return n == 0 ? 0 : even(n - 1); }
static int even(int n) { return n == 0 ? 1 : odd(n - 1); }

static int classify(int v) {
  int r = 0;
  switch (v) {
  case 0: r += 1;
  case 1: r += 2; break;
  case 2 ... 5: r = 10;
  default: r += 100;
  case 7: r += 1000; break;
  case -3: return -3;
  }
  return r;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int() & 15;
  for (int v = -4; v < 9; v++) mix(classify(v));
  mix(classify(n));
  int x = 0;
  if (n > 0 && f(n) > 3) x = 1;
  if (n > 0 || f(2)) x += 2;
  mix(x);
  mix(calls);
  int y = (n > 5) ? f(10) : f(20);
  mix(y + calls);
  int z = (f(1), f(2), f(3));
  mix(z + calls);
  int k = 0;
  while (k < m) { k++; if (k == 7) break; }
  mix(k);
  k = 0;
  do { k += 3; if (k % 2) continue; k++; } while (k < m * 2);
  mix(k);
  int s = 0;
  for (int i = 0; i < 20; i++) {
    if (i % 3 == 0) continue;
    if (i > m + 5) break;
    s += i;
  }
  mix(s);
  int g = 0;
loop:
  g++;
  if (g < m) goto loop;
  mix(g);
  if (m > 100) goto out;
  mix(fact(m % 10));
  mix(fib(m));
  mix(even(m) + 2 * odd(m));
  int t = ({ int u = m * 2; u + 1; });
  mix(t);
  int w = n && (k = 5);
  mix(w + k);
  int q = !n || (k = 8, 0);
  mix(q + k);
  int pre = 0;
  pre = pre++ ? 1 : 2;
  mix(pre);
out:
  if (m == 15) abort();
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
