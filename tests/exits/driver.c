/* Drives runtime::exits' AArch64 code under qemu (tests/runtime/exits.rs): the library's
 * register-saving routine and exit activation (its own assembly text) and `exit_groups`, groups of
 * the library's stub bytes whose descriptor is `exit_descriptor` below. `handler` plays the part of
 * the library's Rust dispatcher: it applies the answer (continue, resume at an address, or leave
 * through patchmap_exits_leave with x9 = the activation's stack pointer).
 *
 * `driver numbers`: calls stub n (0..159) through patchmap_exits_enter with n + 7 in x0; the
 * handler continues with x0 = number * 1000 + x0 for odd exits and leaves with it for even ones;
 * prints "exit n number <handler's number> result <what enter returned>".
 *
 * `driver exact N`: `exactness` (assembly the test adds) loads every register from `before`, calls
 * stub N with the exit call's `blr x16`, and stores every register into `after`; the handler
 * records the capture, changes every register and resumes past the trap after the call. Prints
 * "number", "before", "captured" and "after" (hex). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/registers.h"

extern uint8_t exit_groups[];
extern uint64_t patchmap_exits_enter(const void *code, const uint64_t *arguments, uint64_t *record);
extern void patchmap_exits_leave(void);
extern void exactness(const struct registers *, struct registers *);

#define STUB_SIZE 8
#define GROUP_SIZE 320

void *exit_target;
static uint64_t record;
static int exact;
static uint64_t number_seen;
static struct registers before, captured, after;

static void hex(const void *p, size_t n) {
    const uint8_t *bytes = p;
    for (size_t i = 0; i < n; i++)
        printf("%02x", bytes[i]);
    printf("\n");
}

static void *stub(uint64_t n) {
    return exit_groups + (n / 32) * GROUP_SIZE + (n % 32) * STUB_SIZE;
}

static void handler(struct registers *r, void *context, uint64_t number) {
    (void)context;
    number_seen = number;
    if (exact) {
        captured = *r;
        change_every_register(r);
        return;
    }
    uint64_t value = number * 1000 + r->general[0];
    r->general[0] = value;
    if (number % 2 == 0) {
        r->general[9] = record;
        r->return_address = (uint64_t)(uintptr_t)patchmap_exits_leave;
    }
}

struct descriptor exit_descriptor = {handler, 0};

int main(int argc, char **argv) {
    if (argc == 2 && strcmp(argv[1], "numbers") == 0) {
        for (uint64_t n = 0; n < 160; n++) {
            uint64_t arguments[8] = {n + 7};
            uint64_t r = patchmap_exits_enter(stub(n), arguments, &record);
            printf("exit %llu number %llu result %llu\n", (unsigned long long)n, (unsigned long long)number_seen,
                   (unsigned long long)r);
        }
        return 0;
    }
    if (argc == 3 && strcmp(argv[1], "exact") == 0) {
        exit_target = stub(strtoull(argv[2], NULL, 10));
        for (int i = 0; i < 32; i++) {
            before.general[i] = (UINT64_C(0x0101010101010101) * (uint64_t)(i + 1)) ^ (UINT64_C(1) << 63);
            before.vector[i][0] = UINT64_C(0x12340000) + (uint64_t)i;
            before.vector[i][1] = UINT64_C(0xabcd000000000000) | (uint64_t)i;
        }
        before.flags = UINT64_C(0x90000000); /* N, V */
        exact = 1;
        exactness(&before, &after);
        printf("number %llu\n", (unsigned long long)number_seen);
        printf("before ");
        hex(&before, sizeof before);
        printf("captured ");
        hex(&captured, sizeof captured);
        printf("after ");
        hex(&after, sizeof after);
        return 0;
    }
    fprintf(stderr, "usage: driver numbers | driver exact N\n");
    return 2;
}
