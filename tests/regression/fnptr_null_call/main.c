/* The callback is set only when n > 10: otherwise the call goes through a null pointer, which
 * is reachable undefined behaviour. The assertion holds on every run that calls `bump`, so
 * the verdict must be UNKNOWN naming the call, never TRUE (nor FALSE). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

typedef void (*callback)(int *);
struct ops { callback on_event; };

static void bump(int *p) { (*p)++; }

int main(void) {
  struct ops o = {0};
  int n = __VERIFIER_nondet_int();
  int x = 0;
  if (n > 10)
    o.on_event = bump;
  o.on_event(&x);
  __VERIFIER_assert(x == 1);
  return 0;
}
