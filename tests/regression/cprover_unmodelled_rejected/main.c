int main(void) { char b[4]; int ok = __CPROVER_r_ok(b, 4); __CPROVER_assert(ok, "readable"); return 0; }
