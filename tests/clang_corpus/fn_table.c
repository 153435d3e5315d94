// A constant table of function pointers in a global initialiser.
#include <stdio.h>

static long twice(long x) { return 2 * x; }
static long half(long x) { return x / 2; }
static long square(long x) { return x * x; }
static long negate(long x) { return -x; }

static long (*const table[])(long) = { twice, half, square, negate };
static const char *names[] = { "twice", "half", "square", "negate" };

int main(void) {
    long v = 3;
    for (int i = 0; i < 12; i++) {
        long (*op)(long) = table[i % 4];
        v = op(v) + i;
        printf("%-6s -> %ld\n", names[i % 4], v);
    }
    return (int)(v & 0x7f);
}
