// Bit manipulation builtins: popcount, leading/trailing zeros, byte swaps, rotates, abs, min/max.
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t rotl32(uint32_t x, unsigned r) { return (x << (r & 31)) | (x >> ((32 - r) & 31)); }
static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
static uint8_t sat_add_u8(uint8_t a, uint8_t b) { unsigned s = a + b; return s > 255 ? 255 : s; }

int main(void) {
    uint64_t h = 0x9E3779B97F4A7C15ull;
    int total = 0;
    for (int i = 1; i < 40; i += 3) {
        uint32_t x = (uint32_t)(h >> (i % 32)) | 1u;
        printf("%08x pop=%d clz=%d ctz=%d bswap=%08x rot=%08x\n", x, __builtin_popcount(x), __builtin_clz(x),
               __builtin_ctz(x << (i % 7)), __builtin_bswap32(x), rotl32(x, i));
        total += __builtin_popcountll(h ^ x) + abs(clamp((int)x, -1000, 1000));
        h = h * 6364136223846793005ull + 1442695040888963407ull;
    }
    printf("bswap64 %016llx bswap16 %04x\n", (unsigned long long)__builtin_bswap64(h), __builtin_bswap16((uint16_t)h));
    printf("sat %u %u labs %ld\n", sat_add_u8(200, 100), sat_add_u8(20, 30), labs(-1234567890123L));
    return total & 0x7f;
}
