// Bit-fields: packing, sign extension and read-modify-write.
#include <stdio.h>

struct flags {
    unsigned ready : 1;
    unsigned mode : 3;
    signed delta : 5;
    unsigned count : 12;
};

int main(void) {
    struct flags f = { 1, 5, -3, 1000 };
    int sum = 0;
    for (int i = 0; i < 20; i++) {
        f.count += 7;
        f.delta += 1;
        f.mode = (f.mode + 3) & 7;
        sum += f.delta + f.mode;
    }
    printf("ready=%u mode=%u delta=%d count=%u sum=%d size=%zu\n", f.ready, f.mode, f.delta, f.count, sum,
           sizeof f);
    return sum & 0xff;
}
