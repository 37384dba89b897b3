/* Struct and union layout, member access, struct copies, by-value parameters and results,
 * initialisers (designated, nested, brace elision), compound literals, statics. */
#include <stddef.h>
extern int __VERIFIER_nondet_int(void);

static unsigned int h = 7;
static void mix(unsigned long long v) { h = h * 41u + (unsigned int)v + (unsigned int)(v >> 32); }

struct pt { int x, y; };
struct mixed { char c; long long ll; short s; char *p; int arr[3]; };
struct nest { struct pt a; struct pt b[2]; char tag; };
union u { int i; unsigned char b[4]; short s; };
struct anon { int k; union { int i; char c; }; struct { short lo, hi; }; };

struct pt origin = {0, 0};
struct pt line[3] = {{1, 2}, {3, 4}, [2] = {.y = 6, .x = 5}};
struct nest gn = {{1, 2}, {{3, 4}, {5, 6}}, 'z'};
int flat[2][3] = {1, 2, 3, 4, 5};
struct pt *lp = &line[1];

static struct pt make(int x, int y) { struct pt p; p.x = x; p.y = y; return p; }
static int dot(struct pt a, struct pt b) { a.x *= b.x; return a.x + a.y * b.y; }
static struct pt swap(struct pt p) { int t = p.x; p.x = p.y; p.y = t; return p; }

static int counter(void) { static int n = 10; return n++; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  mix(sizeof(struct pt));
  mix(sizeof(struct mixed));
  mix(offsetof(struct mixed, ll));
  mix(offsetof(struct mixed, s));
  mix(offsetof(struct mixed, p));
  mix(offsetof(struct mixed, arr[2]));
  mix(_Alignof(struct mixed));
  mix(sizeof(struct nest));
  mix(offsetof(struct nest, b[1].y));
  mix(sizeof(union u));
  mix(sizeof(struct anon));
  mix(offsetof(struct anon, hi));
  struct pt p = {n, n + 1};
  struct pt q = p;
  q.x += 5;
  mix(p.x + q.x + q.y);
  struct pt r = make(n, 3);
  mix(r.x * 7 + r.y);
  mix(dot(p, r));
  mix(p.x);
  struct pt s = swap(p);
  mix(s.x - s.y);
  mix(make(4, 5).y);
  mix(line[2].x + line[2].y + line[0].y);
  mix(lp->y);
  lp->x = n;
  mix(line[1].x);
  mix(gn.b[1].x + gn.a.y + gn.tag);
  mix(flat[1][1] + flat[1][2] + flat[0][2]);
  union u un;
  un.i = 0x01020304 + n;
  mix(un.b[0]);
  mix(un.s);
  struct anon an = {.k = 1, .i = n, .hi = 9};
  mix(an.c + an.hi + an.lo + an.k);
  struct mixed m = {'a', 1LL << 40, -3, "str", {7, 8}};
  mix(m.ll >> 20);
  mix(m.s + m.arr[1] + m.arr[2] + m.p[1]);
  struct mixed m2;
  m2 = m;
  m2.arr[2] = n;
  mix(m.arr[2] + m2.arr[2] + m2.c);
  struct pt *pp = &(struct pt){n, 2 * n};
  mix(pp->y);
  int *ca = (int[]){1, 2, 3};
  mix(ca[2]);
  struct nest ln = {.b[1] = {n, n}, .tag = 3};
  mix(ln.b[1].y + ln.a.x + ln.b[0].y + ln.tag);
  int loc[5] = {[3] = 9, 1};
  mix(loc[4] + loc[3] + loc[0]);
  char str[] = "hey";
  mix(sizeof str + str[1]);
  char pad[6] = "ab";
  mix(pad[1] + pad[4]);
  mix(counter());
  mix(counter());
  struct pt arr[2];
  arr[0] = p;
  arr[1] = arr[0];
  arr[1].y = 99;
  mix(arr[0].y + arr[1].y);
  struct pt *ap = arr;
  mix((ap + 1)->y);
  mix(origin.x + origin.y);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
