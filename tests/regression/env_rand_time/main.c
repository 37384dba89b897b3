/* rand() and time() are inputs of the run (in the trace, and fed to the native replay). */
#include <stdlib.h>
#include <time.h>
extern void __VERIFIER_assert(int);
int main(void) {
  srand(time(0));
  int r = rand();
  __VERIFIER_assert(r >= 0 && r <= RAND_MAX);
  time_t t; time(&t);
  int k = rand() % 6;
  __VERIFIER_assert(k != 5 || t != 1234);
  return 0;
}
