/* Comparing a freed pointer with a null pointer constant is not checked: no layout makes a
   pointer into an object null (the idiom `free(p); if (p != NULL) ...` stays TRUE). */
#include <stdlib.h>
extern void __VERIFIER_assert(int);
int main(void) {
  int *p = malloc(sizeof(int));
  free(p);
  if (p != NULL)
    p = NULL;
  __VERIFIER_assert(p == 0);
  return 0;
}
