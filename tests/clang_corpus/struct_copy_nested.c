// Nested struct copies, assignment and comparison field by field.
#include <stdio.h>

struct vec3 { int x, y, z; };
struct body { struct vec3 pos, vel; char name[8]; };

static struct vec3 vadd(struct vec3 a, struct vec3 b) { struct vec3 r = { a.x + b.x, a.y + b.y, a.z + b.z }; return r; }

static void step(struct body *b) { b->pos = vadd(b->pos, b->vel); b->vel.z -= 1; }

int main(void) {
    struct body bodies[2] = { { { 0, 0, 10 }, { 1, 2, 3 }, "ball" }, { { 5, 5, 0 }, { -1, 0, 4 }, "rock" } };
    struct body saved = bodies[0];
    for (int t = 0; t < 6; t++) { step(&bodies[0]); step(&bodies[1]); }
    bodies[1].name[0] = 'R';
    for (int i = 0; i < 2; i++)
        printf("%s at (%d,%d,%d) v=(%d,%d,%d)\n", bodies[i].name, bodies[i].pos.x, bodies[i].pos.y, bodies[i].pos.z,
               bodies[i].vel.x, bodies[i].vel.y, bodies[i].vel.z);
    printf("saved %s z=%d\n", saved.name, saved.pos.z);
    return bodies[0].pos.z & 0xff;
}
