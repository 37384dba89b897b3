extern void abort(void);
void reach_error(void) { abort(); }
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
int main(void) {
  int s = 0;
  for (int i = 0; i < 100; i++)
    s += 1;
  for (int j = 0; j < 3; j++)
    s += 2;
  __VERIFIER_assert(s == 106);
  return 0;
}
