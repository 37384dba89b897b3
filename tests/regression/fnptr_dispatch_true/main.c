/* A state machine driven by a table of function pointers, indexed by the current state:
 * every transition stays inside the table and the run counter never passes 3. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }

enum { IDLE, RUN, DONE, NSTATES };
struct machine { int state; int count; };
typedef int (*handler)(struct machine *, int);

static int on_idle(struct machine *m, int in) {
  if (in > 0) {
    m->count = 0;
    return RUN;
  }
  return IDLE;
}
static int on_run(struct machine *m, int in) {
  m->count++;
  if (in == 0 || m->count >= 3)
    return DONE;
  return RUN;
}
static int on_done(struct machine *m, int in) {
  (void)m;
  (void)in;
  return DONE;
}

static const handler table[NSTATES] = {on_idle, on_run, on_done};

int main(void) {
  struct machine m = {IDLE, 0};
  for (int i = 0; i < 8; i++) {
    int in = __VERIFIER_nondet_int();
    m.state = table[m.state](&m, in);
    __VERIFIER_assert(m.state >= IDLE && m.state < NSTATES);
    __VERIFIER_assert(m.count <= 3);
  }
  return 0;
}
