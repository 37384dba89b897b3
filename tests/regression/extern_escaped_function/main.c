/* A body-less function could call a function whose address the program keeps in memory it can
 * reach (here: a global table of handlers): not modelled by its stub, so rejected. */
extern void dispatch_all(void);
extern void reach_error(void);
void handler(void) { reach_error(); }
void (*handlers[1])(void) = {handler};
int main(void) {
  dispatch_all();
  return 0;
}
