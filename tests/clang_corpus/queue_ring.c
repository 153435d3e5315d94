// A ring buffer in a struct, used as a queue for a breadth-first search.
#include <stdio.h>

#define N 16
struct queue { int items[N]; unsigned head, tail; };

static void put(struct queue *q, int v) { q->items[q->tail++ % N] = v; }
static int take(struct queue *q) { return q->items[q->head++ % N]; }
static int empty(const struct queue *q) { return q->head == q->tail; }

static const unsigned char edges[8][8] = {
    { 0, 1, 1, 0, 0, 0, 0, 0 }, { 1, 0, 0, 1, 0, 0, 0, 0 }, { 1, 0, 0, 1, 1, 0, 0, 0 },
    { 0, 1, 1, 0, 0, 1, 0, 0 }, { 0, 0, 1, 0, 0, 1, 1, 0 }, { 0, 0, 0, 1, 1, 0, 0, 1 },
    { 0, 0, 0, 0, 1, 0, 0, 1 }, { 0, 0, 0, 0, 0, 1, 1, 0 },
};

int main(void) {
    int dist[8];
    for (int i = 0; i < 8; i++) dist[i] = -1;
    struct queue q = { { 0 }, 0, 0 };
    dist[0] = 0;
    put(&q, 0);
    while (!empty(&q)) {
        int u = take(&q);
        for (int v = 0; v < 8; v++)
            if (edges[u][v] && dist[v] < 0) { dist[v] = dist[u] + 1; put(&q, v); }
    }
    int s = 0;
    for (int i = 0; i < 8; i++) { printf("%d ", dist[i]); s += dist[i]; }
    printf("\n");
    return s;
}
