/* Drives examples/deopt/exit_stub.rs's machine code (its `enter` and `exit_stub`, assembled from the
 * same text) around a patchmap-compiled `kernel`, on x86-64 and on AArch64 under qemu.
 *
 * `safepoint(i)`, called by the kernel each iteration, patches the stack map's shadow at
 * kernel + PATCHMAP_POINT with the exit call (PATCHMAP_EXIT_CALL: Arch::encode_exit_call's
 * instructions) and the stub's address when i equals PATCHMAP_EXIT_AT. The stub then calls `exit_handler`, which prints the return address relative to
 * the point and the value of each location in PATCHMAP_LOCATIONS ("R:reg:size", "D:reg:off",
 * "I:reg:off:size", comma-separated) read from the saved registers and the stack, and resumes through
 * `enter` with 4242, which main prints. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

extern int64_t kernel(int64_t n, int64_t seed);
extern uint64_t enter(void *code, uint64_t a0, uint64_t a1, uint64_t *entry_stack);
extern void exit_stub(void);

static uint64_t entry_stack;
static long exit_at = -1;
static uint8_t *point;

#if defined(__x86_64__)
#define GPRS 16
#define VECS 16
#define VEC_WORDS 2
#define VEC_DWARF 17
#define SP_DWARF 7
#define RETURN_OFFSET 6
#else
#define GPRS 32
#define VECS 32
#define VEC_WORDS 1
#define VEC_DWARF 64
#define SP_DWARF 31
#define RETURN_OFFSET 8
#endif

struct exit_state {
    uint64_t gpr[GPRS];
    uint64_t vec[VECS][VEC_WORDS];
};

struct resume {
    uint64_t value;
    uint64_t stack;
};

static int register_value(const struct exit_state *s, long reg, uint64_t *out) {
    if (reg >= 0 && reg < GPRS) {
        *out = s->gpr[reg];
        return 1;
    }
    if (reg >= VEC_DWARF && reg < VEC_DWARF + VECS) {
        *out = s->vec[reg - VEC_DWARF][0];
        return 1;
    }
    return 0;
}

static uint64_t low_bytes(uint64_t v, long size) {
    return size >= 8 ? v : v & ((UINT64_C(1) << (8 * size)) - 1);
}

struct resume exit_handler(const struct exit_state *state, uint64_t return_address) {
    printf("return-offset %ld\n", (long)(return_address - (uint64_t)(uintptr_t)point));
    printf("sp-in-frame %d\n", state->gpr[SP_DWARF] < entry_stack);
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
    struct resume r = {4242, entry_stack};
    return r;
}

void safepoint(int64_t i) {
    if (i != exit_at)
        return;
    /* Arch::encode_exit_call's instructions (hex, from the test), then the stub's address. */
    const char *hex = getenv("PATCHMAP_EXIT_CALL");
    uint8_t code[32];
    size_t n = 0;
    for (; hex[2 * n] && hex[2 * n + 1] && n + 8 < sizeof code; n++)
        sscanf(hex + 2 * n, "%2hhx", &code[n]);
    uint64_t target = (uint64_t)(uintptr_t)exit_stub;
    memcpy(code + n, &target, 8);
    n += 8;
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
    uint64_t r = enter((void *)kernel, 100, 5, &entry_stack);
    printf("result %llu\n", (unsigned long long)r);
    return 0;
}
