/* Complex numbers are not modelled: named as such. */
#include <complex.h>
int main(void) { double complex z = 1.0 + 2.0*I; return creal(z) == 1.0; }
