/* Arrays, pointer arithmetic and comparisons, memory views, memset/memcpy. */
#include <string.h>
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);

static unsigned int h = 5;
static void mix(unsigned long long v) { h = h * 37u + (unsigned int)v + (unsigned int)(v >> 32); }

int g[10];
int grid[3][4];
int *gp = &g[3];
char *names[] = {"zero", "one", "two"};

static int sum(int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; k++) s += p[k];
  return s;
}

static void bump(int *p) { (*p)++; }

int main(void) {
  int n = __VERIFIER_nondet_int();
  int a[8];
  for (int k = 0; k < 8; k++) a[k] = k * n + 1;
  int *p = a;
  int *q = &a[5];
  mix(q - p);
  mix(*(p + 3));
  mix(p[7]);
  mix(3[a]);
  mix(q > p);
  mix(p <= q);
  mix(p == a);
  mix(*q++);
  mix(*q);
  mix(*--q);
  mix(sum(a, 8));
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++) grid[r][c] = r * 10 + c + n;
  mix(grid[2][3]);
  mix(*(*(grid + 1) + 2));
  mix(sizeof grid);
  mix(sizeof grid[0]);
  int (*row)[4] = grid + 1;
  mix((*row)[1]);
  mix(row[1][0]);
  mix(gp - g);
  *gp = n;
  mix(g[3]);
  bump(&g[3]);
  bump(gp);
  mix(g[3]);
  int x = n;
  int *px = &x;
  *px += 4;
  bump(&x);
  mix(x);
  unsigned char *bytes = (unsigned char *)&x;
  mix(bytes[0]);
  mix(bytes[3]);
  bytes[1] = 0xab;
  mix(x);
  unsigned int word = 0x11223344;
  unsigned short *half = (unsigned short *)&word;
  mix(half[1]);
  char buf[16];
  memset(buf, 'x', sizeof buf);
  memcpy(buf + 2, names[1], 4);
  mix(buf[0]);
  mix(buf[2]);
  mix(buf[5]);
  mix(buf[6]);
  memmove(buf + 1, buf, 8);
  mix(buf[3]);
  mix(names[2][1]);
  mix(*names[0]);
  int *heap = malloc(5 * sizeof(int));
  for (int k = 0; k < 5; k++) heap[k] = k * k;
  mix(heap[4] + heap[2]);
  int *z = calloc(4, sizeof(int));
  mix(z[3]);
  free(z);
  free(heap);
  free(0);
  void *vp = a;
  mix((int *)vp + 2 == &a[2]);
  mix((char *)(a + 2) - (char *)a);
  long diff = &a[7] - &a[1];
  mix(diff);
  mix(p != 0);
  mix(!p);
  int *null = 0;
  mix(null == 0);
  mix(null ? 1 : 2);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
