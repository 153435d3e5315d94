// Structs passed and returned by value, small enough for registers on both targets.
#include <stdio.h>

struct point { long x, y; };

static struct point add(struct point a, struct point b) {
    struct point r = { a.x + b.x, a.y + b.y };
    return r;
}

static long dot(struct point a, struct point b) { return a.x * b.x + a.y * b.y; }

int main(void) {
    struct point p = { 3, 4 }, q = { -7, 11 };
    struct point s = add(p, q);
    for (int i = 0; i < 5; i++) s = add(s, p);
    printf("sum = (%ld, %ld) dot = %ld\n", s.x, s.y, dot(s, q));
    return (int)(dot(p, q) & 0x7f);
}
