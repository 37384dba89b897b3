extern void __VERIFIER_assert(int);
int main(void) {
  int x = 5;
  void *y = __builtin_frame_address(0);
  __VERIFIER_assert(y != 0 && x == 5);
  return 0;
}
