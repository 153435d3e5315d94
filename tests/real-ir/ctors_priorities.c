// Constructors and destructors with priorities: the linker orders .init_array/.fini_array.
#include <stdio.h>
#include <stdlib.h>

static int order[8];
static int count;

__attribute__((constructor(300))) static void third(void) { order[count++] = 3; }
__attribute__((constructor(101))) static void first(void) { order[count++] = 1; }
__attribute__((constructor(200))) static void second(void) { order[count++] = 2; }
__attribute__((constructor)) static void last(void) { order[count++] = 4; }

__attribute__((destructor(150))) static void d150(void) { printf("dtor 150\n"); }
__attribute__((destructor(250))) static void d250(void) { printf("dtor 250\n"); }
__attribute__((destructor)) static void dplain(void) { printf("dtor default\n"); }

static void at_exit(void) { printf("atexit\n"); }

int main(void) {
  atexit(at_exit);
  for (int i = 0; i < count; i++)
    printf("ctor %d\n", order[i]);
  return count;
}
