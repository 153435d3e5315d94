// Tables of strings and a character histogram.
#include <stdio.h>

static const char *const words[] = { "stack", "maps", "patch", "points", "without", "llvm" };
static int histogram[26];

int main(void) {
    int letters = 0;
    for (unsigned w = 0; w < sizeof words / sizeof *words; w++)
        for (const char *p = words[w]; *p; p++) { histogram[*p - 'a']++; letters++; }
    for (int i = 0; i < 26; i++)
        if (histogram[i]) printf("%c:%d ", 'a' + i, histogram[i]);
    printf("\n%d letters\n", letters);
    return letters;
}
