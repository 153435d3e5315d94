// Variable-length arrays in loops (stacksave/stackrestore), memcpy/memset/memmove of them.
#include <stdio.h>
#include <string.h>

static int fill_and_sum(int n) {
    int a[n];
    for (int i = 0; i < n; i++) a[i] = i * i - n;
    int b[n];
    memcpy(b, a, sizeof a);
    memmove(b + 1, b, (n - 1) * sizeof(int));
    int s = 0;
    for (int i = 0; i < n; i++) s += b[i];
    return s;
}

int main(void) {
    long total = 0;
    for (int n = 1; n <= 40; n += 3) {
        char buf[n + 1];
        memset(buf, 'a' + n % 26, n);
        buf[n] = 0;
        int s = fill_and_sum(n);
        total += s;
        if (n % 9 == 1) printf("%d %s %d\n", n, buf, s);
    }
    printf("total %ld\n", total);
    return (int)(total & 63);
}
