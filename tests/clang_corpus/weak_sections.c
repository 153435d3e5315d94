// Weak definitions, functions and data in named sections, aligned functions, static inline helpers.
#include <stdio.h>

__attribute__((weak)) int tunable = 7;
__attribute__((section("my_table"), used)) static const int table[4] = {3, 1, 4, 1};
__attribute__((weak)) int hook(int x) { return x * 2; }
__attribute__((section(".text.hot"), noinline)) static int hot(int x) { return x + table[x & 3]; }
__attribute__((aligned(64), noinline)) int aligned_fn(int x) { return x ^ 0x55; }
static inline int twice(int x) { return 2 * x; }

int main(void) {
    int acc = 0;
    for (int i = 0; i < 10; i++) acc += hot(i) + hook(i) + twice(tunable);
    printf("acc=%d aligned=%d low bits=%d\n", acc, aligned_fn(acc), (int)((unsigned long)&aligned_fn & 63));
    return acc & 0x3f;
}
