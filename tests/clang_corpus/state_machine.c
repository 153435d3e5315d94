// A table-driven state machine over a string: an array of structs with function pointers.
#include <stdio.h>

enum state { START, NUMBER, WORD, SPACE, STATES };
struct counts { int numbers, words; };
typedef enum state (*step_fn)(char c, struct counts *k);

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_alpha(char c) { return (c | 32) >= 'a' && (c | 32) <= 'z'; }

static enum state classify(char c, struct counts *k) {
    if (is_digit(c)) { k->numbers++; return NUMBER; }
    if (is_alpha(c)) { k->words++; return WORD; }
    return SPACE;
}
static enum state in_number(char c, struct counts *k) { return is_digit(c) ? NUMBER : classify(c, k); }
static enum state in_word(char c, struct counts *k) { return is_alpha(c) ? WORD : classify(c, k); }

static const struct { step_fn step; const char *name; } machine[STATES] = {
    { classify, "start" }, { in_number, "number" }, { in_word, "word" }, { classify, "space" },
};

int main(void) {
    const char *text = "42 apples and 7 pears cost 1999 cents, 3x more";
    struct counts k = { 0, 0 };
    enum state s = START;
    for (const char *p = text; *p; p++) s = machine[s].step(*p, &k);
    printf("numbers=%d words=%d final=%s\n", k.numbers, k.words, machine[s].name);
    return k.numbers * 10 + k.words;
}
