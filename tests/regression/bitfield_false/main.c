extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) {
  if (!cond)
    reach_error();
}

/* A packet header in bit-fields: each field keeps its own bits when its neighbours are
 * written, stores truncate to the field's width, signed fields sign-extend: `delta` is negative for some input, against the assertion. */
struct header {
  unsigned version : 3;
  unsigned flags : 5;
  int delta : 6;
  unsigned length : 18;
};

int main(void) {
  struct header h = {0};
  unsigned int v = __VERIFIER_nondet_uint();
  int d = __VERIFIER_nondet_int();
  h.version = 5;
  h.length = v;
  h.flags = 31;
  h.delta = d;
  h.flags++;
  __VERIFIER_assert(h.version == 5);
  __VERIFIER_assert(h.flags == 0);
  __VERIFIER_assert(h.length == (v & 0x3ffff));
  __VERIFIER_assert(h.delta >= 0 && h.delta < 64);
  __VERIFIER_assert(sizeof(struct header) == 4);
  return 0;
}
