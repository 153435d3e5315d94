#include "abi.h"

struct pair ours_pair(struct pair p, struct pair q) {
    struct pair r = { p.a * q.b, p.b - q.a };
    return r;
}

struct pair ours_pair_late(long a1, long a2, long a3, long a4, long a5, long a6, long a7, struct pair p, long after) {
    struct pair r = { p.a + a1 + a7, p.b * after + a2 + a3 + a4 + a5 + a6 };
    return r;
}

struct dpair ours_dpair_late(double d1, double d2, double d3, double d4, double d5, double d6, double d7,
                             struct dpair p, double after) {
    struct dpair r = { p.x * d1 + d7, p.y - after + d2 + d3 + d4 + d5 + d6 };
    return r;
}

struct mixed ours_mixed(struct mixed m, struct small s) {
    struct mixed r = { m.n * s.a + s.c, m.d * 0.5 };
    return r;
}

long ours_triple(struct triple t, long k) { return t.a * 100 + t.b * 10 + t.c + k; }

struct big ours_big(struct big b, long k) {
    struct big r;
    for (int i = 0; i < 5; i++) r.v[i] = b.v[4 - i] * k;
    return r;
}

long ours_calls_back(void) {
    struct pair p = { 3, 4 };
    struct pair r = theirs_pair_late(1, 2, 3, 4, 5, 6, 7, p, 8);
    struct dpair d = { 1.5, 2.5 };
    struct dpair e = theirs_dpair_late(1, 2, 3, 4, 5, 6, 7, d, 0.25);
    struct big b = theirs_big((struct triple){ 5, 6, 7 });
    return r.a * 1000 + r.b + (long)(e.x * 10) + (long)(e.y * 100) + b.v[0] + b.v[4];
}
