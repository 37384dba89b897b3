/* C promises an object's address is aligned to its type, nothing more: gcc -O0 fails this
   on about half its runs. The model's fixed layout aligned every object to 2^k. */
extern void __VERIFIER_assert(int);
struct S { int a; char c; } s;
int main(void) {
  __VERIFIER_assert((unsigned long)&s % 32 == 0);
  return 0;
}
