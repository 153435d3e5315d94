// Function-local statics, global arrays of pointers to globals, and pointer arithmetic.
#include <stdio.h>

static int a = 1, b = 2, c = 3;
static int *slots[] = { &a, &b, &c, &b };
static int *cursor = &b + 0;
static int **cursor_slot = &slots[2];

static int next_id(void) { static int id = 100; return id++; }

int main(void) {
    for (int i = 0; i < 4; i++) *slots[i] *= 10 + i;
    int ids = 0;
    for (int i = 0; i < 5; i++) ids += next_id();
    long diff = &slots[3] - &slots[0];
    printf("a=%d b=%d c=%d ids=%d diff=%ld cursor=%d\n", a, b, c, ids, diff, *cursor + **cursor_slot);
    return (a + b + c + ids) & 0xff;
}
