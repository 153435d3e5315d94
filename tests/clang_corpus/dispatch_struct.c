// Structs holding function pointers: a small virtual dispatch.
#include <stdio.h>

struct shape;
struct shape_ops { long (*area)(const struct shape *); const char *name; };
struct shape { const struct shape_ops *ops; long w, h; };

static long rect_area(const struct shape *s) { return s->w * s->h; }
static long tri_area(const struct shape *s) { return s->w * s->h / 2; }

static const struct shape_ops rect_ops = { rect_area, "rect" };
static const struct shape_ops tri_ops = { tri_area, "triangle" };

static struct shape shapes[] = { { &rect_ops, 3, 4 }, { &tri_ops, 6, 5 }, { &rect_ops, 10, 1 } };

int main(void) {
    long total = 0;
    for (unsigned i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        long a = shapes[i].ops->area(&shapes[i]);
        printf("%s %ldx%ld: %ld\n", shapes[i].ops->name, shapes[i].w, shapes[i].h, a);
        total += a;
    }
    return (int)total;
}
