// Byte work the vectorisers take at -O2: a histogram, string scans (length, counting, case
// mapping), min/max searches over signed and unsigned elements, and comparisons into masks.
#include <stdio.h>
#include <stdint.h>
#include <string.h>

#define N 777

static uint8_t buf[N];
static char text[N + 1];
static int16_t v16[N];
static uint32_t u32[N];
static float fl[N];

__attribute__((noinline)) static void histogram(const uint8_t *p, int n, uint32_t *bins) {
    for (int i = 0; i < n; i++) bins[p[i] >> 4]++;
}

__attribute__((noinline)) static int count_char(const char *s, int n, char c) {
    int k = 0;
    for (int i = 0; i < n; i++) k += s[i] == c;
    return k;
}

__attribute__((noinline)) static void upper(char *s, int n) {
    for (int i = 0; i < n; i++) s[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
}

__attribute__((noinline)) static int16_t max16(const int16_t *p, int n) {
    int16_t m = INT16_MIN;
    for (int i = 0; i < n; i++) m = p[i] > m ? p[i] : m;
    return m;
}

__attribute__((noinline)) static int16_t min16(const int16_t *p, int n) {
    int16_t m = INT16_MAX;
    for (int i = 0; i < n; i++) m = p[i] < m ? p[i] : m;
    return m;
}

__attribute__((noinline)) static uint32_t umax32(const uint32_t *p, int n) {
    uint32_t m = 0;
    for (int i = 0; i < n; i++) m = p[i] > m ? p[i] : m;
    return m;
}

__attribute__((noinline)) static uint8_t minbyte(const uint8_t *p, int n) {
    uint8_t m = 255;
    for (int i = 0; i < n; i++) m = p[i] < m ? p[i] : m;
    return m;
}

__attribute__((noinline)) static int clamp_count(float *p, int n, float lo, float hi) {
    int clamped = 0;
    for (int i = 0; i < n; i++) {
        float v = p[i];
        clamped += (v < lo) | (v > hi);
        p[i] = v < lo ? lo : (v > hi ? hi : v);
    }
    return clamped;
}

__attribute__((noinline)) static uint32_t xor_all(const uint32_t *p, int n) {
    uint32_t r = 0;
    for (int i = 0; i < n; i++) r ^= p[i] | (p[i] >> 9);
    return r;
}

int main(void) {
    uint32_t seed = 99;
    for (int i = 0; i < N; i++) {
        seed = seed * 1664525u + 1013904223u;
        buf[i] = (uint8_t)(seed >> 24);
        text[i] = (char)(' ' + (seed >> 20) % 95);
        v16[i] = (int16_t)(seed >> 9);
        u32[i] = seed;
        fl[i] = (float)(int32_t)(seed >> 16) / 100.0f - 300.0f;
    }
    text[N] = 0;
    v16[400] = INT16_MIN;
    v16[401] = INT16_MAX;
    uint32_t bins[16] = {0};
    histogram(buf, N, bins);
    for (int i = 0; i < 16; i++) printf("%u ", bins[i]);
    printf("\ncount=%d %d len=%zu\n", count_char(text, N, 'e'), count_char(text, N, ' '), strlen(text));
    upper(text, N);
    printf("upper: %.40s count=%d\n", text, count_char(text, N, 'E'));
    printf("max16=%d min16=%d umax=%u minbyte=%u\n", max16(v16, N), min16(v16, 399), umax32(u32, N),
           minbyte(buf, N));
    int c = clamp_count(fl, N, -100.0f, 250.5f);
    float s = 0;
    for (int i = 0; i < N; i++) s += fl[i];
    printf("clamped=%d sum=%.2f xor=%08x\n", c, s, xor_all(u32, N));
    return c % 50;
}
