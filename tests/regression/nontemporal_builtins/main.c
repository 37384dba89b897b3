extern void __VERIFIER_assert(int);
int main(void) { long a[2] = {1, 2}; __builtin_nontemporal_store(7, &a[1]); long v = __builtin_nontemporal_load(&a[1]);
  __VERIFIER_assert(v == 7 && a[0] == 1);
  __VERIFIER_assert(__builtin_nontemporal_load(&a[2]) == 0);
  return 0; }
