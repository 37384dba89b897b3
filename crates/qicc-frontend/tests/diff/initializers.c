/* Initialisers against gcc (C11 6.7.9): positional, designated, nested, brace elision,
 * ranges, strings shorter than their array, unions, bit-fields, a later initialiser of a
 * whole member overriding earlier designators inside it; each form local and static. */
extern int __VERIFIER_nondet_int(void);

struct B { unsigned a : 3, b : 5; int c : 7; };
struct S { int b[4]; char name[6]; struct B bits; };
union U { int i; short s[2]; };

static unsigned h = 0;
static void mix(long long v) { h = h * 31u + (unsigned)v + (unsigned)(v >> 32); }
static void mix_s(const struct S *s) {
  for (int i = 0; i < 4; i++) mix(s->b[i]);
  for (int i = 0; i < 6; i++) mix(s->name[i]);
  mix(s->bits.a); mix(s->bits.b); mix(s->bits.c);
}

static struct S gs1 = { .b[2] = 8, .b = { [0] = 4 } };
static struct S gs2 = { { 1, 2 }, "ab", { 5, 17, -3 } };
static struct S gs3 = { .name = "xyz", .b[1 ... 3] = 7, .bits.c = -9, .name[1] = 'Q' };
static struct S gs4 = { .bits = { 1, 2, 3 }, .bits.b = 9, .name = { 'a' }, .name = "z" };
static int ga[8] = { [2 ... 5] = 3, [3] = 9, 11 };
static char gstr[8] = "hi";
static union U gu = { .s = { 1, 2 } };
static int gm[2][3] = { 1, 2, 3, { 4 } };

int main(void) {
  int k = __VERIFIER_nondet_int() & 3;
  struct S s1 = { .b[2] = 8, .b = { [0] = 4 } };
  struct S s2 = { { 1, 2 }, "ab", { 5, 17, -3 } };
  struct S s3 = { .name = "xyz", .b[1 ... 3] = 7, .bits.c = -9, .name[1] = 'Q' };
  struct S s4 = { .bits = { 1, 2, 3 }, .bits.b = 9, .name = { 'a' }, .name = "z" };
  struct S s5 = { .b = { k, k + 1 }, .b[3] = k * 2, .bits.a = k };
  int a[8] = { [2 ... 5] = 3, [3] = 9, 11 };
  char str[8] = "hi";
  union U u = { .s = { 1, 2 } };
  int m[2][3] = { 1, 2, 3, { 4 } };
  mix_s(&gs1); mix_s(&gs2); mix_s(&gs3); mix_s(&gs4);
  mix_s(&s1); mix_s(&s2); mix_s(&s3); mix_s(&s4); mix_s(&s5);
  for (int i = 0; i < 8; i++) { mix(a[i]); mix(ga[i]); mix(str[i]); mix(gstr[i]); }
  mix(u.i); mix(gu.i);
  for (int i = 0; i < 2; i++) for (int j = 0; j < 3; j++) { mix(m[i][j]); mix(gm[i][j]); }
  return (int)(h % 251);
}
