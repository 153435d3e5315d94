// Structs too large for registers: passed by copy and returned through a hidden pointer.
#include <stdio.h>

struct big { long a, b, c, d; int tag; };

struct big make(long seed, int tag) {
    struct big r = { seed, seed * 2, seed * 3, seed * 4, tag };
    return r;
}

long total(struct big v) { return v.a + v.b + v.c + v.d + v.tag; }

struct big scale(struct big v, long k) {
    v.a *= k; v.b *= k; v.c *= k; v.d *= k;
    return v;
}

int main(void) {
    struct big x = make(5, 9);
    struct big y = scale(x, 3);
    printf("%ld %ld %ld %ld %d -> %ld\n", y.a, y.b, y.c, y.d, y.tag, total(y));
    return (int)(total(x) % 100);
}
