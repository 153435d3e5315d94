// Packed structs and unaligned fields.
#include <stdio.h>

struct __attribute__((packed)) header { char tag; int length; short flags; long stamp; };
struct pair { char c; struct header h; };

int main(void) {
    struct pair p[3];
    for (int i = 0; i < 3; i++) {
        p[i].c = 'a' + i;
        p[i].h.tag = 'T';
        p[i].h.length = 1000 * (i + 1);
        p[i].h.flags = (short)(-i);
        p[i].h.stamp = 1L << (40 + i);
    }
    long s = 0;
    for (int i = 0; i < 3; i++) s += p[i].h.length + p[i].h.flags + (p[i].h.stamp >> 38) + p[i].c;
    printf("sizeof header %zu pair %zu sum %ld\n", sizeof(struct header), sizeof(struct pair), s);
    return (int)(s & 0xff);
}
