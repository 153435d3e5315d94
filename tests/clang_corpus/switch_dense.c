// Dense and sparse switches.
#include <stdio.h>

static int dense(int x) {
    switch (x) {
    case 0: return 11;
    case 1: return 7;
    case 2: return 19;
    case 3: return 4;
    case 4: return 23;
    case 5: return 1;
    case 6: return 8;
    default: return -1;
    }
}

static const char *sparse(unsigned x) {
    switch (x) {
    case 1: return "one";
    case 10: return "ten";
    case 100: return "hundred";
    case 1000: return "thousand";
    case 65536: return "64k";
    default: return "other";
    }
}

int main(void) {
    int acc = 0;
    for (int i = -2; i < 10; i++) acc = acc * 3 + dense(i);
    unsigned probes[] = { 1, 2, 10, 100, 999, 1000, 65536 };
    for (int i = 0; i < 7; i++) printf("%u: %s\n", probes[i], sparse(probes[i]));
    printf("acc = %d\n", acc);
    return acc & 0x3f;
}
