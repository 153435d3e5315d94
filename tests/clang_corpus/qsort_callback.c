// The C library's qsort and bsearch with comparison callbacks over structs.
#include <stdio.h>
#include <stdlib.h>

struct item { int weight; int id; };

static int by_weight(const void *a, const void *b) {
    const struct item *x = a, *y = b;
    if (x->weight != y->weight) return x->weight < y->weight ? -1 : 1;
    return x->id - y->id;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

int main(void) {
    struct item items[8];
    for (int i = 0; i < 8; i++) { items[i].weight = (i * 37 + 11) % 10; items[i].id = i; }
    qsort(items, 8, sizeof items[0], by_weight);
    for (int i = 0; i < 8; i++) printf("(%d,%d) ", items[i].weight, items[i].id);
    int sorted[] = { 2, 3, 5, 7, 11, 13, 17, 19, 23 };
    int key = 13;
    int *found = bsearch(&key, sorted, 9, sizeof(int), cmp_int);
    printf("\nfound at %ld\n", found ? (long)(found - sorted) : -1L);
    return items[0].id * 10 + (int)(found - sorted);
}
