// Small structs with mixed integer and floating-point fields, returned by value.
#include <stdio.h>

struct stats { long count; double mean; };
struct span { int lo, hi; };
struct triple { int a; float b; char c; };

static struct stats summarize(const int *xs, int n) {
    struct stats s = { n, 0 };
    for (int i = 0; i < n; i++) s.mean += xs[i];
    s.mean /= n;
    return s;
}

static struct span bounds(const int *xs, int n) {
    struct span r = { xs[0], xs[0] };
    for (int i = 1; i < n; i++) { if (xs[i] < r.lo) r.lo = xs[i]; if (xs[i] > r.hi) r.hi = xs[i]; }
    return r;
}

static struct triple pack(int a, float b, char c) { struct triple t = { a, b, c }; return t; }

int main(void) {
    int xs[] = { 4, -2, 17, 9, 0, 33, -8 };
    struct stats s = summarize(xs, 7);
    struct span b = bounds(xs, 7);
    struct triple t = pack(b.hi - b.lo, (float)s.mean, 'q');
    printf("count=%ld mean=%.4f lo=%d hi=%d t=%d %.2f %c\n", s.count, s.mean, b.lo, b.hi, t.a, (double)t.b, t.c);
    return t.a;
}
