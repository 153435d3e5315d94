// Unions for type punning and a tagged union.
#include <stdio.h>

union word { unsigned int u; float f; unsigned char bytes[4]; };

struct value { int kind; union { long i; double d; const char *s; } as; };

static void show(struct value v) {
    switch (v.kind) {
    case 0: printf("int %ld\n", v.as.i); break;
    case 1: printf("double %.3f\n", v.as.d); break;
    default: printf("string %s\n", v.as.s); break;
    }
}

int main(void) {
    union word w;
    w.f = 1.5f;
    printf("bits of 1.5f: %08x, low byte %u\n", w.u, w.bytes[0]);
    struct value vs[3] = { { 0, { .i = 42 } }, { 1, { .d = 2.25 } }, { 2, { .s = "hello" } } };
    for (int i = 0; i < 3; i++) show(vs[i]);
    return (int)(w.u >> 24);
}
