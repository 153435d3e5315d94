// Floating point: Newton's square root, series, conversions, comparisons.
#include <stdio.h>

static double newton_sqrt(double x) {
    double g = x / 2;
    for (int i = 0; i < 30; i++) g = 0.5 * (g + x / g);
    return g;
}

static double pi_leibniz(int terms) {
    double s = 0;
    for (int k = 0; k < terms; k++) s += (k % 2 ? -4.0 : 4.0) / (2 * k + 1);
    return s;
}

int main(void) {
    double r = newton_sqrt(2.0);
    double p = pi_leibniz(100000);
    float h = (float)r * 3.5f;
    long truncated = (long)(p * 1e6);
    printf("sqrt2=%.12f pi~%.8f h=%.5f trunc=%ld cmp=%d\n", r, p, h, truncated, r < p);
    return (int)(truncated % 97);
}
