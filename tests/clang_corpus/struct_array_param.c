// Structs holding arrays passed by value, and a struct of two floats.
#include <stdio.h>

struct vec4 { int v[4]; };
struct fpair { float a, b; };

static int sum4(struct vec4 x) { return x.v[0] + x.v[1] + x.v[2] + x.v[3]; }
static struct vec4 twice(struct vec4 x) { for (int i = 0; i < 4; i++) x.v[i] *= 2; return x; }
static struct fpair swap(struct fpair p) { struct fpair r = { p.b, p.a }; return r; }

int main(void) {
    struct vec4 x = { { 1, 2, 3, 4 } };
    struct vec4 y = twice(twice(x));
    struct fpair p = swap((struct fpair){ 1.5f, -2.5f });
    printf("%d %d | %d %d %d %d | %.1f %.1f\n", sum4(x), sum4(y), y.v[0], y.v[1], y.v[2], y.v[3], (double)p.a,
           (double)p.b);
    return sum4(y);
}
