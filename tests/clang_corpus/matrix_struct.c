// A matrix inside a struct, multiplied and passed by pointer.
#include <stdio.h>

struct mat { int n; long m[4][4]; };

static void mul(const struct mat *a, const struct mat *b, struct mat *out) {
    out->n = a->n;
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < a->n; j++) {
            long s = 0;
            for (int k = 0; k < a->n; k++) s += a->m[i][k] * b->m[k][j];
            out->m[i][j] = s;
        }
}

int main(void) {
    struct mat a = { 4, { { 1, 2, 0, 0 }, { 0, 1, 3, 0 }, { 0, 0, 1, 4 }, { 5, 0, 0, 1 } } };
    struct mat r = a, t;
    for (int p = 0; p < 3; p++) { mul(&r, &a, &t); r = t; }
    long trace = 0;
    for (int i = 0; i < 4; i++) { printf("%ld %ld %ld %ld\n", r.m[i][0], r.m[i][1], r.m[i][2], r.m[i][3]); trace += r.m[i][i]; }
    return (int)(trace % 200);
}
