#include <stdio.h>
#include "abi.h"

struct pair theirs_pair_late(long a1, long a2, long a3, long a4, long a5, long a6, long a7, struct pair p, long after) {
    struct pair r = { p.a * a7 + a1, p.b + after + a2 + a3 + a4 + a5 + a6 };
    return r;
}

struct dpair theirs_dpair_late(double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                               struct dpair p, double after) {
    struct dpair r = { p.x + d7 + d1, p.y * after + d2 + d3 + d4 + d5 + d6 };
    return r;
}

struct big theirs_big(struct triple t) {
    struct big b = { { t.a, t.b, t.c, t.a * t.b, t.b * t.c } };
    return b;
}

int main(void) {
    struct pair p = ours_pair((struct pair){ 6, 7 }, (struct pair){ 2, 3 });
    struct pair q = ours_pair_late(1, 2, 3, 4, 5, 6, 7, (struct pair){ 10, 20 }, 3);
    struct dpair d = ours_dpair_late(1, 2, 3, 4, 5, 6, 7, (struct dpair){ 0.5, 4.0 }, 0.75);
    struct mixed m = ours_mixed((struct mixed){ 9, 3.0 }, (struct small){ 4, 'A' });
    long t = ours_triple((struct triple){ 1, 2, 3 }, 1000);
    struct big b = ours_big((struct big){ { 1, 2, 3, 4, 5 } }, 3);
    long back = ours_calls_back();
    printf("pair %ld %ld\nlate %ld %ld\ndpair %.3f %.3f\nmixed %ld %.3f\ntriple %ld\nbig %ld %ld %ld %ld %ld\nback %ld\n",
           p.a, p.b, q.a, q.b, d.x, d.y, m.n, m.d, t, b.v[0], b.v[1], b.v[2], b.v[3], b.v[4], back);
    return 0;
}
