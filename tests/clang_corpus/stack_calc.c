// An RPN calculator with a struct-held stack and a switch over operators.
#include <stdio.h>

struct stack { long items[32]; int top; };

static void push(struct stack *s, long v) { s->items[s->top++] = v; }
static long pop(struct stack *s) { return s->items[--s->top]; }

static long eval(const char *expr) {
    struct stack s;
    s.top = 0;
    for (const char *p = expr; *p; p++) {
        char c = *p;
        if (c >= '0' && c <= '9') { long v = 0; while (*p >= '0' && *p <= '9') v = v * 10 + (*p++ - '0'); p--; push(&s, v); continue; }
        if (c == ' ') continue;
        long b = pop(&s), a = pop(&s);
        switch (c) {
        case '+': push(&s, a + b); break;
        case '-': push(&s, a - b); break;
        case '*': push(&s, a * b); break;
        case '/': push(&s, a / b); break;
        case '%': push(&s, a % b); break;
        default: return -999;
        }
    }
    return pop(&s);
}

int main(void) {
    const char *exprs[] = { "3 4 + 2 *", "100 7 % 5 -", "12 3 / 4 4 * +", "1 2 3 4 5 + + + +" };
    long total = 0;
    for (int i = 0; i < 4; i++) { long v = eval(exprs[i]); printf("%s = %ld\n", exprs[i], v); total += v; }
    return (int)total;
}
