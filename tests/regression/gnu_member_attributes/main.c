/* aligned(N) and packed on struct members change the layout as gcc's do (values from gcc and
 * gcc -m32): a member's alignment is N or, if larger, 1 when packed and its type's otherwise. */
#include <stddef.h>
struct s { char c; int x __attribute__((aligned(8))); };
struct t { char c; int x __attribute__((packed)); long y; };
struct __attribute__((packed)) u { char c; int x __attribute__((aligned(4))); short z; };
struct v { char c; double d __attribute__((aligned(2))); };
extern void __VERIFIER_assert(int);
int main(void) {
  int lp64 = sizeof(void *) == 8;
  __VERIFIER_assert(sizeof(struct s) == 16 && offsetof(struct s, x) == 8 && _Alignof(struct s) == 8);
  __VERIFIER_assert(offsetof(struct t, x) == 1 && sizeof(struct t) == (lp64 ? 16 : 12));
  __VERIFIER_assert(offsetof(struct u, x) == 4 && offsetof(struct u, z) == 8 && sizeof(struct u) == 12);
  __VERIFIER_assert(offsetof(struct v, d) == (lp64 ? 8 : 4) && sizeof(struct v) == (lp64 ? 16 : 12));
  return 0;
}
