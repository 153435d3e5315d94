// Global struct initialisers: nested structs, arrays inside structs, pointers to globals.
#include <stdio.h>

struct inner { short a; char b; long c; };
struct outer { int id; struct inner in[2]; const char *label; int *counter; };

static int hits = 5;
struct outer config = { 7, { { 1, 'x', 100000000000L }, { -2, 'y', -3 } }, "config", &hits };
static const struct inner defaults[3] = { { 9, 'a', 1 }, [2] = { 8, 'c', 3 } };

int main(void) {
    long sum = config.id;
    for (int i = 0; i < 2; i++) sum += config.in[i].a + config.in[i].b + config.in[i].c;
    for (int i = 0; i < 3; i++) sum += defaults[i].a * defaults[i].c;
    *config.counter += 1;
    printf("%s %ld %d %c\n", config.label, sum, hits, defaults[2].b);
    return (int)(sum & 0x7f);
}
