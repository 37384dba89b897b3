/* Objects of nested blocks: arrays, structs and address-taken variables declared inside loop
 * bodies, inner blocks and statement expressions, left by the block's end, `break`,
 * `continue`, `goto` and `return`; each activation's object is fresh and initialised as its
 * declaration says (issue 28 item 3: their lives end with their blocks). */
extern int __VERIFIER_nondet_int(void);

static unsigned int h = 17;
static void mix(unsigned long long v) { h = h * 61u + (unsigned int)v + (unsigned int)(v >> 32); }

struct pt { int x; int y; };

static int sum_block(int n) {
  int s = 0;
  for (int i = 0; i < 4; i++) {
    int a[3] = {i, n, i * n};
    int *p = &a[1];
    if (i == 2) continue;
    s += a[0] + *p + a[2];
    if (s > 1000) break;
  }
  return s;
}

static int with_goto(int n) {
  int k = 0, acc = 0;
again:
  {
    struct pt q = {k, n};
    int *px = &q.x;
    acc += *px * 3 + q.y;
    if (++k < 3) goto again;
  }
  return acc;
}

static int early_return(int n) {
  while (1) {
    int buf[2];
    buf[0] = n;
    buf[1] = n + 1;
    int *b = buf;
    if (b[0] > 0) return b[0] + b[1];
    n = -n + 1;
  }
}

int main(void) {
  int n = __VERIFIER_nondet_int() % 1000;
  mix(sum_block(n));
  mix(with_goto(n));
  mix(early_return(n));
  {
    int inner = n;
    int *pi = &inner;
    *pi += 5;
    mix(inner);
  }
  struct pt r = ({ struct pt t = {n, 2 * n}; t.x += 1; t; });
  mix(r.x + r.y);
  int total = 0;
  do {
    char c[4] = "abc";
    total += c[n & 3] + 1;
  } while (total < 200);
  mix(total);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
