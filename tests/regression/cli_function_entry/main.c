/* --function: verification from another entry point; its parameters are inputs, a pointer
 * parameter points to a fresh object of its type with arbitrary contents. */
extern void __VERIFIER_assert(int);
struct buf {
  int len;
  char data[8];
};
int put(struct buf *b, char c, int at) {
  if (at < 0 || at >= 8)
    return -1;
  b->data[at] = c;
  if (b->len < at + 1)
    b->len = at + 1;
  __VERIFIER_assert(b->len <= 7); /* fails: at == 7 makes len 8 */
  return 0;
}
int checked(int x) {
  int y = x < 0 ? -x : x;
  __VERIFIER_assert(x == -2147483647 - 1 || y >= 0);
  return y;
}
int main(void) { return 0; }
