// Bit manipulation in a loop: bit reversal (the FFT permutation), population counts, leading and
// trailing zeros, byte swaps and rotates, as hashes and bit sets use them.
// argv[1]: how many times to repeat the work.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t reverse32(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    x = ((x >> 8) & 0x00FF00FFu) | ((x & 0x00FF00FFu) << 8);
    return (x >> 16) | (x << 16);
}

static uint64_t rotl64(uint64_t x, unsigned r) { return (x << (r & 63)) | (x >> ((64 - r) & 63)); }

int main(int argc, char **argv) {
    long repeat = argc > 1 ? atol(argv[1]) : 1;
    uint64_t acc = 0;
    for (long r = 0; r < repeat; r++) {
        for (uint32_t i = 1; i < 200000; i++) {
            uint32_t x = i * 2654435761u + (uint32_t)r;
            acc += reverse32(x) >> 3;
            acc += (uint64_t)__builtin_popcount(x) + (uint64_t)__builtin_clz(x | 1) + (uint64_t)__builtin_ctz(x | 0x80000000u);
            acc ^= __builtin_bswap64(acc) + rotl64(acc, i);
        }
    }
    printf("%llu\n", (unsigned long long)acc);
    return 0;
}
