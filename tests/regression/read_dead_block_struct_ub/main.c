extern void __VERIFIER_assert(int);
extern int __VERIFIER_nondet_int(void);
/* Issue 28 item 3: an address-taken variable of an inner block dies at the block's end,
   here left by `break`; writing through the kept pointer afterwards is undefined. */
struct pair { int a; int b; };
int main(void) {
  int *q = 0;
  for (int k = 0; k < 3; k++) {
    struct pair s = {1, 2};
    q = &s.b;
    if (__VERIFIER_nondet_int()) break;
  }
  *q = 3;
  __VERIFIER_assert(*q == 3);
  return 0;
}
