// A malloc'd singly linked list: build, reverse, sum, free.
#include <stdio.h>
#include <stdlib.h>

struct node { int value; struct node *next; };

static struct node *push(struct node *head, int v) {
    struct node *n = malloc(sizeof *n);
    n->value = v;
    n->next = head;
    return n;
}

static struct node *reverse(struct node *head) {
    struct node *prev = NULL;
    while (head) { struct node *next = head->next; head->next = prev; prev = head; head = next; }
    return prev;
}

int main(void) {
    struct node *list = NULL;
    for (int i = 1; i <= 10; i++) list = push(list, i * i);
    list = reverse(list);
    long sum = 0;
    for (struct node *n = list; n; n = n->next) { printf("%d ", n->value); sum += n->value; }
    printf("\nsum = %ld\n", sum);
    while (list) { struct node *next = list->next; free(list); list = next; }
    return (int)(sum % 256);
}
