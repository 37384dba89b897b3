extern void __VERIFIER_assert(int);
int main(void) {
  unsigned long long x = __builtin_bswap64(1ULL);
  __VERIFIER_assert(x != 0x0100000000000000ULL);
  return 0;
}
