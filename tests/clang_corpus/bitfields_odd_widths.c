/* Bit-field runs of 3, 5, 6 and 7 bytes: clang-19 gives them storage units of i24, i40, i48 and i56
   (load i24, lshr i40, trunc ... to i48), which patchmap reads and compiles as LLVM legalises them. */
#include <stdio.h>
struct T3 { unsigned a : 12, b : 12; char c; };
struct T5 { unsigned long long a : 20, b : 19, s : 1; unsigned char c; };
struct T6 { long long a : 30; long long b : 17; unsigned char c; unsigned char d; };
struct T7 { unsigned long long a : 50, b : 5; char c; };
static struct T3 t3[4];
static struct T5 t5[3];
static struct T6 t6[3];
static struct T7 t7[2];
__attribute__((noinline)) long long step(int k) {
  long long sum = 0;
  for (int i = 0; i < 4; i++) {
    t3[i].a += k * 37 + i; t3[i].b -= k * 11; t3[i].c ^= (char)k;
    sum += t3[i].a * 3 + t3[i].b + t3[i].c;
  }
  for (int i = 0; i < 3; i++) {
    t5[i].a = t5[i].a * 7 + k; t5[i].b -= k << 9; t5[i].s = !t5[i].s; t5[i].c += 3;
    t6[i].a = t6[i].a * -5 + k * 1000003; t6[i].b = t6[i].b / 3 - k * 999; t6[i].c++; t6[i].d--;
    sum += (long long)t5[i].a - t5[i].b + t5[i].s + t5[i].c + t6[i].a + t6[i].b + t6[i].c - t6[i].d;
  }
  for (int i = 0; i < 2; i++) {
    t7[i].a = t7[i].a * 1234567 + k; t7[i].b += k; t7[i].c -= (char)k;
    sum += (long long)(t7[i].a >> 3) + t7[i].b + t7[i].c;
  }
  return sum;
}
int main(void) {
  long long total = 0;
  for (int k = -20; k < 60; k += 7) {
    total += step(k);
    printf("%d %lld %u %u %lld %lld %llu\n", k, total, t3[1].a, t3[2].b, (long long)t6[2].a, (long long)t6[1].b,
           (unsigned long long)t7[1].a);
  }
  printf("%zu %zu %zu %zu\n", sizeof(struct T3), sizeof(struct T5), sizeof(struct T6), sizeof(struct T7));
  return (int)(total & 0x7f);
}
