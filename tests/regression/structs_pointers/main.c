extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void *malloc(unsigned long);
void reach_error(void) {}
void __VERIFIER_assert(int c) { if (!c) { reach_error(); abort(); } }
struct point { char tag; int x; short y; };
static void move(struct point *p, int dx) { p->x += dx; p->y = (short)(p->x * 2); }
int main(void) {
  struct point pts[3] = { { 'a', 1, 2 }, { 'b', 3, 4 } };
  struct point *q = malloc(sizeof *q);
  if (!q) return 0;
  *q = pts[1];
  int d = __VERIFIER_nondet_int();
  __VERIFIER_assume(d > -100 && d < 100);
  move(q, d);
  __VERIFIER_assert(sizeof(struct point) == 12);
  __VERIFIER_assert(pts[2].x == 0 && pts[1].tag == 'b');
  __VERIFIER_assert(q->y == 2 * (3 + d));
  __VERIFIER_assert(q->x != 50);
  return 0;
}
