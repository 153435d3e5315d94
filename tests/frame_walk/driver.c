/* Drives a patchmap-compiled call chain (tests/runtime/frame_walk.rs) on AArch64 under qemu: main
 * first calls the entry directly (runtime_entry(6, 7), whose handler returns 67: "direct 43"), then
 * f0(argv[1], argv[2], 0); the chain's functions call `runtime_entry`, the library's entry stub
 * (its bytes, linked with `descriptor` and the library's `patchmap_entry_save` routine, assembled
 * from the same text the library uses), which saves every register and calls `handler`.
 *
 * At each stop the handler prints the captured registers ("registers <hex of the 800 bytes>") and
 * the stack from the stop's SP up to main's frame ("stack <SP in hex> <hex bytes>"); at the first
 * stop it then makes the writes in
 * PATCHMAP_WRITES (comma-separated "r:<dwarf>:<size>:<hex value>" into a captured register,
 * "m:<offset from SP>:<size>:<hex value>" into memory), sets the result register and returns through
 * the entry.
 *
 * `driver exact` instead checks the entry's save and restore: `exactness` (assembly the test adds)
 * loads every register from `before`, calls the entry, whose handler records the capture, changes
 * every register and resumes past the trap that follows the call, then stores every register into `after`; the driver prints "before",
 * "captured" and "after" as hex for the test to compare. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../support/registers.h"

extern void f0(int64_t, int64_t, int64_t);
extern int64_t runtime_entry(int64_t, int64_t);

static uintptr_t top;
static int direct;
static int stops;
static int exact;
static struct registers before, captured, after;
extern void exactness(const struct registers *, struct registers *);

static void hex(const void *p, size_t n) {
    const uint8_t *bytes = p;
    for (size_t i = 0; i < n; i++)
        printf("%02x", bytes[i]);
    printf("\n");
}

static uint64_t merge(uint64_t old, long size, uint64_t value) {
    uint64_t mask = size >= 8 ? ~UINT64_C(0) : (UINT64_C(1) << (8 * size)) - 1;
    return (old & ~mask) | (value & mask);
}

static void handler(struct registers *r, void *context, uint64_t word) {
    (void)context, (void)word; /* an entry pushes no word */
    if (exact) {
        captured = *r;
        change_every_register(r);
        return;
    }
    if (direct) {
        r->general[0] = r->general[0] * 10 + r->general[1];
        return;
    }
    printf("registers ");
    hex(r, sizeof *r);
    printf("stack %llx ", (unsigned long long)r->stack_pointer);
    hex((const void *)(uintptr_t)r->stack_pointer, top - (uintptr_t)r->stack_pointer);
    const char *writes = stops++ == 0 ? getenv("PATCHMAP_WRITES") : NULL;
    char *spec = strdup(writes ? writes : "");
    for (char *w = strtok(spec, ","); w; w = strtok(NULL, ",")) {
        char kind = w[0];
        long where = 0, size = 0;
        unsigned long long value = 0;
        if (sscanf(w + 2, "%ld:%ld:%llx", &where, &size, &value) != 3) {
            printf("bad write %s\n", w);
            exit(3);
        }
        if (kind == 'r' && where >= 0 && where < 32) {
            r->general[where] = merge(r->general[where], size, value);
        } else if (kind == 'r' && where >= 64 && where < 96) {
            r->vector[where - 64][0] = merge(r->vector[where - 64][0], size, value);
        } else if (kind == 'm') {
            uint8_t *at = (uint8_t *)(uintptr_t)(r->stack_pointer + where);
            memcpy(at, &value, size > 8 ? 8 : size);
        } else {
            printf("bad write %s\n", w);
            exit(3);
        }
    }
    free(spec);
    r->general[0] = strtoull(getenv("PATCHMAP_ENTRY_RESULT"), NULL, 16);
}

struct descriptor descriptor = {handler, 0};

int main(int argc, char **argv) {
    volatile uint64_t marker = 0;
    top = (uintptr_t)&marker;
    if (argc == 2 && strcmp(argv[1], "exact") == 0) {
        for (int i = 0; i < 32; i++) {
            before.general[i] = (UINT64_C(0x0101010101010101) * (uint64_t)(i + 1)) ^ (UINT64_C(1) << 63);
            before.vector[i][0] = UINT64_C(0x12340000) + (uint64_t)i;
            before.vector[i][1] = UINT64_C(0xabcd000000000000) | (uint64_t)i;
        }
        before.flags = UINT64_C(0x90000000); /* N, V */
        exact = 1;
        exactness(&before, &after);
        printf("before ");
        hex(&before, sizeof before);
        printf("captured ");
        hex(&captured, sizeof captured);
        printf("after ");
        hex(&after, sizeof after);
        return 0;
    }
    if (argc != 3)
        return 2;
    direct = 1;
    printf("direct %llx\n", (unsigned long long)runtime_entry(6, 7));
    direct = 0;
    f0((int64_t)strtoull(argv[1], NULL, 16), (int64_t)strtoull(argv[2], NULL, 16), 0);
    return 0;
}
