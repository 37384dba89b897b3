/* GNU attributes between `struct` and its tag (as dynamic-string libraries write their
 * headers): packed and aligned change the layout, as gcc lays it out. */
struct __attribute__((__packed__)) sdshdr8 { unsigned char len; unsigned char alloc; unsigned char flags; char buf[]; };
struct __attribute__((aligned(16))) A { char c; };
struct __attribute__ ((__packed__, __aligned__(2))) B { char c; int x; };
union __attribute__((packed)) U { char c; int x; };
extern void __VERIFIER_assert(int);
int main(void) {
  struct sdshdr8 h;
  h.len = 3;
  __VERIFIER_assert(sizeof(struct sdshdr8) == 3 && h.len == 3);
  __VERIFIER_assert(sizeof(struct A) == 16 && _Alignof(struct A) == 16);
  __VERIFIER_assert(sizeof(struct B) == 6 && sizeof(union U) == 4);
  return 0;
}
