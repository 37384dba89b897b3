/* qicc example: a buffer overflow that needs 9 loop iterations (FALSE).
 *   qicc verify examples/escape.c
 */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define BUFLEN 5000
char buf[BUFLEN];

int main(void) {
  int i = 0;
  while (i < BUFLEN) {
    char ch = __VERIFIER_nondet_char();
    if (ch == 0) break;
    if (ch == ' ') {
      __VERIFIER_assert(i + 1 < BUFLEN);   /* escaping writes two characters */
      buf[i] = '\\';
      buf[i + 1] = ' ';
      i += 2;
    } else {
      buf[i] = ch;
      i++;
    }
  }
  return 0;
}
