// Deep recursion: Ackermann and mutual recursion.
#include <stdio.h>

static unsigned long ack(unsigned long m, unsigned long n) {
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}

static int is_odd(unsigned n);
static int is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

int main(void) {
    unsigned long a = ack(2, 3) + ack(3, 3);
    printf("ack = %lu even(1001) = %d odd(777) = %d\n", a, is_even(1001), is_odd(777));
    return (int)a;
}
