// Small leaf functions called through pointers, which no compiler can inline: a qsort comparator and
// a table of arithmetic operations, as interpreters and container libraries call them.
// argv[1]: how many times to repeat the work.
#include <stdio.h>
#include <stdlib.h>

static int compare(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_xor(long a, long b) { return a ^ b; }
static long op_mul(long a, long b) { return a * b; }

static long (*const volatile ops[4])(long, long) = {op_add, op_sub, op_xor, op_mul};

int main(int argc, char **argv) {
    long repeat = argc > 1 ? atol(argv[1]) : 1;
    enum { N = 2000 };
    static long values[N];
    long acc = 0;
    for (long r = 0; r < repeat; r++) {
        unsigned long seed = 88172645463325252ul + (unsigned long)r;
        for (int i = 0; i < N; i++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            values[i] = (long)(seed % 100000);
        }
        qsort(values, N, sizeof values[0], compare);
        for (int i = 0; i < N; i++) acc = ops[i & 3](acc, values[i]);
    }
    printf("%ld %ld %ld\n", values[0], values[N - 1], acc);
    return 0;
}
