// String handling written by hand: length, reverse, compare, search.
#include <stdio.h>

static unsigned my_strlen(const char *s) { unsigned n = 0; while (s[n]) n++; return n; }

static void reverse(char *s) {
    unsigned n = my_strlen(s);
    for (unsigned i = 0; i < n / 2; i++) { char t = s[i]; s[i] = s[n - 1 - i]; s[n - 1 - i] = t; }
}

static int compare(const char *a, const char *b) {
    while (*a && *a == *b) { a++; b++; }
    return (unsigned char)*a - (unsigned char)*b;
}

static int find(const char *hay, const char *needle) {
    for (int i = 0; hay[i]; i++) {
        int j = 0;
        while (needle[j] && hay[i + j] == needle[j]) j++;
        if (!needle[j]) return i;
    }
    return -1;
}

int main(void) {
    char buf[32] = "patchmap stack maps";
    reverse(buf);
    printf("%s|%d|%d|%d\n", buf, compare("apple", "apricot"), find("hello world", "o w"), find("abc", "x"));
    return my_strlen(buf);
}
