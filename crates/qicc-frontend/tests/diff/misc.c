/* Less common but valid constructs: typedef'd anonymous structs, incomplete types behind
 * pointers, nested switches, switch without braces, infinite loops left by break, goto into
 * blocks, unions of arrays, static const strings. */
extern int __VERIFIER_nondet_int(void);

static unsigned int h = 19;
static void mix(unsigned long long v) { h = h * 53u + (unsigned int)v + (unsigned int)(v >> 32); }

typedef struct { int a; short b[3]; } T;
struct opaque;
typedef union { unsigned int w; unsigned char bytes[4]; unsigned short halves[2]; } word;
static const char msg[] = "hello";
enum flags { F1 = 1, F2 = 2, F4 = 4, FALL = F1 | F2 | F4 };

static int nested(int a, int b) {
  switch (a) {
  case 0:
    switch (b) {
    case 0: return 1;
    case 1: break;
    default: return 2;
    }
    return 3;
  case 1:
    if (b) {
    case 2: return 4;
    }
    break;
  }
  return 5;
}

static void touch(T *t) { t->b[2] = (short)(t->a * 2); }

int main(void) {
  int n = __VERIFIER_nondet_int();
  T t = {n, {1, 2}};
  T *pt = &t;
  touch(pt);
  mix(t.b[2] + t.b[0] + pt->a);
  struct opaque *op = 0;
  mix(op == 0);
  word w;
  w.w = (unsigned int)n;
  mix(w.bytes[0] + w.bytes[3] + w.halves[1]);
  mix(sizeof msg + msg[4]);
  mix(FALL & ~F2);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) mix(nested(a, b));
  int r = 0;
  switch (n & 3) case 1: r = 7;
  mix(r);
  int k = 0;
  for (;;) { if (++k > (n & 7)) break; }
  mix(k);
  while (1) { k += 2; if (k > 20) break; }
  mix(k);
  int g = n & 1;
  if (g) goto inner;
  mix(100);
  {
    int z = 5;
  inner:
    z = 6;
    mix(z);
  }
  char *s = (n & 2) ? "yes" : "no";
  mix(s[1]);
  int arr[4] = {0};
  arr[(n & 1, 2)] = 9;
  mix(arr[2] + +msg[0]);
  int (*rows)[2] = (int (*)[2])arr;
  mix(rows[1][0]);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
