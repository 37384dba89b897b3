/* `ext` has no body and its address is taken: a call through a pointer of its type cannot be
 * modelled faithfully (what would `ext` do?), so it is rejected, located at the call. */
extern int ext(int);
static int twice(int x) { return 2 * x; }
int main(void) {
  int (*p)(int) = twice;
  if (ext(0))
    p = ext;
  return p(1);
}
