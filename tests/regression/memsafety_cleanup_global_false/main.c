#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
struct node { struct node *next; int v; };
struct node *head;
int main(void) {
  int n = __VERIFIER_nondet_int();
  for (int i = 0; i < n && i < 3; i++) {
    struct node *x = malloc(sizeof(struct node));
    x->next = head;
    x->v = i;
    head = x;
  }
  return 0;
}
