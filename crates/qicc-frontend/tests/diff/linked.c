/* Heap structures: a linked list built with malloc, walked, reversed and freed. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

struct node { int v; struct node *next; };

static struct node *push(struct node *head, int v) {
  struct node *n = malloc(sizeof *n);
  n->v = v;
  n->next = head;
  return n;
}

static struct node *reverse(struct node *l) {
  struct node *r = 0;
  while (l) { struct node *next = l->next; l->next = r; r = l; l = next; }
  return r;
}

int main(void) {
  int len = __VERIFIER_nondet_int() & 15;
  struct node *l = 0;
  for (int i = 0; i < len; i++) l = push(l, __VERIFIER_nondet_int() & 0xff);
  l = reverse(l);
  unsigned int h = 0;
  int count = 0;
  for (struct node *p = l; p != 0; p = p->next) { h = h * 31 + p->v; count++; }
  while (l) { struct node *n = l->next; free(l); l = n; }
  return (int)((h + count) & 0xff);
}
