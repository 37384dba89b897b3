int twice(int x) { return x + x; }
