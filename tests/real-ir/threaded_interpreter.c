// A threaded bytecode interpreter: computed goto through a table of label addresses
// (`blockaddress` constants and `indirectbr`), as interpreters and JIT runtimes are written.
#include <stdio.h>

enum { PUSH, ADD, SUB, MUL, DUP, SWAP, JNZ, DEC, PRINT, HALT };

static long run(const int *code, int verbose) {
  static void *labels[] = {&&op_push, &&op_add, &&op_sub, &&op_mul, &&op_dup,
                           &&op_swap, &&op_jnz, &&op_dec, &&op_print, &&op_halt};
  long stack[64];
  int sp = 0;
  const int *pc = code;
  long steps = 0;
#define NEXT do { steps++; goto *labels[*pc++]; } while (0)
  NEXT;
op_push:
  stack[sp++] = *pc++;
  NEXT;
op_add:
  sp--; stack[sp - 1] += stack[sp];
  NEXT;
op_sub:
  sp--; stack[sp - 1] -= stack[sp];
  NEXT;
op_mul:
  sp--; stack[sp - 1] *= stack[sp];
  NEXT;
op_dup:
  stack[sp] = stack[sp - 1]; sp++;
  NEXT;
op_swap: {
  long t = stack[sp - 1]; stack[sp - 1] = stack[sp - 2]; stack[sp - 2] = t;
  NEXT;
}
op_jnz: {
  int target = *pc++;
  if (stack[sp - 1] != 0) pc = code + target;
  NEXT;
}
op_dec:
  stack[sp - 1]--;
  NEXT;
op_print:
  if (verbose) printf("top %ld\n", stack[sp - 1]);
  NEXT;
op_halt:
  printf("steps %ld\n", steps);
  return stack[sp - 1];
}

// Dispatch through label offsets from a base label (no relocations in the table): GCC's idiom,
// constant differences of `blockaddress`es in the IR.
static int run_offsets(const unsigned char *code) {
  static const int offsets[] = {&&op_inc - &&op_inc, &&op_dbl - &&op_inc, &&op_neg - &&op_inc,
                                &&op_end - &&op_inc};
  int acc = 1;
  goto *(&&op_inc + offsets[*code++]);
op_inc:
  acc++;
  goto *(&&op_inc + offsets[*code++]);
op_dbl:
  acc *= 2;
  goto *(&&op_inc + offsets[*code++]);
op_neg:
  acc = -acc;
  goto *(&&op_inc + offsets[*code++]);
op_end:
  return acc;
}

// A label address kept in a variable and compared, as some dispatchers do.
static int classify(int x) {
  void *where = x < 0 ? &&negative : x == 0 ? &&zero : &&positive;
  if (where == &&zero) return 100;
  goto *where;
negative:
  return -1;
zero:
  return 0;
positive:
  return 1;
}

int main(void) {
  // Counts 10 down to 0, printing each value: DUP, PUSH 0, ADD and SWAP leave it unchanged.
  int prog[] = {PUSH, 1, PUSH, 10, /*4*/ DUP, PUSH, 0, ADD, SWAP, PRINT, DEC, JNZ, 4, HALT};
  printf("%ld\n", run(prog, 1));
  int sum[] = {PUSH, 3, PUSH, 4, ADD, PUSH, 5, MUL, PUSH, 2, SUB, PRINT, HALT};
  printf("%ld\n", run(sum, 0));
  unsigned char ops[] = {0, 1, 1, 2, 0, 1, 3};
  printf("%d\n", run_offsets(ops));
  for (int i = -2; i <= 2; i++) printf("%d ", classify(i));
  printf("\n");
  return 0;
}
