// Floating-point kernels: a Whetstone-like mix of arithmetic and library calls, the Mandelbrot set,
// and 3x3 matrix products. argv[1]: how many times to repeat the work.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

static double whetstone(int loops) {
    double x1 = 1.0, x2 = -1.0, x3 = -1.0, x4 = -1.0, t = 0.499975, t2 = 2.0;
    for (int i = 0; i < loops; i++) {
        x1 = (x1 + x2 + x3 - x4) * t;
        x2 = (x1 + x2 - x3 + x4) * t;
        x3 = (x1 - x2 + x3 + x4) * t;
        x4 = (-x1 + x2 + x3 + x4) / t2;
    }
    double x = 0.5, y = 0.5;
    for (int i = 1; i < loops / 10; i++) {
        x = t * atan(t2 * sin(x) * cos(x) / (cos(x + y) + cos(x - y) - 1.0));
        y = t * atan(t2 * sin(y) * cos(y) / (cos(x + y) + cos(x - y) - 1.0));
    }
    return x1 + x2 + x3 + x4 + x + y + sqrt(exp(log(t2)));
}

static int mandelbrot(int size) {
    int inside = 0;
    for (int py = 0; py < size; py++) {
        for (int px = 0; px < size; px++) {
            double cr = 2.0 * px / size - 1.5, ci = 2.0 * py / size - 1.0, zr = 0.0, zi = 0.0;
            int n = 0;
            while (n < 100 && zr * zr + zi * zi <= 4.0) {
                double t = zr * zr - zi * zi + cr;
                zi = 2.0 * zr * zi + ci;
                zr = t;
                n++;
            }
            inside += n == 100;
        }
    }
    return inside;
}

typedef struct { double m[3][3]; } mat3;

static mat3 mul(const mat3 *a, const mat3 *b) {
    mat3 c;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
            double s = 0.0;
            for (int k = 0; k < 3; k++) s += a->m[i][k] * b->m[k][j];
            c.m[i][j] = s;
        }
    return c;
}

static double matrices(int n) {
    mat3 a = {{{0.9, 0.1, 0.0}, {-0.1, 0.9, 0.05}, {0.0, -0.05, 0.95}}}, acc = {{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
    for (int i = 0; i < n; i++) {
        acc = mul(&acc, &a);
        acc.m[0][0] += 1e-3;
    }
    return acc.m[0][0] + acc.m[1][1] + acc.m[2][2];
}

int main(int argc, char **argv) {
    long repeat = argc > 1 ? atol(argv[1]) : 1;
    double sum = 0.0;
    long inside = 0;
    for (long r = 0; r < repeat; r++) {
        sum += whetstone(20000 + (int)(r & 1)) + matrices(20000 + (int)(r & 1));
        inside += mandelbrot(120 + (int)(r & 1));
    }
    printf("%.6f %ld\n", sum, inside);
    return 0;
}
