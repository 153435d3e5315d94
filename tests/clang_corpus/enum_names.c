// Enums indexing a table of structs with string names.
#include <stdio.h>

enum color { RED, GREEN, BLUE, YELLOW, COLORS };
struct rgb { unsigned char r, g, b; const char *name; };
static const struct rgb palette[COLORS] = {
    [RED] = { 255, 0, 0, "red" }, [GREEN] = { 0, 200, 0, "green" },
    [BLUE] = { 0, 0, 255, "blue" }, [YELLOW] = { 255, 255, 0, "yellow" },
};

static enum color brightest(void) {
    enum color best = RED;
    int best_sum = -1;
    for (enum color c = RED; c < COLORS; c++) {
        int s = palette[c].r + palette[c].g + palette[c].b;
        if (s > best_sum) { best_sum = s; best = c; }
    }
    return best;
}

int main(void) {
    for (enum color c = RED; c < COLORS; c++)
        printf("%-6s #%02x%02x%02x\n", palette[c].name, palette[c].r, palette[c].g, palette[c].b);
    enum color b = brightest();
    printf("brightest: %s\n", palette[b].name);
    return (int)b;
}
