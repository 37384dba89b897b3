/* The environment is an input: a HOME that is set and does not start with '/' reaches the
 * error (the native replay's getenv feeds the same string). */
#include <stdlib.h>
extern void reach_error(void);

int main(void) {
  const char *home = getenv("HOME");
  if (home != 0 && home[0] == 'x' && home[1] == 0)
    reach_error();
  return 0;
}
