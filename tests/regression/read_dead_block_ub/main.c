extern void __VERIFIER_assert(int);
/* Issue 28 item 3: an array's life ends with its block (C11 6.2.4p6). A pointer kept past
   the block points to a dead object; gcc -O0 reuses the slot (here for b), so the read
   gives 7 and the assertion fails. Reading it is undefined behaviour, never a FALSE. */
int main(void) {
  int *p = 0;
  for (int k = 0; k < 2; k++) {
    int a[2];
    a[0] = k;
    if (k == 0) p = a;
  }
  {
    int b[2] = {7, 7};
    __VERIFIER_assert(b[0] == 7);
  }
  __VERIFIER_assert(*p == 0);
  return 0;
}
