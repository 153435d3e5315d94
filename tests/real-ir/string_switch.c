// A switch returning string literals: clang -O2 turns it into a relative lookup table
// (`trunc (sub (ptrtoint @str, ptrtoint @table))` entries read by `llvm.load.relative.i32`).
#include <stdio.h>

static const char *colour(int c) {
  switch (c) {
  case 0: return "red";
  case 1: return "orange";
  case 2: return "yellow";
  case 3: return "green";
  case 4: return "blue";
  case 5: return "indigo";
  case 6: return "violet";
  default: return "none";
  }
}

__attribute__((noinline)) const char *weekday(unsigned d) {
  switch (d) {
  case 0: return "Mon";
  case 1: return "Tue";
  case 2: return "Wed";
  case 3: return "Thu";
  case 4: return "Fri";
  case 5: return "Sat";
  case 6: return "Sun";
  }
  return "?";
}

int main(void) {
  for (int i = -1; i < 9; i++)
    printf("%d %s %s\n", i, colour(i), weekday((unsigned)i));
  return 0;
}
