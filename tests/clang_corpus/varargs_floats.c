// printf with floating-point arguments mixed with integers.
#include <stdio.h>

int main(void) {
    double x = 1.0;
    float f = 0.5f;
    for (int i = 1; i <= 6; i++) {
        x = x * 1.5 + i;
        f = f * 2.0f - 0.25f;
        printf("%d: x=%.4f f=%.3f sum=%g\n", i, x, f, x + f);
    }
    printf("%e %8.2f %-8.1f|\n", x, -x, (double)f);
    return (int)x % 64;
}
