// A bit-array sieve of Eratosthenes.
#include <stdio.h>
#include <string.h>

static unsigned char composite[1250];

int main(void) {
    int limit = 10000, count = 0;
    long last = 0;
    for (int i = 2; i * i < limit; i++)
        if (!(composite[i >> 3] & (1 << (i & 7))))
            for (int j = i * i; j < limit; j += i) composite[j >> 3] |= (unsigned char)(1 << (j & 7));
    for (int i = 2; i < limit; i++)
        if (!(composite[i >> 3] & (1 << (i & 7)))) { count++; last = i; }
    printf("%d primes below %d, largest %ld\n", count, limit, last);
    return count % 256;
}
