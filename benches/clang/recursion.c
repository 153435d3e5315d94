// Call-heavy recursion (Fibonacci, Ackermann, Takeuchi): the function call and frame costs.
// argv[1]: how many times to repeat the work (the bench scales it to a measurable run time).
#include <stdio.h>
#include <stdlib.h>

static long fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned long ack(unsigned long m, unsigned long n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int tak(int x, int y, int z) { return y < x ? tak(tak(x - 1, y, z), tak(y - 1, z, x), tak(z - 1, x, y)) : z; }

int main(int argc, char **argv) {
    long repeat = argc > 1 ? atol(argv[1]) : 1;
    unsigned long sum = 0;
    for (long r = 0; r < repeat; r++) {
        // `r & 1` keeps the calls from being hoisted out of the loop.
        sum += (unsigned long)fib(24 + (int)(r & 1)) + ack(2, 200 + (r & 1)) + (unsigned long)tak(16, 10 + (int)(r & 1), 4);
    }
    printf("%lu\n", sum);
    return 0;
}
