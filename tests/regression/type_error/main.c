struct s { int a; };
int main(void) {
  struct s v;
  v.a = 1;
  return v.b;
}
