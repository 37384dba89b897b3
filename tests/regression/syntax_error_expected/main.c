int main(void) {
  int x = 3
  return x;
}
