/* The C view of what the library's register-saving routine (src/runtime/entry/) works with, for the
 * drivers of the AArch64 runtime tests: `runtime::registers::Registers` (one layout on both
 * targets) and the descriptor a stub hands the routine (its handler gets the registers, its
 * context and the word the stub pushed: an exit's number, 0 for an entry). */
#include <stdint.h>

struct registers {
    uint64_t general[32];
    uint64_t vector[32][2];
    uint64_t flags, stack_pointer, return_address, reserved;
};

struct descriptor {
    void (*handler)(struct registers *, void *, uint64_t);
    void *context;
};
