typedef int (*op)(int);
int apply(op f, int x) { return f(x); }
static int twice(int x) { return 2 * x; }
op get_twice(void) { return twice; }
