/* A body-less function given a function pointer could call it back: not modelled. */
extern void run(void (*cb)(void));
extern void reach_error(void);
void cb(void) { reach_error(); }
int main(void) {
  run(cb);
  return 0;
}
