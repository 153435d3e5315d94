// Arithmetic guarded by __builtin_*_overflow, as JIT front ends guard it before deoptimising.
#include <limits.h>
#include <stdio.h>

static long checked_sum(const long *v, int n, int *overflowed) {
    long total = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_add_overflow(total, v[i], &total)) {
            *overflowed = i;
            return total;
        }
    }
    return total;
}

int main(void) {
    long values[] = {1, LONG_MAX / 2, LONG_MAX / 2, 5, -7};
    int where = -1;
    long s = checked_sum(values, 5, &where);
    printf("sum=%ld overflow at %d\n", s, where);
    int r;
    for (unsigned k = 0; k < 6; k++) {
        int a = INT_MAX - 3 + (int)k % 4 - (k > 3 ? INT_MAX : 0);
        int o = __builtin_sadd_overflow(a, 1, &r);
        printf("%d+1 -> %d (%d)\n", a, r, o);
    }
    unsigned u;
    printf("usub %d %u\n", __builtin_usub_overflow(3u, 5u, &u), u);
    unsigned long m;
    printf("umul %d %lu\n", __builtin_umull_overflow(1UL << 40, 1UL << 30, &m), m);
    short s16;
    printf("smul16 %d %d\n", __builtin_mul_overflow((short)300, (short)300, &s16), s16);
    signed char c;
    printf("sub8 %d %d\n", __builtin_sub_overflow((signed char)-100, (signed char)100, &c), c);
    return where;
}
