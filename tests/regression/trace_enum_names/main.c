/* Values of enumerated types read by their enumerators' names in a trace: a local, a typedef'd
   global, a struct member, a parameter, and a constant compared with one. A pointer to an enum
   and an int are plain numbers. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);

enum state { IDLE, RUNNING = 5, DONE };
typedef enum { RED = -1, GREEN, BLUE } colour;

struct job {
    enum state st;
    int n;
};

colour paint;

static int finish(enum state s) {
    if (s == DONE)
        return 1;
    return 0;
}

int main(void) {
    struct job j = {IDLE, 0};
    enum state next = RUNNING;
    int plain = 5;
    enum state *p = &next;
    paint = RED;
    if (__VERIFIER_nondet_int()) {
        j.st = next;
        next = DONE;
        paint = BLUE;
    }
    *p = next;
    __VERIFIER_assert(!finish(next) || plain != 5);
    return 0;
}
