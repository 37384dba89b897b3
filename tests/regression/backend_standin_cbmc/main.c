/* qicc example: nested loops whose assertion always holds (TRUE).
 *   qicc verify examples/two_sum.c
 */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) {}
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); abort(); } }

#define SIZE 8
int found;

void two_sum(unsigned int *arr, unsigned int s) {
  for (int i = 0; i < SIZE; i++)
    for (int j = 0; j < i; j++) {
      __VERIFIER_assert(j < SIZE);
      if (arr[j] + arr[i] == s) found = 1;
    }
}

int main(void) {
  unsigned int arr[SIZE];
  for (int k = 0; k < SIZE; k++) arr[k] = __VERIFIER_nondet_uint();
  two_sum(arr, __VERIFIER_nondet_uint());
  return 0;
}
