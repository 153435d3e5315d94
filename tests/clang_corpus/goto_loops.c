// Nested loops with break, continue and goto; do-while; a short-circuiting condition.
#include <stdio.h>

int main(void) {
    int found = 0, iterations = 0;
    for (int i = 1; i < 50; i++) {
        for (int j = i; j < 50; j++) {
            iterations++;
            if ((i * j) % 7 == 3) continue;
            if (i + j > 60 && i * j > 900) { found = i * 100 + j; goto done; }
        }
    }
done:;
    int k = 0, n = 27;
    do { n = (n & 1) ? 3 * n + 1 : n >> 1; k++; } while (n != 1 && k < 1000);
    printf("found=%d iterations=%d k=%d\n", found, iterations, k);
    return (found + k) & 0xff;
}
