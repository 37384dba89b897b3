struct counter { int n; int limit; };
void counter_init(struct counter *c, int limit);
int counter_step(struct counter *c);
extern int total;
struct counter make(int limit);
