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

/* What the exactness tests' handlers do to a capture (the Rust side checks it): every general
 * register but x30 and SP and every vector register changed, Z and C flipped, and the code resumed
 * past the 4-byte trap after the call. */
static inline void change_every_register(struct registers *r) {
    for (int i = 0; i < 30; i++)
        r->general[i] ^= UINT64_C(0x1111) * (uint64_t)(i + 1);
    for (int i = 0; i < 32; i++) {
        r->vector[i][0] = ~r->vector[i][0];
        r->vector[i][1] ^= 0xff00;
    }
    r->flags ^= UINT64_C(0x60000000); /* Z, C */
    r->return_address += 4;
}
