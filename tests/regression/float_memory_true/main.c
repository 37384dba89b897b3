extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern int __VERIFIER_nondet_int(void);
extern long long __VERIFIER_nondet_longlong(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond)
    reach_error();
}

/* Floats in arrays and structs, through pointers: their bytes round-trip. */
struct point { float x; double y; };
static float scale = 0.5f;
int main(void) {
  float a[3];
  struct point p;
  struct point *q = &p;
  float v = __VERIFIER_nondet_float();
  __VERIFIER_assume(v >= 1.0f && v <= 2.0f);
  for (int i = 0; i < 3; i++) a[i] = v * (float)i;
  q->x = a[2] * scale;
  q->y = (double)q->x + 1.0;
  __VERIFIER_assert(p.x == v);
  __VERIFIER_assert(p.y >= 2.0 && p.y <= 3.0);
  return 0;
}
