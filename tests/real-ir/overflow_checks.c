// Overflow builtins whose `{ iN, i1 }` results clang -O2 may `freeze` as a whole.
#include <stdio.h>
#include <stdint.h>

__attribute__((noinline)) uint64_t mul_or_max(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_umull_overflow(a, b, &r))
    return UINT64_MAX;
  return r;
}

__attribute__((noinline)) int64_t sum_checked(const int64_t *xs, int n, int *overflowed) {
  int64_t total = 0;
  *overflowed = 0;
  for (int i = 0; i < n; i++) {
    int64_t next;
    if (__builtin_add_overflow(total, xs[i], &next)) {
      *overflowed = 1;
      return total;
    }
    total = next;
  }
  return total;
}

__attribute__((noinline)) unsigned long alloc_size(unsigned long count, unsigned long size) {
  unsigned long bytes;
  int bad = __builtin_mul_overflow(count, size, &bytes);
  return bad ? 0 : bytes;
}

int main(void) {
  uint64_t vals[] = {0, 1, 3, 0xffffffffull, 0x100000000ull, 0x7fffffffffffffffull, UINT64_MAX};
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 7; j++)
      printf("%llu ", (unsigned long long)mul_or_max(vals[i], vals[j]));
  printf("\n");
  int64_t xs[] = {1, 2, INT64_MAX - 10, 5, 6, 7};
  int of;
  long long t = sum_checked(xs, 6, &of);
  printf("%lld %d\n", t, of);
  t = sum_checked(xs, 2, &of);
  printf("%lld %d\n", t, of);
  printf("%lu %lu\n", alloc_size(10, 20), alloc_size(1ul << 40, 1ul << 30));
  return 0;
}
