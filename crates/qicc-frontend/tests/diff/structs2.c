/* Struct values in expressions: results used directly, passed on, chained assignment,
 * conditional struct values, arrays inside structs, struct members of struct results. */
extern int __VERIFIER_nondet_int(void);

static unsigned int h = 23;
static void mix(unsigned long long v) { h = h * 59u + (unsigned int)v + (unsigned int)(v >> 32); }

struct vec { int v[3]; char tag; };
struct box { struct vec inner; long id; };

static struct vec mkvec(int a) { struct vec r = {{a, a + 1, a + 2}, 'v'}; return r; }
static int total(struct vec x) { x.v[0] = 100; return x.v[0] + x.v[1] + x.v[2]; }
static struct box wrap(struct vec x, long id) { struct box b; b.inner = x; b.id = id; return b; }
static struct vec pick(int c, struct vec a, struct vec b) { return c ? a : b; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  mix(mkvec(n).v[2]);
  mix(total(mkvec(n)));
  struct vec a = mkvec(1), b, c;
  c = b = a;
  b.v[1] = n;
  mix(a.v[1] + b.v[1] + c.v[1]);
  struct box bx = wrap(mkvec(n * 2), n);
  mix(bx.inner.v[0] + bx.id + bx.inner.tag);
  mix(wrap(a, 7).inner.v[2]);
  struct vec p = pick(n & 1, a, b);
  mix(p.v[1]);
  struct vec q = (n & 2) ? a : b;
  mix(q.v[1]);
  struct vec r = ({ struct vec t = mkvec(3); t.v[0] = n; t; });
  mix(r.v[0] + r.v[2]);
  struct box arr[2] = {{{{1, 2, 3}, 'a'}, 5}, {{{4}, 'b'}, 6}};
  arr[1].inner = arr[0].inner;
  mix(arr[1].inner.v[2] + arr[1].id);
  struct box *pb = &arr[0];
  pb->inner.v[1] += n;
  mix(arr[0].inner.v[1]);
  mix(sizeof(struct box) + sizeof bx.inner);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
