extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
void f(void) { ; }
void g(void) { return; }
void h(void) { if (0) {} }
void k(int x) { switch (x) { case 1: x++; } }
void m(void) { goto end; end: ; }
int main(void) { f(); g(); h(); k(__VERIFIER_nondet_int()); m(); __VERIFIER_assert(0); return 0; }
