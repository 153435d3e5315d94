// A struct of two doubles (an HFA on AArch64, two SSE registers on x86-64).
#include <stdio.h>

struct complex { double re, im; };

static struct complex mul(struct complex a, struct complex b) {
    struct complex r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
    return r;
}

int main(void) {
    struct complex z = { 1.0, 0.0 }, w = { 0.6, 0.8 };
    for (int i = 0; i < 10; i++) z = mul(z, w);
    printf("z = %.6f %+.6fi\n", z.re, z.im);
    return z.re > 0 ? 1 : 2;
}
