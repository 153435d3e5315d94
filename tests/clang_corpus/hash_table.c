// An open-addressing hash table of string keys in a global array of structs.
#include <stdio.h>

struct entry { const char *key; int value; int used; };
static struct entry table[64];

static unsigned hash(const char *s) { unsigned h = 2166136261u; while (*s) h = (h ^ (unsigned char)*s++) * 16777619u; return h; }
static int equal(const char *a, const char *b) { while (*a && *a == *b) { a++; b++; } return *a == *b; }

static void put(const char *k, int v) {
    unsigned i = hash(k) & 63;
    while (table[i].used && !equal(table[i].key, k)) i = (i + 1) & 63;
    table[i].key = k; table[i].value = v; table[i].used = 1;
}

static int get(const char *k) {
    unsigned i = hash(k) & 63;
    while (table[i].used) { if (equal(table[i].key, k)) return table[i].value; i = (i + 1) & 63; }
    return -1;
}

int main(void) {
    const char *keys[] = { "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta" };
    for (int i = 0; i < 8; i++) put(keys[i], i * i + 1);
    put("gamma", 100);
    int s = 0;
    for (int i = 0; i < 8; i++) { printf("%s=%d ", keys[i], get(keys[i])); s += get(keys[i]); }
    printf("missing=%d\n", get("omega"));
    return s & 0xff;
}
