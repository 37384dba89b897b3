extern void reach_error(void);
extern long __VERIFIER_nondet_long(void);
int main(void) { long x = __VERIFIER_nondet_long(); if (x > 2147483647L) reach_error(); return 0; }
