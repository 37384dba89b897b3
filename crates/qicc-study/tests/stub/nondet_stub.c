/* Test harness for generated scenarios: defines the SV-COMP environment (__VERIFIER_nondet_*,
 * __VERIFIER_assume, __assert_fail) and runs one scenario's main many times in one process.
 *
 * Several scenarios are linked into one executable (linking dominates the build time): the test
 * prepends to scenario N `#define main qs_main_N`, `#define reach_error qs_reach_error_N` and
 * `#define __VERIFIER_assert qs_assert_N`, and generates the tables qs_mains / qs_assert_fns.
 * It also rewrites the loop heads `while (__VERIFIER_nondet_int())` to `while (qs_loop_cond())`
 * and compiles the scenarios with -finstrument-functions, so the harness counts how often the
 * selected scenario's __VERIFIER_assert was entered: a test can tell that the assertion was
 * really checked. One run ends when main returns (done), __VERIFIER_assume fails (infeasible:
 * not a real execution) or reach_error calls __assert_fail (error); the last two longjmp back.
 *
 *   prog N seeds FIRST COUNT    one run of scenario N per seed; stops at the first error
 *   prog N witness V1 V2 ...    one run whose first nondet values are V1, V2, ... (then random)
 *
 * Output, one line: "done=D infeasible=I error=E asserts=A error_seed=S" (S = -1 if no error).
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

extern int (*const qs_mains[])(void);
extern void (*const qs_assert_fns[])(int);
extern const int qs_scenario_count;
static int qs_current;

enum { RUN_DONE = 0, RUN_INFEASIBLE = 1, RUN_ERROR = 2 };

static jmp_buf qs_env;
static unsigned long long qs_state;
static long long qs_witness[128];
static int qs_witness_len, qs_witness_pos;
static int qs_witness_mode;
static int qs_loop_budget;
static long qs_asserts;

void __assert_fail(const char *a, const char *f, unsigned int l, const char *fn) {
  (void)a; (void)f; (void)l; (void)fn;
  longjmp(qs_env, RUN_ERROR);
}

void __VERIFIER_assume(int cond) {
  if (!cond) longjmp(qs_env, RUN_INFEASIBLE);
}

void __cyg_profile_func_enter(void *fn, void *site) __attribute__((no_instrument_function));
void __cyg_profile_func_exit(void *fn, void *site) __attribute__((no_instrument_function));
void __cyg_profile_func_enter(void *fn, void *site) {
  (void)site;
  if (fn == (void *)qs_assert_fns[qs_current]) qs_asserts++;
}
void __cyg_profile_func_exit(void *fn, void *site) { (void)fn; (void)site; }

static unsigned long long next(void) { /* splitmix64 */
  unsigned long long z = (qs_state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

/* Values near the edges of every type and of the kernels' assumptions. */
static const long long interesting[] = {
  0, 1, -1, 2, -2, 3, 7, 8, 31, 32, 99, 100, 127, 128, -128, -129, 255, 256, 499, -499, 500, -500,
  999, -999, 1000, -1000, 32767, -32768, 32768, 65535, 65536, 99999, -99999, 2147483647LL,
  -2147483647LL - 1, 2147483648LL, 4294967295LL,
};

/* Witness values first, then a mix: small numbers (3/8), interesting edges (1/4), a moderate
 * range (1/4) and anything at all (1/8), truncated by the caller to the function's type. */
static long long draw(void) {
  if (qs_witness_pos < qs_witness_len) return qs_witness[qs_witness_pos++];
  switch (next() % 8) {
  case 0: case 1: case 2: return (long long)(next() % 33) - 16;
  case 3: case 4: return interesting[next() % (sizeof interesting / sizeof interesting[0])];
  case 5: case 6: return (long long)(next() % 4001) - 2000;
  default: return (long long)next();
  }
}

int __VERIFIER_nondet_int(void) { return (int)draw(); }
unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)draw(); }
char __VERIFIER_nondet_char(void) { return (char)draw(); }
unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)draw(); }
short __VERIFIER_nondet_short(void) { return (short)draw(); }
unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)draw(); }
float __VERIFIER_nondet_float(void) { return (float)draw(); }
double __VERIFIER_nondet_double(void) { return (double)draw(); }

/* Loop conditions of arbitrary-bound loops: a few iterations, then stop. With a witness, always
 * enter (the twin fails on its first check); otherwise continue with probability 3/4. The
 * per-run budget bounds the total work of nested arbitrary loops. */
int qs_loop_cond(void) {
  if (qs_loop_budget <= 0) return 0;
  qs_loop_budget--;
  if (qs_witness_mode) return 1;
  return next() % 4 != 0;
}

/* One run of the scenario; the longjmp value of __VERIFIER_assume / __assert_fail ends it early. */
static int run_once(unsigned long long state, int loop_budget) {
  qs_state = state;
  qs_witness_pos = 0;
  qs_loop_budget = loop_budget;
  switch (setjmp(qs_env)) {
  case 0:
    qs_mains[qs_current]();
    return RUN_DONE;
  case RUN_INFEASIBLE:
    return RUN_INFEASIBLE;
  default:
    return RUN_ERROR;
  }
}

int main(int argc, char **argv) {
  long counts[3] = {0, 0, 0};
  long error_seed = -1;
  if (argc < 3 || (qs_current = atoi(argv[1])) < 0 || qs_current >= qs_scenario_count) {
    fprintf(stderr, "usage: %s N seeds FIRST COUNT | N witness V...\n", argv[0]);
    return 2;
  }
  if (argv[2][0] == 'w') {
    qs_witness_mode = 1;
    for (int i = 3; i < argc && qs_witness_len < 128; i++) qs_witness[qs_witness_len++] = strtoll(argv[i], 0, 10);
    int r = run_once(1, 4);
    counts[r]++;
    if (r == RUN_ERROR) error_seed = 0;
  } else if (argc == 5 && argv[2][0] == 's') {
    long first = strtol(argv[3], 0, 10), count = strtol(argv[4], 0, 10);
    for (long s = first; s < first + count; s++) {
      int r = run_once((unsigned long long)s * 0x2545F4914F6CDD1DULL + 1, 40);
      counts[r]++;
      if (r == RUN_ERROR) { error_seed = s; break; }
    }
  } else {
    fprintf(stderr, "usage: %s N seeds FIRST COUNT | N witness V...\n", argv[0]);
    return 2;
  }
  printf("done=%ld infeasible=%ld error=%ld asserts=%ld error_seed=%ld\n", counts[0], counts[1], counts[2],
         qs_asserts, error_seed);
  return 0;
}
