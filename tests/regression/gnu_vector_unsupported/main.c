/* GCC vector types are not modelled: named as such. */
typedef int v4si __attribute__((vector_size(16)));
int main(void) { v4si a = {1,2,3,4}; return a[0]; }
