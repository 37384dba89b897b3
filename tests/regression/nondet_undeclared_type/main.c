/* No declarations: each input gets the type its SV-COMP name says, not C90's int. */
int main(void) {
  unsigned long x = __VERIFIER_nondet_ulong();
  unsigned char c = __VERIFIER_nondet_uchar();
  if (x > 4294967296UL && c == 200)
    __VERIFIER_error();
  return 0;
}
