// Loops the vectorisers take at -O2: integer and float sums, dot products, saxpy, element-wise
// operations with wrap-around and narrowing, over arrays whose lengths are not multiples of 4.
#include <stdio.h>
#include <stdint.h>

#define N 1003

static int32_t a[N], b[N];
static int64_t wide[N];
static float x[N], y[N];
static double d[N];
static uint16_t h[N];
static int8_t s8[N];

__attribute__((noinline)) static int32_t sum_i32(const int32_t *p, int n) {
    int32_t s = 0;
    for (int i = 0; i < n; i++) s += p[i];
    return s;
}

__attribute__((noinline)) static int64_t sum_widened(const int32_t *p, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++) s += (int64_t)p[i] * p[i];
    return s;
}

__attribute__((noinline)) static void saxpy(float k, const float *src, float *dst, int n) {
    for (int i = 0; i < n; i++) dst[i] = k * src[i] + dst[i];
}

__attribute__((noinline)) static int64_t dot(const int32_t *p, const int32_t *q, int n) {
    int64_t s = 0;
    for (int i = 0; i < n; i++) s += (int64_t)p[i] * q[i];
    return s;
}

__attribute__((noinline)) static void mix(int n) {
    for (int i = 0; i < n; i++) {
        a[i] = (a[i] << 3) ^ (b[i] >> 2) ^ (int32_t)((uint32_t)b[i] >> 5);
        h[i] = (uint16_t)(h[i] * 31u + (uint16_t)a[i]);
        s8[i] = (int8_t)(s8[i] + (int8_t)b[i]);
        wide[i] = wide[i] - (int64_t)b[i] * 3;
        d[i] = d[i] * 0.5 + (double)a[i];
    }
}

__attribute__((noinline)) static uint32_t checksum(void) {
    uint32_t c = 0;
    for (int i = 0; i < N; i++) c = c * 33u + (uint32_t)a[i] + h[i] + (uint8_t)s8[i] + (uint32_t)wide[i];
    return c;
}

int main(void) {
    uint32_t seed = 12345;
    for (int i = 0; i < N; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = (int32_t)seed;
        b[i] = (int32_t)(seed >> 7) - (1 << 23);
        x[i] = (float)(int32_t)(seed % 2001u) / 8.0f - 100.0f;
        y[i] = (float)i * 0.25f;
        d[i] = i;
        h[i] = (uint16_t)(seed >> 3);
        s8[i] = (int8_t)(seed >> 11);
        wide[i] = (int64_t)seed << 20;
    }
    a[5] = INT32_MAX;
    a[6] = INT32_MIN;
    printf("sum=%d sumsq=%lld dot=%lld\n", sum_i32(a, N), (long long)sum_widened(b, N), (long long)dot(a, b, N));
    saxpy(1.5f, x, y, N);
    double fy = 0;
    for (int i = 0; i < N; i++) fy += y[i];
    printf("saxpy=%.3f y[7]=%.4f y[1002]=%.4f\n", fy, y[7], y[1002]);
    mix(N);
    mix(N - 2);
    printf("checksum=%u d=%.3f\n", checksum(), d[N - 1] + d[17]);
    return (int)(checksum() % 101);
}
