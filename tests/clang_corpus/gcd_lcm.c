// Integer number theory: gcd, lcm, modular exponentiation, collatz lengths.
#include <stdio.h>

static unsigned long gcd(unsigned long a, unsigned long b) { while (b) { unsigned long t = a % b; a = b; b = t; } return a; }
static unsigned long powmod(unsigned long b, unsigned long e, unsigned long m) {
    unsigned long r = 1;
    b %= m;
    while (e) { if (e & 1) r = r * b % m; b = b * b % m; e >>= 1; }
    return r;
}
static int collatz(unsigned long n) { int steps = 0; while (n != 1) { n = n % 2 ? 3 * n + 1 : n / 2; steps++; } return steps; }

int main(void) {
    unsigned long l = 1;
    for (unsigned long i = 1; i <= 20; i++) l = l / gcd(l, i) * i;
    int longest = 0, arg = 0;
    for (int i = 1; i < 1000; i++) { int c = collatz(i); if (c > longest) { longest = c; arg = i; } }
    printf("lcm(1..20)=%lu 3^200 mod 1e9+7=%lu collatz %d:%d\n", l, powmod(3, 200, 1000000007UL), arg, longest);
    return longest;
}
