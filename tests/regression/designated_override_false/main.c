extern void __VERIFIER_assert(int);
struct S { int b[4]; };
struct T { int x; struct S s; char name[6]; };
struct S g = { .b[2] = 8, .b = { [0] = 4 } };
struct T gt = { .s.b[3] = 5, .name = "ab", .s = { { 1 } }, .name[4] = 'z' };
int main(void) {
  struct S s = { .b[2] = 8, .b = { [0] = 4 } };
  struct T t = { .s.b[3] = 5, .name = "ab", .s = { { 1 } }, .name[4] = 'z' };
  char str[8] = "hi";
  __VERIFIER_assert(s.b[2] == 8);
  __VERIFIER_assert(g.b[2] == 0 && g.b[0] == 4);
  __VERIFIER_assert(t.s.b[3] == 0 && t.s.b[0] == 1 && t.name[0] == 'a' && t.name[4] == 'z' && t.name[3] == 0);
  __VERIFIER_assert(gt.s.b[3] == 0 && gt.s.b[0] == 1 && gt.name[1] == 'b' && gt.name[4] == 'z');
  __VERIFIER_assert(str[5] == 0 && str[7] == 0 && str[1] == 'i');
  return 0;
}
