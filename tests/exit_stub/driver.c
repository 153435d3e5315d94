/* Drives runtime::exits' machine code (the library's register-saving routine, exit activation and
 * `exit_groups` of its stub bytes, assembled from the same text the library uses) around a
 * patchmap-compiled `kernel`, on x86-64 and on AArch64 under qemu.
 *
 * main calls kernel(100, 5) through patchmap_exits_enter. `safepoint(i)`, called by the kernel each
 * iteration, patches the stack map's shadow at kernel + PATCHMAP_POINT with the exit call
 * (PATCHMAP_EXIT_CALL: Arch::encode_exit_call's bytes for the address of stub 37 in
 * `exit_groups`) when i equals PATCHMAP_EXIT_AT. `handler`, which the routine calls with the saved registers and the exit
 * number, prints the number, the return address relative to the point, and the value of each
 * location in PATCHMAP_LOCATIONS ("R:reg:size", "D:reg:off", "I:reg:off:size", comma-separated)
 * read from the saved registers and the stack; then it leaves (as Resume::Return does) with 4242,
 * which main prints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../support/registers.h"

extern int64_t kernel(int64_t n, int64_t seed);
extern uint8_t exit_groups[];
extern uint64_t patchmap_exits_enter(const void *code, const uint64_t *arguments, uint64_t *record);
extern void patchmap_exits_leave(void);

#define EXIT_NUMBER 37

#if defined(__x86_64__)
#define GPRS 16
#define VECS 16
#define VEC_DWARF 17
#define LEAVE_REGISTER 2
#else
#define GPRS 32
#define VECS 32
#define VEC_DWARF 64
#define LEAVE_REGISTER 9
#endif

static uint64_t record;
static long exit_at = -1;
static uint8_t *point;

static int register_value(const struct registers *s, long reg, uint64_t *out) {
    if (reg >= 0 && reg < GPRS) {
        *out = s->general[reg];
        return 1;
    }
    if (reg >= VEC_DWARF && reg < VEC_DWARF + VECS) {
        *out = s->vector[reg - VEC_DWARF][0];
        return 1;
    }
    return 0;
}

static uint64_t low_bytes(uint64_t v, long size) {
    return size >= 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1);
}

static void handler(struct registers *state, void *context, uint64_t number) {
    (void)context;
    printf("number %llu\n", (unsigned long long)number);
    printf("return-offset %ld\n", (long)(state->return_address - (uint64_t)(uintptr_t)point));
    printf("sp-in-frame %d\n", state->stack_pointer < record);
    char *spec = strdup(getenv("PATCHMAP_LOCATIONS"));
    for (char *loc = strtok(spec, ","); loc; loc = strtok(NULL, ",")) {
        char kind = loc[0];
        long a = 0, b = 0, c = 0;
        sscanf(loc + 2, "%ld:%ld:%ld", &a, &b, &c);
        uint64_t reg;
        if (!register_value(state, a, &reg)) {
            printf("value ?\n");
            continue;
        }
        uint64_t v = 0;
        if (kind == 'R') {
            v = low_bytes(reg, b);
        } else if (kind == 'D') {
            uint64_t contents;
            memcpy(&contents, (const void *)(uintptr_t)(reg + b), 8);
            printf("value %llx *%llx\n", (unsigned long long)(reg + b), (unsigned long long)contents);
            continue;
        } else {
            memcpy(&v, (const void *)(uintptr_t)(reg + b), c < 8 ? c : 8);
            v = low_bytes(v, c);
        }
        printf("value %llx\n", (unsigned long long)v);
    }
    free(spec);
    fflush(stdout);
    /* Leave, as the library's dispatcher does for Resume::Return(4242). */
    state->general[0] = 4242;
    state->general[LEAVE_REGISTER] = record;
    state->return_address = (uint64_t)(uintptr_t)patchmap_exits_leave;
}

struct descriptor exit_descriptor = {handler, 0};

void safepoint(int64_t i) {
    if (i != exit_at)
        return;
    /* Arch::encode_exit_call's bytes for stub 37 (hex, from the test, which knows where the
     * fixed-address executable has it). */
    const char *hex = getenv("PATCHMAP_EXIT_CALL");
    uint8_t code[32];
    size_t n = 0;
    for (; hex[2 * n] && hex[2 * n + 1] && n < sizeof code; n++)
        sscanf(hex + 2 * n, "%2hhx", &code[n]);
    long page = sysconf(_SC_PAGESIZE);
    uint8_t *start = (uint8_t *)((uintptr_t)point & ~(uintptr_t)(page - 1));
    size_t len = (size_t)(point + n - start);
    if (mprotect(start, len, PROT_READ | PROT_WRITE | PROT_EXEC) != 0) {
        perror("mprotect");
        exit(3);
    }
    memcpy(point, code, n);
    __builtin___clear_cache((char *)point, (char *)point + n);
}

int main(void) {
    point = (uint8_t *)kernel + strtol(getenv("PATCHMAP_POINT"), NULL, 0);
    exit_at = strtol(getenv("PATCHMAP_EXIT_AT"), NULL, 0);
    uint64_t arguments[8] = {100, 5};
    uint64_t r = patchmap_exits_enter((const void *)kernel, arguments, &record);
    printf("result %llu\n", (unsigned long long)r);
    return 0;
}
