// Arrays of float structs: a tiny particle integrator with float and double mixes.
#include <stdio.h>

struct particle { float x, v; double mass; };

int main(void) {
    struct particle ps[4] = { { 0.0f, 1.0f, 1.0 }, { 1.0f, -0.5f, 2.0 }, { -2.0f, 0.25f, 0.5 }, { 3.0f, 0.0f, 4.0 } };
    double energy = 0;
    for (int t = 0; t < 50; t++)
        for (int i = 0; i < 4; i++) {
            ps[i].v -= 0.01f * ps[i].x;
            ps[i].x += 0.1f * ps[i].v;
        }
    for (int i = 0; i < 4; i++) {
        energy += 0.5 * ps[i].mass * ps[i].v * ps[i].v;
        printf("p%d x=%.4f v=%.4f\n", i, (double)ps[i].x, (double)ps[i].v);
    }
    printf("energy=%.6f\n", energy);
    return (int)(energy * 100) & 0xff;
}
