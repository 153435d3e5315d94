// 64-bit arithmetic: wrap-around, division, shifts, mixed signedness.
#include <stdio.h>
#include <stdint.h>

static uint64_t mix(uint64_t h, uint64_t v) {
    h ^= v;
    h *= 0x100000001b3ULL;
    h ^= h >> 29;
    return h;
}

int main(void) {
    uint64_t h = 0xcbf29ce484222325ULL;
    int64_t s = -9000000000LL;
    for (int i = 0; i < 100; i++) {
        h = mix(h, (uint64_t)i * 0x9e3779b97f4a7c15ULL);
        s = s / 3 + (int64_t)(h % 1000) - 500;
    }
    int64_t q = INT64_MIN / 7, r = INT64_MIN % 7;
    printf("%016llx %lld %lld %lld %llu\n", (unsigned long long)h, (long long)s, (long long)q, (long long)r,
           (unsigned long long)(h >> 60 << 3 | (h & 7)));
    return (int)(h & 0xff);
}
