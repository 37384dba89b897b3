/* Function pointers: dispatch tables indexed by inputs, callbacks passed as arguments,
 * pointers in structs and arrays of structs, comparisons (with null, with each other),
 * pointers returned from functions, recursion through a pointer, void * round trips,
 * unprototyped pointers, struct arguments and results through a pointer. */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);

static unsigned int h = 17;
static void mix(unsigned long long v) { h = h * 31u + (unsigned int)v + (unsigned int)(v >> 32); }

typedef unsigned int (*unop)(unsigned int);
typedef unsigned int binop_fn(unsigned int, unsigned int);

static unsigned int inc(unsigned int x) { return x + 1; }
static unsigned int dbl(unsigned int x) { return x * 2; }
static unsigned int sq(unsigned int x) { return x * x; }
static unsigned int neg(unsigned int x) { return -x; }
static unsigned int add(unsigned int a, unsigned int b) { return a + b; }
static unsigned int sub(unsigned int a, unsigned int b) { return a - b; }
static unsigned int xr(unsigned int a, unsigned int b) { return a ^ b; }

static unop table[4] = {inc, dbl, sq, neg};
static binop_fn *const btable[] = {add, sub, xr};

struct handler {
  const char *name;
  unop f;
  binop_fn *g;
};
static struct handler handlers[3] = {{"a", inc, add}, {"b", 0, sub}, {"c", sq, 0}};

/* A callback and its argument. */
static unsigned int apply_n(unop f, unsigned int x, int n) {
  for (int i = 0; i < n; i++)
    x = f(x);
  return x;
}
static unsigned int fold(binop_fn *g, const unsigned int *a, int n, unsigned int acc) {
  for (int i = 0; i < n; i++)
    acc = (*g)(acc, a[i]);
  return acc;
}

/* A parameter declared with a function type is a pointer. */
static unsigned int twice_of(unsigned int g(unsigned int), unsigned int v) { return g(g(v)); }

/* A function pointer as a result. */
static unop choose(int k) {
  if (k < 0)
    return 0;
  return table[k & 3];
}
static unsigned int (*choose2(int k))(unsigned int) { return k & 1 ? dbl : inc; }

/* Recursion through a pointer. */
static unsigned int fib(unsigned int n);
static unsigned int (*fibp)(unsigned int) = fib;
static unsigned int fib(unsigned int n) { return n < 2 ? n : fibp(n - 1) + fibp(n - 2); }

/* A state machine: each state returns the next state's handler. */
struct state;
typedef const struct state *(*step_fn)(unsigned int, unsigned int *);
struct state { step_fn step; int id; };
static const struct state *s_even(unsigned int in, unsigned int *acc);
static const struct state *s_odd(unsigned int in, unsigned int *acc);
static const struct state *s_stop(unsigned int in, unsigned int *acc);
static const struct state st_even = {s_even, 0}, st_odd = {s_odd, 1}, st_stop = {s_stop, 2};
static const struct state *s_even(unsigned int in, unsigned int *acc) {
  *acc += in;
  return in % 5 == 0 ? &st_stop : (in & 1 ? &st_odd : &st_even);
}
static const struct state *s_odd(unsigned int in, unsigned int *acc) {
  *acc = *acc * 3 + in;
  return in & 1 ? &st_even : &st_odd;
}
static const struct state *s_stop(unsigned int in, unsigned int *acc) {
  (void)in;
  *acc ^= 0x55;
  return 0;
}

struct pair { int a; int b; };
static struct pair swap(struct pair p) { struct pair r = {p.b, p.a}; return r; }
static struct pair twice(struct pair p) { p.a *= 2; p.b *= 2; return p; }

static int old_style();
static int old_style(a, b) int a, b; { return a * 10 + b; }

int main(void) {
  int k = __VERIFIER_nondet_int();
  unsigned int x = __VERIFIER_nondet_uint();

  /* Dispatch tables indexed by an input. */
  unop f = table[(unsigned int)k % 4u];
  mix(f(x));
  mix(btable[(unsigned int)k % 3u](x, 7u));
  mix(table[(k >> 2) & 3](table[k & 3](x)));

  /* Callbacks. */
  mix(apply_n(f, x, k & 7));
  mix(apply_n(dbl, x, 3));
  unsigned int arr[4] = {x, 3u, (unsigned int)k, 9u};
  mix(fold(btable[(unsigned int)k % 3u], arr, 4, 1u));
  mix(fold(xr, arr, 4, 0u));
  mix(twice_of(table[(unsigned int)k % 4u], x));
  unop *pp = &table[(k >> 3) & 3];
  mix((*pp)(x) + pp[0](1u));
  pp[0] = (k & 16) ? neg : sq; /* the table itself changes */
  mix(table[(k >> 3) & 3](x));

  /* Pointers in structs; null pointers and comparisons. */
  struct handler *hp = &handlers[(unsigned int)k % 3u];
  if (hp->f)
    mix(hp->f(x));
  else
    mix(1000);
  if (hp->g != 0)
    mix(hp->g(x, 5u));
  mix(hp->f == 0);
  mix(!hp->g);
  mix(f == inc);
  mix(f != dbl);
  mix(table[0] == handlers[0].f);
  mix((void *)f == (void *)table[(unsigned int)k % 4u]);
  mix(f ? 1 : 2);
  mix(handlers[1].f ? 3 : 4);

  /* Pointers returned from functions. */
  unop c = choose(k);
  if (c != 0)
    mix(c(x));
  else
    mix(77);
  mix(choose2(k)(x));
  mix((*choose2(k + 1))(5));

  /* Recursion through a pointer. */
  mix(fib((unsigned int)k & 15u));

  /* A state machine. */
  const struct state *s = (k & 1) ? &st_odd : &st_even;
  unsigned int acc = 0;
  for (int i = 0; s && i < 12; i++) {
    mix(s->id);
    s = s->step(x + (unsigned int)i * (unsigned int)k, &acc);
  }
  mix(acc);

  /* void * and integer round trips; designators written differently. */
  void *vp = (void *)sq;
  unop back = (unop)vp;
  mix(back(x));
  mix((*back)(3) + (**back)(4) + (&sq)(5));
  unsigned long bits = (unsigned long)back;
  mix(bits == (unsigned long)sq);
  mix(sizeof(unop) == sizeof(void *));
  mix(sizeof table / sizeof table[0]);

  /* Struct arguments and results through a pointer. */
  struct pair (*pf)(struct pair) = (k & 2) ? swap : twice;
  struct pair p = {k & 1023, 3};
  struct pair q = pf(p);
  mix(q.a * 7 + q.b + p.a);

  /* An unprototyped pointer. */
  int (*op)() = old_style;
  mix(op(k & 7, 2));

  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
