// A malloc'd binary search tree: insert, in-order walk, height.
#include <stdio.h>
#include <stdlib.h>

struct tree { long key; struct tree *left, *right; };

static struct tree *insert(struct tree *t, long key) {
    if (!t) {
        t = calloc(1, sizeof *t);
        t->key = key;
        return t;
    }
    if (key < t->key) t->left = insert(t->left, key);
    else t->right = insert(t->right, key);
    return t;
}

static void walk(const struct tree *t) {
    if (!t) return;
    walk(t->left);
    printf("%ld ", t->key);
    walk(t->right);
}

static int height(const struct tree *t) {
    if (!t) return 0;
    int l = height(t->left), r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void destroy(struct tree *t) { if (t) { destroy(t->left); destroy(t->right); free(t); } }

int main(void) {
    struct tree *root = NULL;
    unsigned long x = 12345;
    for (int i = 0; i < 25; i++) {
        x = x * 6364136223846793005UL + 1442695040888963407UL;
        root = insert(root, (long)(x >> 40) % 1000);
    }
    walk(root);
    int h = height(root);
    printf("\nheight = %d\n", h);
    destroy(root);
    return h;
}
