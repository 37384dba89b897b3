/* Integer types, promotions, usual arithmetic conversions, constants, casts. */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern char __VERIFIER_nondet_char(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern long __VERIFIER_nondet_long(void);
extern _Bool __VERIFIER_nondet_bool(void);

static unsigned int h = 17;
static void mix(unsigned long long v) { h = h * 31u + (unsigned int)v + (unsigned int)(v >> 32); }

enum color { RED, GREEN = 5, BLUE };
enum sign { NEG = -2, POS = 2 };

int main(void) {
  int i = __VERIFIER_nondet_int();
  unsigned int u = __VERIFIER_nondet_uint();
  char c = __VERIFIER_nondet_char();
  short s = __VERIFIER_nondet_short();
  unsigned char uc = __VERIFIER_nondet_uchar();
  long l = __VERIFIER_nondet_long();
  _Bool b = __VERIFIER_nondet_bool();
  long long ll = (long long)i * 3 - u;
  unsigned long long ull = (unsigned long long)l + ll;

  mix(i + u);            /* int + unsigned -> unsigned */
  mix(i < u);            /* signed/unsigned comparison */
  mix(c < 0);
  mix(c + uc);
  mix(s * c);
  mix(uc << 3);
  mix((unsigned char)(uc + 200));
  mix((signed char)i);
  mix((short)u);
  mix((unsigned short)i);
  mix(l < u);            /* LP64: long wins; ILP32: unsigned long */
  mix(l + u);
  mix(ll);
  mix(ull >> 7);
  mix(ll >> 3);
  mix(-1 < 0u);
  mix(0xffffffff);
  mix(-2147483648 < 0);
  mix(0x7fffffff + 1 < 0);
  mix(4294967295 > 0);
  mix('a' + '\n' + '\x7f' + '\377');
  mix(sizeof(0x80000000));
  mix(sizeof(2147483648));
  mix(sizeof 'a');
  mix(sizeof(long) + sizeof(long long) * 2 + sizeof(short) * 3);
  mix(b);
  mix(b + b);
  _Bool b2 = i;
  mix(b2);
  b2 = 256;
  mix(b2);
  mix(b2);
  {
    char cc = c;
    cc += 100;
    mix(cc);
    cc *= 3;
    mix(cc);
    unsigned char x = uc;
    x -= 250;
    mix(x);
    x++;
    mix(x);
    x--;
    --x;
    mix(x);
    short ss = s;
    ss <<= 3;
    mix(ss);
    ss >>= 1;
    mix(ss);
    int k = i;
    k %= 7;
    mix(k);
    k /= -3;
    mix(k);
    unsigned int uu = u;
    uu /= 5;
    mix(uu);
    uu %= 9;
    mix(uu);
    k = i;
    int post = k++;
    int pre = ++k;
    mix(post);
    mix(pre);
    mix(k--);
    mix(--k);
    mix(~i);
    mix(-u);
    mix(!i);
    mix(!!u);
    mix(i & u | c ^ s);
  }
  enum color col = BLUE;
  mix(col);
  mix((enum color)-1 < 0); /* the enum is unsigned */
  mix((enum sign)-1 < 0);  /* this one is int */
  mix(NEG * POS);
  mix(GREEN + RED);
  long long prod = (long long)i * (long long)i;
  mix(prod);
  mix((unsigned)(i * i));
  mix(l * 3 / 2);
  mix(u > 0x80000000u ? u - 0x80000000u : u);
  mix(i > 0 && u > 5 || c == 3);
  return (int)((h ^ (h >> 8) ^ (h >> 16) ^ (h >> 24)) & 0xff);
}
